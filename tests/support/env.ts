/**
 * Per test file: the environment the handlers read, pointing at the shared DynamoDB Local and at a table
 * of this file's own, created before any test runs, and at an in-process stand-in for the Lambda Invoke
 * API (./lambda.ts).
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, inject } from 'vitest';
import { ensureTable } from '../../scripts/lib/table.js';
import { localClient } from '../../scripts/lib/local-dynamodb.js';
import { startLambdaStandIn } from './lambda.js';

const endpoint = inject('dynamoEndpoint');
const tableName = `test-${randomBytes(6).toString('hex')}`;
Object.assign(process.env, {
  STAGE: 'test',
  DYNAMODB_ENDPOINT: endpoint,
  TABLE_NAME: tableName,
  JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
  LOG_REQUESTS: 'false',
  AWS_REGION: 'eu-west-1',
});
// the functions the service invokes itself (the alarms on new data) run in this process
process.env.LAMBDA_ENDPOINT = (await startLambdaStandIn('test')).url;

beforeAll(async () => {
  if (process.env.DYNAMODB_ENDPOINT !== endpoint) return; // a file that points elsewhere on purpose
  const client = localClient(endpoint);
  await ensureTable(client, tableName);
  client.destroy();
});

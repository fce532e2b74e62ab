/**
 * Once per `npm test`: regenerate validators and the OpenAPI document, start ONE in-memory DynamoDB
 * Local on a free port (loopback only) and hand its endpoint to every test file (each file then creates
 * its own table). The e2e suites start the stack through the launcher of `npm start`, each building into
 * a folder of its own (tests/support/offline.ts).
 */
import type { TestProject } from 'vitest/node';
import { generate } from '../../scripts/generate.js';
import { freePort, startLocalDynamo } from '../../scripts/lib/local-dynamodb.js';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

export default async function setup(project: TestProject) {
  await generate();
  const dynamo = await startLocalDynamo({ port: await freePort(), inMemory: true });
  project.provide('dynamoEndpoint', dynamo.endpoint);
  return async () => dynamo.stop();
}

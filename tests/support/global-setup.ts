/**
 * Once per `npm test`: regenerate validators and the OpenAPI document, build the handlers into dist/ for
 * the suites that start serverless-offline (once, before any test process: two processes rebuilding the
 * shared dist/ at the same time would pull files from under each other), start ONE in-memory DynamoDB
 * Local on a free port and hand its endpoint to every test file (each file then creates its own table).
 */
import type { TestProject } from 'vitest/node';
import { build } from '../../scripts/build.js';
import { generate } from '../../scripts/generate.js';
import { freePort, startLocalDynamo } from '../../scripts/lib/local-dynamodb.js';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    /** dist/ holds this run's build of every handler. */
    handlersBuilt: boolean;
  }
}

export default async function setup(project: TestProject) {
  await generate();
  const [dynamo] = await Promise.all([startLocalDynamo({ port: await freePort(), inMemory: true }), build()]);
  project.provide('dynamoEndpoint', dynamo.endpoint);
  project.provide('handlersBuilt', true);
  return async () => dynamo.stop();
}

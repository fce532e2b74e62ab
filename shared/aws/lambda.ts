import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { settings } from '../config/env.js';

/**
 * Starts one of this service's own functions asynchronously (Lambda `InvocationType: Event`): Lambda
 * queues the event and answers at once; the function runs through shared/events like a job, and Lambda
 * retries it twice on an error. Locally the same call goes to serverless-offline's Lambda port
 * (`LAMBDA_ENDPOINT`), in the tests to an in-process stand-in. The function name is serverless's
 * `<service>-<stage>-<function key>`.
 */
let client: LambdaClient | undefined;

function lambda(): LambdaClient {
  const { lambdaEndpoint, region } = settings();
  client ??= new LambdaClient({
    region,
    ...(lambdaEndpoint ? { endpoint: lambdaEndpoint, credentials: { accessKeyId: 'fakeKeyId', secretAccessKey: 'fakeSecretKey' } } : {}),
  });
  return client;
}

export const functionNameOf = (functionKey: string): string => `flockwise-${settings().stage}-${functionKey}`;

export async function invokeAsync(functionKey: string, payload: unknown): Promise<void> {
  await lambda().send(
    new InvokeCommand({ FunctionName: functionNameOf(functionKey), InvocationType: 'Event', Payload: new TextEncoder().encode(JSON.stringify(payload)) }),
  );
}

/** Tests point the service at another Lambda endpoint between suites. */
export function resetLambdaClient(): void {
  client?.destroy();
  client = undefined;
}

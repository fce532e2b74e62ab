/**
 * `npm start`: the validators and the OpenAPI document (generate), then the local stack through its one
 * launcher (scripts/lib/stack.ts, the same the e2e tests and benchmarks start): DynamoDB Local (data in
 * .data/, or DYNAMODB_IN_MEMORY=1, or DYNAMODB_ENDPOINT for another DynamoDB) → table → default farm +
 * first admin → MQTT broker → one esbuild build (watching) → serverless-offline on PORT → the bridge
 * that hands device messages to the IoT Core rule's function (docs/sensors.md). Every setting comes
 * from this process's environment. Ctrl-C stops everything it started.
 */
import { generate } from './generate.js';
import { startStack, type Stack } from './lib/stack.js';
import { TELEMETRY_TOPIC_FILTER } from './lib/mqtt-bridge.js';

const started = performance.now();
let stack: Stack | undefined;
let stopping = false;
const shutdown = async (code: number) => {
  if (stopping) return;
  stopping = true;
  await stack?.stop();
  process.exit(code);
};
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

try {
  await generate();
  stack = await startStack({
    env: process.env,
    log: (line) => console.log(line),
    onOutput: (text, stream) => process[stream].write(text),
    onExit: (code) => {
      console.error(`npm start: serverless-offline exited (${code ?? 'signal'})`);
      void shutdown(code || 1);
    },
  });
  const { baseUrl, admin, mqttUrl } = stack;
  console.log(
    `\nFlockwise API ready on ${baseUrl} in ${((performance.now() - started) / 1000).toFixed(1)} s — docs: ${baseUrl}/docs\n` +
      `  curl -s -X POST ${baseUrl}/api/v1/auth/login -H 'Content-Type: application/json' -d '{"email":"${admin.email}","password":"…"}'\n` +
      `MQTT ${mqttUrl}: ${TELEMETRY_TOPIC_FILTER} → iotTelemetryRule (as IoT Core; no device auth locally). A simulated farm: npm run sensors\n`,
  );
} catch (err) {
  console.error(`npm start failed: ${(err as Error).message}`);
  await shutdown(1);
}

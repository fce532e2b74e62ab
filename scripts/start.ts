/**
 * `npm start`: DynamoDB Local (data in .data/, or DYNAMODB_IN_MEMORY=1, or DYNAMODB_ENDPOINT for another
 * DynamoDB) → table → default farm + first admin → an MQTT broker on MQTT_PORT (default 1883, localhost only)
 * → one esbuild build of all handlers (watching) → serverless-offline on PORT → once offline is ready, the
 * bridge that hands every device message on `flockwise/+/devices/+/telemetry` to the IoT Core rule function,
 * as IoT Core would (scripts/lib/mqtt-bridge.ts; docs/sensors.md). Ctrl-C stops everything it started.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from './generate.js';
import { watchBuild } from './build.js';
import { ROOT } from './lib/route-table.js';
import { localClient, startLocalDynamo, type LocalDynamo } from './lib/local-dynamodb.js';
import { ensureTable } from './lib/table.js';
import { seed } from './lib/seed.js';
import { spawnOffline } from './lib/offline-process.js';
import { startMqttBroker, startRuleBridge, TELEMETRY_TOPIC_FILTER } from './lib/mqtt-bridge.js';

const env = process.env;
const PORT = Number(env.PORT ?? 3000);
const MQTT_PORT = Number(env.MQTT_PORT ?? 1883);
/** The broker has no device authentication: localhost only unless MQTT_HOST says otherwise (docs/sensors.md). */
const MQTT_HOST = env.MQTT_HOST ?? '127.0.0.1';
const DEFAULTS = { ADMIN_EMAIL: 'admin@flockwise.local', ADMIN_PASSWORD: 'flockwise-admin-1', TABLE_NAME: 'flockwise-dev' };

function jwtSecret(): string {
  if (env.JWT_SECRET) return env.JWT_SECRET;
  const file = join(ROOT, '.local', 'jwt-secret');
  if (!existsSync(file)) {
    mkdirSync(join(ROOT, '.local'), { recursive: true });
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
}

async function main(): Promise<void> {
  const started = performance.now();
  const stops: Array<() => Promise<void> | void> = [];
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const stop of stops.reverse()) await Promise.resolve(stop()).catch(() => {});
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  try {
    await generate();
    let endpoint = env.DYNAMODB_ENDPOINT;
    if (!endpoint) {
      const inMemory = env.DYNAMODB_IN_MEMORY === '1' || env.DYNAMODB_IN_MEMORY === 'true';
      const dynamo: LocalDynamo = await startLocalDynamo({ port: Number(env.DYNAMODB_PORT ?? 8000), inMemory });
      stops.push(() => dynamo.stop());
      endpoint = dynamo.endpoint;
      console.log(`DynamoDB Local on ${endpoint} (${inMemory ? 'in memory' : 'data in .data/'})`);
    }
    const tableName = env.TABLE_NAME ?? DEFAULTS.TABLE_NAME;
    Object.assign(env, { DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: tableName, STAGE: 'dev', JWT_SECRET: jwtSecret() });
    const client = localClient(endpoint);
    if (await ensureTable(client, tableName)) console.log(`created table ${tableName}`);
    const admin = { email: env.ADMIN_EMAIL ?? DEFAULTS.ADMIN_EMAIL, password: env.ADMIN_PASSWORD ?? DEFAULTS.ADMIN_PASSWORD };
    const seeded = await seed(admin);
    console.log(`default farm ${seeded.farmId}; admin ${admin.email} ${seeded.adminCreated ? 'created' : 'already present'}`);
    // Before the build, so a taken port fails at once (like DynamoDB's); the bridge follows once offline is ready.
    const broker = await startMqttBroker({ port: MQTT_PORT, host: MQTT_HOST });
    stops.push(() => broker.stop());
    const mqttUrl = `mqtt://${MQTT_HOST === '127.0.0.1' ? 'localhost' : MQTT_HOST}:${broker.port}`;

    const ctx = await watchBuild();
    stops.push(() => ctx.dispose());
    let announced = false;
    const offline = spawnOffline({
      stage: 'dev',
      ports: { http: PORT, websocket: PORT + 1, lambda: PORT + 2, alb: PORT + 3 },
      env,
      inProcess: false, // a worker per handler: edits are picked up after each rebuild
      host: 'localhost',
      onOutput: (text, stream) => {
        process[stream].write(text);
        if (announced || !text.includes('Server ready')) return;
        announced = true;
        startRuleBridge({ brokerUrl: broker.url, lambdaEndpoint: `http://localhost:${PORT + 2}`, functionName: 'flockwise-dev-iotTelemetryRule' })
          .then((bridge) => {
            stops.push(() => bridge.stop());
            console.log(
              `\nFlockwise API ready on http://localhost:${PORT} in ${((performance.now() - started) / 1000).toFixed(1)} s — docs: http://localhost:${PORT}/docs\n` +
                `  curl -s -X POST http://localhost:${PORT}/api/v1/auth/login -H 'Content-Type: application/json' -d '{"email":"${admin.email}","password":"…"}'\n` +
                `MQTT ${mqttUrl}: ${TELEMETRY_TOPIC_FILTER} → iotTelemetryRule (as IoT Core; no device auth locally). A simulated farm: npm run sensors\n`,
            );
          })
          .catch((err: unknown) => {
            console.error(`npm start failed: the MQTT rule bridge did not start: ${(err as Error).message}`);
            void shutdown(1);
          });
      },
      onExit: (code) => void shutdown(code ?? 1),
    });
    stops.push(() => offline.stop());
  } catch (err) {
    console.error(`npm start failed: ${(err as Error).message}`);
    await shutdown(1);
  }
}

await main();

/**
 * The one launcher of the local stack. `npm start` (scripts/start.ts), the e2e tests
 * (tests/support/offline.ts) and the benchmarks (bench/) all call `startStack` with an environment, the
 * way a user's shell gives one to `npm start`: every setting of the README's configuration table is read
 * from it and nothing else is. What a test or a benchmark may choose is what a user may choose there
 * (ports, the database, a documented setting such as a rate limit), plus a fault it injects on purpose,
 * by name (`fault`), which `npm start` never sets.
 *
 * Order: DynamoDB Local (loopback only; or DYNAMODB_ENDPOINT) → table → default farm + first admin → an
 * MQTT broker → one esbuild build of every handler into this stack's own folder `.build/api-<port>/`
 * (watching: edits are picked up by the running stack) → serverless-offline on PORT (its Lambda,
 * websocket and ALB ports next to it), every handler in one process → every handler loaded once (warm) →
 * the bridge that hands device messages to the IoT Core rule's function.
 *
 * Everything listens on HOST (default 127.0.0.1) and DynamoDB Local on the loopback alone: nothing is
 * reachable from another machine unless HOST says so (docs/security.md).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { BuildContext } from 'esbuild';
import { resetDb } from '../../shared/db/client.js';
import { resetSettings } from '../../shared/config/env.js';
import { watchBuild } from '../build.js';
import { freePort, localClient, startLocalDynamo } from './local-dynamodb.js';
import { startMqttBroker, startRuleBridge, type BridgedMessage, type RuleBridge } from './mqtt-bridge.js';
import { spawnOffline, urlHost, type OfflineProcess } from './offline-process.js';
import { ROOT, loadRoutes } from './route-table.js';
import { seed } from './seed.js';
import { ensureTable } from './table.js';

export const DEFAULTS = {
  PORT: 3000,
  HOST: '127.0.0.1',
  DYNAMODB_PORT: 8000,
  MQTT_PORT: 1883,
  TABLE_NAME: 'flockwise-dev',
  ADMIN_EMAIL: 'admin@flockwise.local',
  ADMIN_PASSWORD: 'flockwise-admin-1',
};
/** The stage of every local stack: function names are `flockwise-dev-<key>`. */
export const LOCAL_STAGE = 'dev';

export interface StackOptions {
  /** The user's environment (`npm start`: its own process.env). PORT, DYNAMODB_PORT and MQTT_PORT `0` take free ports. */
  env: NodeJS.ProcessEnv;
  /** A fault a test injects on purpose: its variables reach the handlers, and the stack says so in its log. */
  fault?: { name: string; env: Record<string, string> };
  /** Offline's output as it comes (`npm start` relays it to the terminal). */
  onOutput?: (text: string, stream: 'stdout' | 'stderr') => void;
  /** The stack's own lines (what started where, the MQTT bridge); default: none. */
  log?: (line: string) => void;
  /** Offline ended on its own (not through stop()). */
  onExit?: (code: number | null) => void;
  /** Every device message the MQTT bridge handed to the rule's function, with its outcome. */
  onBridgeMessage?: (message: BridgedMessage) => void;
  /** Load every handler once before answering (default true). */
  warm?: boolean;
  readyTimeoutMs?: number;
}

export interface Stack {
  baseUrl: string;
  /** offline's Lambda Invoke API (`/2015-03-31/functions/<name>/invocations`). */
  lambdaUrl: string;
  mqttUrl: string;
  /** The MQTT rule bridge (its counts: `stats()`). */
  bridge: RuleBridge;
  stage: string;
  tableName: string;
  dynamoEndpoint: string;
  jwtSecret: string;
  admin: { email: string; password: string; id: string; created: boolean };
  defaultFarmId: string;
  /** The processes of the stack: this one (the MQTT broker), offline's, and DynamoDB Local's when it started one. */
  pids: number[];
  /** serverless-offline's process, where every handler runs. */
  offlinePid: number | undefined;
  /** Everything offline printed so far (stdout and stderr), for failure messages. */
  output(): string;
  /** Invokes a function by its serverless key synchronously through offline's Lambda port; throws on an error of the function. */
  invoke(functionKey: string, event?: unknown): Promise<unknown>;
  /** Stops everything it started and removes its build folder. Idempotent. */
  stop(): Promise<void>;
}

/** HS256 secret: JWT_SECRET, else one generated once into .local/jwt-secret (mode 600). */
function jwtSecret(env: NodeJS.ProcessEnv): string {
  if (env.JWT_SECRET) return env.JWT_SECRET;
  const file = join(ROOT, '.local', 'jwt-secret');
  if (!existsSync(file)) {
    mkdirSync(join(ROOT, '.local'), { recursive: true });
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
}

const flag = (value: string | undefined) => value === '1' || value === 'true';

function portSetting(env: NodeJS.ProcessEnv, name: 'PORT' | 'DYNAMODB_PORT' | 'MQTT_PORT'): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return DEFAULTS[name];
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`${name} must be a port number (0 takes a free one), not "${raw}"`);
  return port;
}

/** Fails with a clear message when a port of the stack is taken (before anything is built or removed). */
function assertFree(port: number, host: string, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        new Error(
          err.code === 'EADDRINUSE' ? `port ${port} (${what}) is in use: set PORT to another base port` : `cannot listen on ${host}:${port}: ${err.message}`,
        ),
      ),
    );
    srv.listen(port, host, () => srv.close(() => resolve()));
  });
}

async function offlinePorts(base: number, host: string): Promise<{ http: number; websocket: number; lambda: number; alb: number }> {
  if (base === 0) {
    const ports = new Set<number>();
    while (ports.size < 4) ports.add(await freePort());
    const [http, websocket, lambda, alb] = [...ports] as [number, number, number, number];
    return { http, websocket, lambda, alb };
  }
  const ports = { http: base, websocket: base + 1, lambda: base + 2, alb: base + 3 };
  for (const [what, port] of Object.entries(ports)) await assertFree(port, host, `offline's ${what} port`);
  return ports;
}

/** Runs `fn` with the service's settings pointed at this stack's table (the seed uses the service's own code). */
async function withServiceEnvironment<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const previous = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  resetSettings();
  resetDb();
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(previous)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetSettings();
    resetDb();
  }
}

/**
 * Loads every handler once through offline's Lambda Invoke API with an inert event (no body, a TEST-NET
 * client address, no token: 401/400/404, nothing written but that address's rate counter).
 */
async function warmAll(lambdaUrl: string): Promise<void> {
  const names = [...new Set(loadRoutes().map((r) => r.functionName))];
  const event = { httpMethod: 'GET', path: '/__warmup', headers: {}, requestContext: { requestId: 'warmup', identity: { sourceIp: '192.0.2.1' } } };
  for (let i = 0; i < names.length; i += 16) {
    await Promise.all(
      names.slice(i, i + 16).map(async (name) => {
        const res = await fetch(`${lambdaUrl}/2015-03-31/functions/flockwise-${LOCAL_STAGE}-${name}/invocations`, {
          method: 'POST',
          body: JSON.stringify(event),
        });
        const text = await res.text();
        const payload = JSON.parse(text) as { statusCode?: number };
        if (res.status !== 200 || typeof payload.statusCode !== 'number' || payload.statusCode >= 500) {
          throw new Error(`could not load handler ${name}: ${res.status} ${text.slice(0, 500)}`);
        }
      }),
    );
  }
}

/** One synchronous invocation through offline's Lambda Invoke API. */
async function invokeFunction(lambdaUrl: string, functionName: string, event: unknown, output: () => string): Promise<unknown> {
  const res = await fetch(`${lambdaUrl}/2015-03-31/functions/${functionName}/invocations`, {
    method: 'POST',
    headers: { 'x-amz-invocation-type': 'RequestResponse' },
    body: JSON.stringify(event ?? {}),
  });
  const text = await res.text();
  const functionError = res.headers.get('x-amz-function-error');
  if (res.status !== 200 || functionError) {
    throw new Error(
      `invoke ${functionName} → ${res.status}${functionError ? ` (function error: ${functionError})` : ''} ${text.slice(0, 2000)}\n--- offline output ---\n${output().slice(-3000)}`,
    );
  }
  return text ? (JSON.parse(text) as unknown) : undefined;
}

async function waitForHealth(offline: OfflineProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastAnswer = 'no answer';
  const failure = (what: string) => {
    const errors = [
      ...new Set(
        offline
          .output()
          .split('\n')
          .filter((l) => /error/i.test(l) && !/^\s+at /.test(l)),
      ),
    ].slice(0, 5);
    return `serverless offline ${what} (last GET /health: ${lastAnswer})\nerrors: ${errors.join('\n        ') || 'none printed'}\noutput (tail):\n${offline.output().slice(-6000)}`;
  };
  for (;;) {
    const exit = offline.exitReason();
    if (exit) throw new Error(failure(`${exit} before GET /health answered 200`));
    try {
      const res = await fetch(`${offline.baseUrl}/health`, { signal: AbortSignal.timeout(2000) });
      lastAnswer = `${res.status} ${(await res.text()).slice(0, 500)}`;
      if (res.status === 200) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(failure(`did not answer GET ${offline.baseUrl}/health with 200 within ${timeoutMs} ms`));
    await new Promise((r) => setTimeout(r, 150));
  }
}

export async function startStack(opts: StackOptions): Promise<Stack> {
  const env = opts.env;
  const log = opts.log ?? (() => {});
  const host = env.HOST || DEFAULTS.HOST;
  const stops: Array<() => Promise<void> | void> = [];
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    for (const s of stops.reverse()) await Promise.resolve(s()).catch(() => {});
  };
  try {
    let dynamoEndpoint = env.DYNAMODB_ENDPOINT;
    const pids = [process.pid];
    if (!dynamoEndpoint) {
      const inMemory = flag(env.DYNAMODB_IN_MEMORY);
      const port = portSetting(env, 'DYNAMODB_PORT');
      const dynamo = await startLocalDynamo({ port: port === 0 ? await freePort() : port, inMemory });
      stops.push(() => dynamo.stop());
      if (dynamo.process.pid) pids.push(dynamo.process.pid);
      dynamoEndpoint = dynamo.endpoint;
      log(`DynamoDB Local on ${dynamoEndpoint} (${inMemory ? 'in memory' : 'data in .data/'}; loopback only)`);
    }
    const tableName = env.TABLE_NAME || DEFAULTS.TABLE_NAME;
    const secret = jwtSecret(env);
    const client = localClient(dynamoEndpoint);
    try {
      if (await ensureTable(client, tableName)) log(`created table ${tableName}`);
    } finally {
      client.destroy();
    }
    const admin = { email: env.ADMIN_EMAIL || DEFAULTS.ADMIN_EMAIL, password: env.ADMIN_PASSWORD || DEFAULTS.ADMIN_PASSWORD };
    const seeded = await withServiceEnvironment({ TABLE_NAME: tableName, DYNAMODB_ENDPOINT: dynamoEndpoint }, () => seed(admin));
    log(`default farm ${seeded.farmId}; admin ${admin.email} ${seeded.adminCreated ? 'created' : 'already present'}`);

    // Ports first, so a taken one fails before anything is built; the bridge follows once offline is ready.
    const ports = await offlinePorts(portSetting(env, 'PORT'), host);
    const mqttHost = env.MQTT_HOST || host;
    const broker = await startMqttBroker({ port: portSetting(env, 'MQTT_PORT'), host: mqttHost });
    stops.push(() => broker.stop());

    const buildDir = join(ROOT, '.build', `api-${ports.http}`);
    const ctx: BuildContext = await watchBuild(buildDir, (errors) =>
      log(errors ? `rebuild failed (${errors} errors): the last good build keeps serving` : 'rebuilt: the next request runs the new code'),
    );
    stops.push(() => rmSync(buildDir, { recursive: true, force: true }));
    stops.push(() => ctx.dispose());

    if (opts.fault) log(`injected fault "${opts.fault.name}": ${Object.keys(opts.fault.env).join(', ')}`);
    const offline = spawnOffline({
      stage: LOCAL_STAGE,
      ports,
      host,
      env: {
        ...env,
        STAGE: LOCAL_STAGE,
        TABLE_NAME: tableName,
        DYNAMODB_ENDPOINT: dynamoEndpoint,
        JWT_SECRET: secret,
        FLOCKWISE_BUILD_DIR: buildDir,
        SLS_TELEMETRY_DISABLED: '1',
        SLS_NOTIFICATIONS_MODE: 'off',
        ...opts.fault?.env,
      },
      onOutput: opts.onOutput,
      onExit: (code) => {
        if (!stopped) opts.onExit?.(code);
      },
    });
    stops.push(() => offline.stop());
    if (offline.pid) pids.push(offline.pid);
    const lambdaUrl = `http://${urlHost(host)}:${ports.lambda}`;
    await waitForHealth(offline, opts.readyTimeoutMs ?? 90_000);
    if (opts.warm !== false) await warmAll(lambdaUrl);
    const bridge = await startRuleBridge({
      brokerUrl: broker.url,
      lambdaEndpoint: lambdaUrl,
      functionName: `flockwise-${LOCAL_STAGE}-iotTelemetryRule`,
      log,
      onMessage: opts.onBridgeMessage,
    });
    stops.push(() => bridge.stop());

    return {
      baseUrl: offline.baseUrl,
      lambdaUrl,
      mqttUrl: `mqtt://${urlHost(mqttHost)}:${broker.port}`,
      bridge,
      stage: LOCAL_STAGE,
      tableName,
      dynamoEndpoint,
      jwtSecret: secret,
      admin: { ...admin, id: seeded.adminId, created: seeded.adminCreated },
      defaultFarmId: seeded.farmId,
      pids,
      offlinePid: offline.pid,
      output: offline.output,
      invoke: (functionKey, event) => invokeFunction(lambdaUrl, `flockwise-${LOCAL_STAGE}-${functionKey}`, event, offline.output),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

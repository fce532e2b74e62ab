/**
 * e2e support: the real HTTP stack. Builds the handlers once (the single esbuild build into dist/, the
 * one `npm start` uses), creates a fresh table on the DynamoDB Local of the global setup, seeds the
 * admin and starts `serverless offline start --useInProcess` on free ports in its own process group.
 *
 * Stage and table: serverless.yml pins the functions' TABLE_NAME to `flockwise-${stage}` (provider
 * environment wins over the process environment), so a fresh table per instance means a stage of its
 * own: `e2e<hex>` by default. Any non-prod stage takes `params.default` (JWT_SECRET, DYNAMODB_ENDPOINT
 * from the environment), exactly like `dev`. A table per instance also gives each instance its own
 * rate-limit counters, although every request of a test comes from 127.0.0.1.
 */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { build } from '../../scripts/build.js';
import { freePort, localClient } from '../../scripts/lib/local-dynamodb.js';
import { spawnOffline } from '../../scripts/lib/offline-process.js';
import { loadRoutes } from '../../scripts/lib/route-table.js';
import { ensureTable } from '../../scripts/lib/table.js';
import { seed } from '../../scripts/lib/seed.js';
import { resetSettings } from '../../shared/config/env.js';

export const E2E_ADMIN = { email: 'admin@e2e.local', password: 'e2e-admin-password-1' };
/** The secret offline signs with; tests craft tokens with it (HS256, iss `flockwise`, aud `flockwise-api`). */
export const E2E_JWT_SECRET = `e2e-${randomBytes(24).toString('hex')}`;

export interface OfflineOptions {
  /** Extra environment for the handlers, e.g. `{ RATE_LIMIT_AUTH_MAX: '3' }`. */
  env?: Record<string, string>;
  /** serverless stage (never `prod`); default a fresh `e2e<hex>`, which also names a fresh table. */
  stage?: string;
  admin?: { email: string; password: string };
  readyTimeoutMs?: number;
  /** Load every handler before returning (default true; see warmAll). */
  warm?: boolean;
}

export interface Offline {
  baseUrl: string;
  stage: string;
  tableName: string;
  jwtSecret: string;
  admin: { email: string; password: string; id: string };
  /** Everything offline printed so far (stdout and stderr), for failure messages. */
  output(): string;
  /**
   * Invokes one of the service's functions by its serverless key (`rulesJob`, `predictiveJob`…) through
   * offline's Lambda port, synchronously (RequestResponse), as a schedule or AWS would: the parsed payload
   * the handler answered (an event handler's `{status, result}`). Throws with the body on an answer other
   * than 200 and on an unhandled error of the function (200 with `X-Amz-Function-Error`).
   */
  invoke(functionKey: string, event?: unknown): Promise<unknown>;
  /** Stops the whole process group: SIGTERM, then SIGKILL after 3 s. Idempotent. */
  stop(): Promise<void>;
}

/** Preloaded into offline: when its parent (the vitest worker) is gone, kill offline's own process group. */
let built: Promise<void> | undefined;
/** The global setup built dist/ once for the whole run; a process started outside it builds once itself. */
function buildOnce(): Promise<void> {
  built ??= inject('handlersBuilt') ? Promise.resolve() : build();
  return built;
}

/** Seeds the admin into `tableName` with the service's own code (it reads TABLE_NAME through settings()). */
async function seedInto(tableName: string, admin: { email: string; password: string }) {
  const previous = process.env.TABLE_NAME;
  process.env.TABLE_NAME = tableName;
  resetSettings();
  try {
    return await seed(admin);
  } finally {
    if (previous === undefined) delete process.env.TABLE_NAME;
    else process.env.TABLE_NAME = previous;
    resetSettings();
  }
}

async function distinctPorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}

/**
 * Loads every handler once through offline's Lambda invoke endpoint with an inert event (no body, a
 * TEST-NET client address, no token: 401/400/404, nothing written but that address's rate counter).
 * In-process offline caches a loaded module, so from here on a rebuild of the shared dist/ by another
 * run or by `npm start` cannot pull files from under this instance.
 */
async function warmAll(lambdaUrl: string, stage: string, failure: (what: string) => string): Promise<void> {
  const names = [...new Set(loadRoutes().map((r) => r.functionName))];
  const event = { httpMethod: 'GET', path: '/__warmup', headers: {}, requestContext: { requestId: 'warmup', identity: { sourceIp: '192.0.2.1' } } };
  await Promise.all(
    names.map(async (name) => {
      const res = await fetch(`${lambdaUrl}/2015-03-31/functions/flockwise-${stage}-${name}/invocations`, { method: 'POST', body: JSON.stringify(event) });
      const text = await res.text();
      const payload = JSON.parse(text) as { statusCode?: number };
      if (res.status !== 200 || typeof payload.statusCode !== 'number' || payload.statusCode >= 500) {
        throw new Error(failure(`could not load handler ${name}: ${res.status} ${text.slice(0, 500)}`));
      }
    }),
  );
}

/** One synchronous invocation through offline's Lambda Invoke API (see Offline.invoke). */
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

export async function startOffline(opts: OfflineOptions = {}): Promise<Offline> {
  const stage = opts.stage ?? `e2e${randomBytes(4).toString('hex')}`;
  if (stage === 'prod') throw new Error('e2e tests never run the prod stage');
  const tableName = `flockwise-${stage}`;
  const admin = opts.admin ?? E2E_ADMIN;
  const endpoint = inject('dynamoEndpoint');

  const client = localClient(endpoint);
  try {
    await Promise.all([buildOnce(), ensureTable(client, tableName)]);
  } finally {
    client.destroy();
  }
  const seeded = await seedInto(tableName, admin);

  const [httpPort, lambdaPort, websocketPort, albPort] = (await distinctPorts(4)) as [number, number, number, number];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    STAGE: stage,
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: endpoint,
    JWT_SECRET: E2E_JWT_SECRET,
    AWS_REGION: process.env.AWS_REGION ?? 'eu-west-1',
    // No AWS account is involved: keep the SDK away from any real profile.
    AWS_ACCESS_KEY_ID: 'fakeKeyId',
    AWS_SECRET_ACCESS_KEY: 'fakeSecretKey',
    SLS_TELEMETRY_DISABLED: '1',
    SLS_NOTIFICATIONS_MODE: 'off',
    // the service invokes its own functions (rulesOnNewData) through THIS offline's Lambda port: never the
    // in-process stand-in that tests/support/env.ts points this worker's LAMBDA_ENDPOINT at (its functions are
    // the `test` stage's, so every invocation from offline would answer "Function not found")
    LAMBDA_ENDPOINT: `http://127.0.0.1:${lambdaPort}`,
    ...opts.env,
  };
  const offline = spawnOffline({ stage, ports: { http: httpPort, lambda: lambdaPort, websocket: websocketPort, alb: albPort }, env });
  const { baseUrl, output: out } = offline;
  const instance: Offline = {
    baseUrl,
    stage,
    tableName,
    jwtSecret: E2E_JWT_SECRET,
    admin: { ...admin, id: seeded.adminId },
    output: out,
    stop: offline.stop,
    invoke: (functionKey, event) => invokeFunction(`http://127.0.0.1:${lambdaPort}`, `flockwise-${stage}-${functionKey}`, event, out),
  };

  const timeoutMs = opts.readyTimeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  let lastAnswer = 'no answer';
  const failure = (what: string) => {
    const errors = [
      ...new Set(
        out()
          .split('\n')
          .filter((l) => /error/i.test(l) && !/^\s+at /.test(l)),
      ),
    ].slice(0, 5);
    return `serverless offline ${what} (last GET /health: ${lastAnswer})\nerrors: ${errors.join('\n        ') || 'none printed'}\noutput (tail):\n${out().slice(-6000)}`;
  };
  for (;;) {
    const exit = offline.exitReason();
    if (exit) {
      await instance.stop();
      throw new Error(failure(`${exit} before GET /health answered 200`));
    }
    let ready = false;
    try {
      const res = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(2000) });
      ready = res.status === 200;
      lastAnswer = `${res.status} ${(await res.text()).slice(0, 500)}`;
    } catch {
      /* not listening yet */
    }
    if (ready) {
      if (opts.warm !== false) {
        try {
          await warmAll(`http://127.0.0.1:${lambdaPort}`, stage, failure);
        } catch (err) {
          await instance.stop();
          throw err;
        }
      }
      return instance;
    }
    if (Date.now() > deadline) {
      await instance.stop();
      throw new Error(failure(`did not answer GET ${baseUrl}/health with 200 within ${timeoutMs} ms`));
    }
    await new Promise((r) => setTimeout(r, 150));
  }
}

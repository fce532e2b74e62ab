/**
 * e2e support: the real HTTP stack, started through the one launcher `npm start` uses
 * (scripts/lib/stack.ts) in the environment a user's `npm start` has: PATH and HOME of this process and
 * nothing else of it (no AWS variables, no test settings), plus what a user may choose too:
 * - the ports (free ones: PORT, MQTT_PORT `0`);
 * - the database: the run's DynamoDB Local (global setup) and a fresh table (TABLE_NAME);
 * - the first admin and the signing secret (ADMIN_EMAIL/ADMIN_PASSWORD, JWT_SECRET: tests craft tokens);
 * - `settings`: documented settings of the README's configuration table (e.g. a small rate limit);
 * - `fault`: a fault the test injects on purpose, by name (its variables reach the handlers).
 * Each instance builds into its own folder and serves from it, so a running `npm start` is never disturbed.
 */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { startStack, type Stack, type StackOptions } from '../../scripts/lib/stack.js';

export const E2E_ADMIN = { email: 'admin@e2e.local', password: 'e2e-admin-password-1' };
/** The secret offline signs with; tests craft tokens with it (HS256, iss `flockwise`, aud `flockwise-api`). */
export const E2E_JWT_SECRET = `e2e-${randomBytes(24).toString('hex')}`;

/** The settings of the README's configuration table that a test may choose, as a user may. */
const USER_SETTING =
  /^(RATE_LIMIT_(GENERAL|AUTH|READ|DATE|INGEST)_(MAX|WINDOW_SECONDS)|JWT_(ISSUER|AUDIENCE|TTL_SECONDS)|MAX_BODY_BYTES|MOVEMENT_AUTO_LOCK_HOURS|SENSOR_RAW_TTL_DAYS|PREDICTIVE_JOB_ENABLED|EXPORT_DIR|CORS_ORIGIN|LOG_REQUESTS)$/;

export interface OfflineOptions {
  /** Documented settings, e.g. `{ RATE_LIMIT_AUTH_MAX: '3' }` (anything else is refused: use `fault`). */
  env?: Record<string, string>;
  /** A fault injected on purpose, named by the test. */
  fault?: { name: string; env: Record<string, string> };
  admin?: { email: string; password: string };
  readyTimeoutMs?: number;
  /** The stack's own log lines (the MQTT bridge's among them). */
  log?: (line: string) => void;
  onBridgeMessage?: StackOptions['onBridgeMessage'];
  /** Load every handler before returning (default true). */
  warm?: boolean;
}

export interface Offline {
  baseUrl: string;
  /** The stage of every local stack (`dev`): function names are `flockwise-dev-<key>`. */
  stage: string;
  tableName: string;
  jwtSecret: string;
  mqttUrl: string;
  bridge: Stack['bridge'];
  admin: { email: string; password: string; id: string };
  /** The processes of the stack (this one, offline's). */
  pids: number[];
  /** Everything offline printed so far (stdout and stderr), for failure messages. */
  output(): string;
  /**
   * Invokes one of the service's functions by its serverless key (`rulesJob`, `predictiveJob`…) through
   * offline's Lambda port, synchronously (RequestResponse), as a schedule or AWS would: the parsed payload
   * the handler answered (an event handler's `{status, result}`). Throws with the body on an answer other
   * than 200 and on an unhandled error of the function (200 with `X-Amz-Function-Error`).
   */
  invoke(functionKey: string, event?: unknown): Promise<unknown>;
  /** Stops everything the instance started. Idempotent. */
  stop(): Promise<void>;
}

/** A user's shell as the fresh-clone check gives `npm start`: PATH and HOME only. */
export const userShell = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: process.env.HOME });

export async function startOffline(opts: OfflineOptions = {}): Promise<Offline> {
  const settings = opts.env ?? {};
  const foreign = Object.keys(settings).filter((k) => !USER_SETTING.test(k));
  if (foreign.length > 0) throw new Error(`${foreign.join(', ')}: not a setting of a user's npm start; inject a named fault instead`);
  const admin = opts.admin ?? E2E_ADMIN;
  const stack = await startStack({
    env: {
      ...userShell(),
      PORT: '0',
      MQTT_PORT: '0',
      DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
      TABLE_NAME: `flockwise-e2e-${randomBytes(4).toString('hex')}`,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      JWT_SECRET: E2E_JWT_SECRET,
      ...settings,
    },
    fault: opts.fault,
    log: opts.log,
    onBridgeMessage: opts.onBridgeMessage,
    warm: opts.warm,
    readyTimeoutMs: opts.readyTimeoutMs ?? 90_000,
  });
  return {
    baseUrl: stack.baseUrl,
    stage: stack.stage,
    tableName: stack.tableName,
    jwtSecret: stack.jwtSecret,
    mqttUrl: stack.mqttUrl,
    bridge: stack.bridge,
    admin: { ...admin, id: stack.admin.id },
    pids: stack.pids,
    output: stack.output,
    invoke: stack.invoke,
    stop: stack.stop,
  };
}

/**
 * A local stand-in for AWS IoT Core, for `npm start` and the MQTT e2e test (tests/e2e/mqtt.test.ts):
 * - `startMqttBroker`: an MQTT 3.1.1 broker (aedes, in memory) on a plain TCP port, bound to 127.0.0.1 by
 *   default, where devices publish as they would to IoT Core's endpoint;
 * - `startRuleBridge`: the topic rule `iotTelemetryRule` (functions/iot/routes.yml). It subscribes to the
 *   rule's topic filter, builds the event exactly as the rule's SQL does
 *   (`SELECT *, topic(2) AS farmId, topic(4) AS deviceId, timestamp() AS receivedAt`) and invokes the
 *   function through serverless-offline's Lambda endpoint, one invocation per message.
 *
 * What differs from IoT Core:
 * - no authentication: in AWS a device connects with its X.509 certificate, and an IoT policy lets it
 *   publish only to its own topic `flockwise/<farmId>/devices/<deviceId>/telemetry`. Locally any client
 *   may publish to any topic, which is why the broker listens on localhost only;
 * - the invocation is synchronous (RequestResponse), not asynchronous (Event) as IoT Core's: offline's
 *   Event mode does not wait for the handler, so the bridge could not report the outcome, and a handler
 *   that throws becomes an unhandled rejection inside offline's process. Lambda's retries of an
 *   asynchronous invocation (`maximumRetryAttempts: 2`) are emulated here: a failed invocation is
 *   retried twice, seconds apart (minutes in AWS), then reported as failed (AWS: the dead-letter queue);
 * - a payload that is not a JSON object is logged and skipped (IoT Core would hand the rule a base64
 *   string or fail the SQL); IoT Core's 128 KB message limit is not enforced;
 * - at most `concurrency` invocations at a time (default 8), in arrival order; IoT Core runs them in
 *   parallel without limit or order.
 */
import { createServer, type AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Aedes } from 'aedes';
import { connectAsync } from 'mqtt';

/** The rule's topic filter: level 2 is the farm, level 4 the device. */
export const TELEMETRY_TOPIC_FILTER = 'flockwise/+/devices/+/telemetry';

export const telemetryTopic = (farmId: string, deviceId: string): string => `flockwise/${farmId}/devices/${deviceId}/telemetry`;

export interface MqttBroker {
  /** `mqtt://<host>:<port>` */
  url: string;
  port: number;
  /** Disconnects every client and closes the port. Idempotent. */
  stop(): Promise<void>;
}

/** An in-memory MQTT broker on `host:port` (port 0: a free one). Fails with a clear message when the port is taken. */
export async function startMqttBroker(opts: { port: number; host?: string }): Promise<MqttBroker> {
  const host = opts.host ?? '127.0.0.1';
  const broker = await Aedes.createBroker();
  const server = createServer(broker.handle);
  const closeBroker = () => new Promise<void>((resolve) => broker.close(() => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await closeBroker();
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'EADDRINUSE'
        ? `MQTT port ${opts.port} on ${host} is already in use (another broker, e.g. mosquitto? set MQTT_PORT)`
        : `the MQTT broker could not listen on ${host}:${opts.port}: ${(err as Error).message}`,
    );
  }
  const port = (server.address() as AddressInfo).port;
  let stopped: Promise<void> | undefined;
  return {
    // a wildcard bind is reached through the loopback
    url: `mqtt://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    stop: () =>
      (stopped ??= (async () => {
        await closeBroker();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })()),
  };
}

/** The rule's output: the message's fields, then `farmId`, `deviceId` (topic levels 2 and 4) and `receivedAt` (ms). */
export type RuleEvent = Record<string, unknown> & { farmId: string; deviceId: string; receivedAt: number };

/** What the function answered for one message (`failed`: it threw or could not be reached, after the retries). */
export type RuleOutcome =
  | { status: 'done'; result: { accepted: number; duplicates: number; rejected: Array<{ index: number; error: string }> } }
  /** `reason` names the fields and their problems when the payload broke its schema (`details` lists them all). */
  | { status: 'dropped'; reason: string; details?: Array<{ field: string; message: string }> }
  | { status: 'failed'; error: string };

export interface BridgedMessage {
  topic: string;
  farmId: string;
  deviceId: string;
  /** What the function was given (never logged). */
  event: RuleEvent;
  outcome: RuleOutcome;
  /** Invocations made (1 + retries). */
  attempts: number;
  /** From receipt to outcome, queueing included. */
  ms: number;
}

export interface BridgeStats {
  /** Messages taken from the broker (skipped ones included). */
  received: number;
  done: number;
  dropped: number;
  failed: number;
  /** Not a JSON object: never invoked. */
  skipped: number;
  /** Queued or being invoked. */
  pending: number;
}

export interface RuleBridge {
  stats(): BridgeStats;
  /** Disconnects from the broker, lets the invocations under way finish (at most 5 s), drops what is still queued. Idempotent. */
  stop(): Promise<void>;
}

export interface RuleBridgeOptions {
  brokerUrl: string;
  /** serverless-offline's Lambda endpoint, e.g. `http://localhost:3002`. */
  lambdaEndpoint: string;
  /** `<service>-<stage>-<functionKey>`, e.g. `flockwise-dev-iotTelemetryRule`. */
  functionName: string;
  /** Invocations at a time (default 8): offline runs each concurrent invocation in a handler instance of its own. */
  concurrency?: number;
  /** Waits before each retry of a failed invocation (default 1 s, 2 s: two retries, as `maximumRetryAttempts: 2`). */
  retryDelaysMs?: number[];
  /** One line per message (default console.log). */
  log?: (line: string) => void;
  onMessage?: (message: BridgedMessage) => void;
}

/** POSTs the event to offline's Invoke API; a function error, a non-200 answer or no answer throws. */
async function invoke(url: string, event: RuleEvent): Promise<Exclude<RuleOutcome, { status: 'failed' }>> {
  const res = await fetch(url, {
    method: 'POST',
    // See the header comment: RequestResponse, so the outcome is known and a throw is not lost.
    headers: { 'content-type': 'application/json', 'x-amz-invocation-type': 'RequestResponse' },
    body: JSON.stringify(event),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`Invoke answered ${res.status} ${text.slice(0, 200)}`);
  if (res.headers.get('x-amz-function-error')) {
    let message = text.slice(0, 200);
    try {
      message = (JSON.parse(text) as { errorMessage?: string }).errorMessage ?? message;
    } catch {
      /* keep the text */
    }
    throw new Error(`the function threw: ${message}`);
  }
  const payload = JSON.parse(text) as Exclude<RuleOutcome, { status: 'failed' }>;
  if (payload?.status !== 'done' && payload?.status !== 'dropped') throw new Error(`unexpected answer ${text.slice(0, 200)}`);
  return payload;
}

/** The bridge's line for one outcome (`dropped: Validation failed: readings.0.ts must match format "date-time"`). */
export function outcomeText(outcome: RuleOutcome): string {
  switch (outcome.status) {
    case 'done':
      return `done: accepted ${outcome.result.accepted}, duplicates ${outcome.result.duplicates}, rejected ${outcome.result.rejected.length}`;
    case 'dropped':
      return `dropped: ${outcome.reason}`;
    case 'failed':
      return `failed: ${outcome.error}`;
  }
}

/** Subscribes to the rule's topic filter (QoS 1) and invokes the rule function for every message; resolves once subscribed. */
export async function startRuleBridge(opts: RuleBridgeOptions): Promise<RuleBridge> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const concurrency = Math.max(1, opts.concurrency ?? 8);
  const retryDelaysMs = opts.retryDelaysMs ?? [1000, 2000];
  const url = `${opts.lambdaEndpoint.replace(/\/$/, '')}/2015-03-31/functions/${encodeURIComponent(opts.functionName)}/invocations`;
  const ruleName = opts.functionName.split('-').at(-1) ?? opts.functionName;
  const stats: BridgeStats = { received: 0, done: 0, dropped: 0, failed: 0, skipped: 0, pending: 0 };
  const queue: Array<() => Promise<void>> = [];
  let running = 0;
  let stopping = false;
  const settled = new Set<() => void>();

  const pump = () => {
    while (!stopping && running < concurrency && queue.length > 0) {
      const task = queue.shift()!;
      running++;
      void task().finally(() => {
        running--;
        stats.pending--;
        if (running === 0) for (const notify of settled) notify();
        pump();
      });
    }
  };

  const client = await connectAsync(opts.brokerUrl, {
    clientId: `flockwise-rule-bridge-${randomBytes(4).toString('hex')}`,
    clean: true,
    reconnectPeriod: 1000,
  });
  client.on('message', (topic, payload) => {
    const received = Date.now();
    stats.received++;
    // topic(2) and topic(4) of the rule's SQL (1-based levels); the filter guarantees five levels
    const [, farmId = '', , deviceId = ''] = topic.split('/');
    let body: unknown;
    try {
      body = JSON.parse(payload.toString('utf8'));
    } catch {
      body = undefined;
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      stats.skipped++;
      log(`mqtt ${topic}: skipped, the payload is not a JSON object (${payload.length} bytes)`);
      return;
    }
    // SELECT *, then the rule's own columns: a field of the same name in the payload is overridden
    const event: RuleEvent = { ...(body as Record<string, unknown>), farmId, deviceId, receivedAt: received };
    stats.pending++;
    queue.push(async () => {
      let attempts = 0;
      let outcome: RuleOutcome;
      for (;;) {
        attempts++;
        try {
          outcome = await invoke(url, event);
          break;
        } catch (err) {
          const delay = retryDelaysMs[attempts - 1];
          if (delay === undefined || stopping) {
            outcome = { status: 'failed', error: (err as Error).message };
            break;
          }
          await new Promise((r) => setTimeout(r, delay));
        }
      }
      stats[outcome.status]++;
      const ms = Date.now() - received;
      log(`mqtt ${topic} → ${ruleName}: ${outcomeText(outcome)}${attempts > 1 ? ` after ${attempts} attempts` : ''} (${ms} ms)`);
      opts.onMessage?.({ topic, farmId, deviceId, event, outcome, attempts, ms });
    });
    pump();
  });

  try {
    const granted = await client.subscribeAsync(TELEMETRY_TOPIC_FILTER, { qos: 1 });
    if (granted.some((g) => g.qos === 128)) throw new Error(`the broker refused the subscription to ${TELEMETRY_TOPIC_FILTER}`);
  } catch (err) {
    await client.endAsync(true);
    throw err;
  }

  let stopped: Promise<void> | undefined;
  return {
    stats: () => ({ ...stats }),
    stop: () =>
      (stopped ??= (async () => {
        stopping = true;
        await client.endAsync(true);
        const dropped = queue.length;
        queue.length = 0;
        stats.pending -= dropped;
        if (dropped > 0) log(`mqtt bridge stopped: ${dropped} queued message(s) not delivered`);
        if (running > 0) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, 5000);
            const notify = () => {
              clearTimeout(timer);
              resolve();
            };
            settled.add(notify);
          });
        }
      })()),
  };
}

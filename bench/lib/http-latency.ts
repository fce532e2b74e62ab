/**
 * HTTP latency through the real local stack, started by the launcher of `npm start` and the e2e tests
 * (scripts/lib/stack.ts) on free ports, over the bench's in-memory DynamoDB Local
 * and table, with every RATE_LIMIT_*_MAX raised so the limiter counts but never refuses. autocannon
 * measures each route at each concurrency; raw DynamoDB Local calls (GetItem, Query, TransactWriteItems, issued
 * with the service's own client settings from a small promise pool) are measured at the same concurrency
 * in the same run, so every route gets an API ÷ raw ratio.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startStack, type Stack } from '../../scripts/lib/stack.js';
import { quantile, round } from './stats.js';

// ---- the stack -----------------------------------------------------------------------------------------

/**
 * The local stack through the one launcher of `npm start` (scripts/lib/stack.ts), on free ports, over the
 * bench's DynamoDB Local and table, with the bench's documented settings (every RATE_LIMIT_*_MAX raised, so
 * the limiter counts but never refuses; LOG_REQUESTS off) and nothing else of this process's environment.
 */
export function startBenchStack(benchEnv: Record<string, string>): Promise<Stack> {
  const settings = Object.fromEntries(
    Object.entries(benchEnv).filter(([k]) => /^(TABLE_NAME|DYNAMODB_ENDPOINT|JWT_SECRET|LOG_REQUESTS|RATE_LIMIT_\w+)$/.test(k)),
  );
  return startStack({
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', MQTT_PORT: '0', ...settings },
    readyTimeoutMs: 90_000,
  });
}

// ---- a burst after idling ------------------------------------------------------------------------------

export interface BurstReport {
  idleSeconds: number;
  concurrency: number;
  ok: number;
  p50Ms: number;
  maxMs: number;
  /** serverless-offline's process before and after the burst. */
  rssBeforeMb: number;
  rssAfterMb: number;
  threadsBefore: number;
  threadsAfter: number;
}

const procStatus = (pid: number) => readFileSync(`/proc/${pid}/status`, 'utf8');
const rssMb = (pid: number) => round(Number(/VmRSS:\s+(\d+) kB/.exec(procStatus(pid))?.[1] ?? 0) / 1024, 1);
const threads = (pid: number) => Number(/Threads:\s+(\d+)/.exec(procStatus(pid))?.[1] ?? 0);

/**
 * After `idleSeconds` without a request (past offline's 60 s idle clean-up), `concurrency` reads at once:
 * their latency, and offline's memory and threads before and after (a worker per concurrent call would
 * show in both).
 */
export async function measureBurst(opts: {
  baseUrl: string;
  path: string;
  headers: Record<string, string>;
  offlinePid: number;
  idleSeconds: number;
  concurrency: number;
}): Promise<BurstReport> {
  await new Promise((r) => setTimeout(r, opts.idleSeconds * 1000));
  const rssBeforeMb = rssMb(opts.offlinePid);
  const threadsBefore = threads(opts.offlinePid);
  const times = await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      const started = performance.now();
      const res = await fetch(`${opts.baseUrl}${opts.path}`, { headers: opts.headers });
      await res.text();
      return { ok: res.status === 200, ms: performance.now() - started };
    }),
  );
  const ms = times.map((t) => t.ms).sort((a, b) => a - b);
  return {
    idleSeconds: opts.idleSeconds,
    concurrency: opts.concurrency,
    ok: times.filter((t) => t.ok).length,
    p50Ms: round(quantile(ms, 0.5)),
    maxMs: round(ms.at(-1) ?? 0),
    rssBeforeMb,
    rssAfterMb: rssMb(opts.offlinePid),
    threadsBefore,
    threadsAfter: threads(opts.offlinePid),
  };
}

// ---- measuring ---------------------------------------------------------------------------------------------

export interface LatencyFigures {
  /** Successful (2xx) requests or raw calls measured. */
  n: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  meanMs: number;
  /** Successful requests (or calls) per second over the measured period. */
  perSecond: number;
}

function figures(samplesMs: number[], seconds: number): LatencyFigures {
  const s = [...samplesMs].sort((a, b) => a - b);
  return {
    n: s.length,
    p50Ms: round(quantile(s, 0.5)),
    p95Ms: round(quantile(s, 0.95)),
    p99Ms: round(quantile(s, 0.99)),
    meanMs: round(s.reduce((a, b) => a + b, 0) / Math.max(1, s.length)),
    perSecond: Math.round(s.length / seconds),
  };
}

export interface HttpRoute {
  name: string;
  method: 'GET' | 'POST';
  /** One request per connection index (a write may give each connection its own cycle). */
  request: (connection: number) => { path: string; headers?: Record<string, string>; body?: string };
  /** The raw call it is compared with. */
  raw: RawOp['name'];
}

export interface RawOp {
  name: 'GetItem' | 'Query' | 'TransactWriteItems';
  what: string;
  run: (worker: number) => Promise<unknown>;
}

export interface HttpRow extends LatencyFigures {
  route: string;
  connections: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
}

export interface RawRow extends LatencyFigures {
  op: RawOp['name'];
  what: string;
  concurrency: number;
  errors: number;
}

export interface RatioRow {
  route: string;
  connections: number;
  raw: RawOp['name'];
  apiP50Ms: number;
  rawP50Ms: number;
  ratioP50: number;
  apiP99Ms: number;
  rawP99Ms: number;
  ratioP99: number;
  /** raw calls/s ÷ API requests/s at the same concurrency. */
  throughputRatio: number;
  /**
   * At 1 connection only: (API p50 − the local stack's fixed cost) ÷ raw p50, where the fixed cost is the
   * baseline route's p50 minus its raw call's p50 (GET /health: one GetItem, no limiter, no user). An
   * estimate of the ratio without serverless-offline's own per-request work (HTTP server, event, invoke).
   */
  netOfStackRatioP50: number | null;
}

async function cannon(baseUrl: string, route: HttpRoute, connections: number, opts: { seconds?: number; amount?: number }): Promise<HttpRow> {
  const samples: number[] = [];
  const statusCodes: Record<string, number> = {};
  let connection = 0;
  const first = route.request(0);
  const started = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${baseUrl}${first.path}`,
        method: route.method,
        connections,
        ...(opts.amount ? { amount: opts.amount } : { duration: opts.seconds ?? 5 }),
        timeout: 30,
        headers: first.headers,
        body: first.body,
        setupClient: (client) => {
          const r = route.request(connection++);
          client.setRequest({ method: route.method, path: r.path, headers: r.headers, ...(r.body !== undefined ? { body: r.body } : {}) });
        },
      } as autocannon.Options,
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on('response', (_client, statusCode, _bytes, ms) => {
      statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
      if (statusCode >= 200 && statusCode < 300) samples.push(ms);
    });
  });
  const seconds = (performance.now() - started) / 1000;
  return {
    route: route.name,
    connections,
    ...figures(samples, Math.min(seconds, result.duration || seconds)),
    non2xx: result.non2xx,
    errors: result.errors,
    statusCodes,
  };
}

async function rawPool(op: RawOp, concurrency: number, seconds: number): Promise<RawRow> {
  const samples: number[] = [];
  let errors = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (performance.now() < end) {
        const t = performance.now();
        try {
          await op.run(worker);
          samples.push(performance.now() - t);
        } catch {
          errors++;
        }
      }
    }),
  );
  return { op: op.name, what: op.what, concurrency, ...figures(samples, (performance.now() - started) / 1000), errors };
}

/** The raw calls, with the given client (the service's settings), on the bench table. */
export function rawOps(
  client: DynamoDBDocumentClient,
  table: string,
  keys: { cycle: Record<string, string>; movementsGsi1pk: string; pageSize: number },
): RawOp[] {
  let seq = 0;
  return [
    {
      name: 'GetItem',
      what: 'the cycle item, strongly consistent (the summary’s data call)',
      run: () => client.send(new GetCommand({ TableName: table, Key: keys.cycle, ConsistentRead: true })),
    },
    {
      name: 'Query',
      what: `GSI1 page of ${keys.pageSize} movements (the list’s data call)`,
      run: () =>
        client.send(
          new QueryCommand({
            TableName: table,
            IndexName: 'GSI1',
            KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK BETWEEN :from AND :to',
            ExpressionAttributeValues: { ':pk': keys.movementsGsi1pk, ':from': '0000', ':to': '9999-12-31#~' },
            Limit: keys.pageSize,
          }),
        ),
    },
    {
      name: 'TransactWriteItems',
      what: 'an Update of one counter item per worker + a Put of a new item (the shape of a movement write)',
      run: (worker) => {
        seq++;
        return client.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: table,
                  Key: { PK: 'BENCH#raw', SK: `WORKER#${worker}` },
                  UpdateExpression: 'ADD hits :one',
                  ExpressionAttributeValues: { ':one': 1 },
                },
              },
              {
                Put: {
                  TableName: table,
                  Item: { PK: `BENCH#raw#${worker}`, SK: `ITEM#${String(seq).padStart(9, '0')}`, GSI1PK: `BENCH#raw#${worker}`, GSI1SK: String(seq) },
                  ConditionExpression: 'attribute_not_exists(PK)',
                },
              },
            ],
          }),
        );
      },
    },
  ];
}

export interface HttpLatencyReport {
  settings: { seconds: number; connections: number[]; warmupRequests: string; offline: string; rateLimits: string; client: string };
  raw: RawRow[];
  routes: HttpRow[];
  ratios: RatioRow[];
  /** Baseline route p50 − its raw call's p50 at 1 connection (ms): serverless-offline's fixed cost per request. */
  stackFixedCostMs: number | null;
}

/** Runs every route and raw op at every concurrency level: raw calls first, then the routes, level by level. */
export async function measureHttpLatency(opts: {
  baseUrl: string;
  routes: HttpRoute[];
  raw: RawOp[];
  connections: number[];
  seconds: number;
  /** The route whose p50 above its raw call is taken as the stack's fixed cost (e.g. GET /health). */
  baselineRoute?: string;
  log: (s: string) => void;
}): Promise<HttpLatencyReport> {
  const raw: RawRow[] = [];
  const routes: HttpRow[] = [];
  for (const c of opts.connections) {
    opts.log(
      `   ${c} connection(s): raw ${opts.raw.map((o) => o.name).join(', ')}; then ${opts.routes.map((r) => r.name).join(', ')} (${opts.seconds} s each; load average ${loadavg()[0]!.toFixed(2)})…`,
    );
    for (const op of opts.raw) {
      await rawPool(op, c, Math.min(1, opts.seconds)); // warm-up
      raw.push(await rawPool(op, c, opts.seconds));
    }
    for (const route of opts.routes) {
      await cannon(opts.baseUrl, route, c, { amount: Math.max(50, 5 * c) }); // warm-up
      routes.push(await cannon(opts.baseUrl, route, c, { seconds: opts.seconds }));
    }
  }
  const rawOf = (routeName: string, connections: number) => {
    const route = opts.routes.find((x) => x.name === routeName)!;
    return raw.find((x) => x.op === route.raw && x.concurrency === connections)!;
  };
  const baseline = routes.find((r) => r.route === opts.baselineRoute && r.connections === 1);
  const stackFixedCostMs = baseline ? round(Math.max(0, baseline.p50Ms - rawOf(baseline.route, 1).p50Ms)) : null;
  const ratios: RatioRow[] = routes.map((r) => {
    const route = opts.routes.find((x) => x.name === r.route)!;
    const base = rawOf(r.route, r.connections);
    return {
      route: r.route,
      connections: r.connections,
      raw: route.raw,
      apiP50Ms: r.p50Ms,
      rawP50Ms: base.p50Ms,
      ratioP50: round(r.p50Ms / base.p50Ms, 1),
      apiP99Ms: r.p99Ms,
      rawP99Ms: base.p99Ms,
      ratioP99: round(r.p99Ms / base.p99Ms, 1),
      throughputRatio: round(base.perSecond / Math.max(1, r.perSecond), 1),
      netOfStackRatioP50: r.connections === 1 && stackFixedCostMs !== null ? round(Math.max(0, r.p50Ms - stackFixedCostMs) / base.p50Ms, 1) : null,
    };
  });
  return {
    settings: {
      seconds: opts.seconds,
      connections: opts.connections,
      warmupRequests: 'max(50, 5 × connections) per route and level; 1 s per raw op and level',
      offline: 'the stack of npm start (scripts/lib/stack.ts): serverless offline --useInProcess, one Node process, every handler warm',
      rateLimits: 'RATE_LIMIT_*_MAX raised to 1e9: every request is counted, none refused',
      client: 'autocannon in the bench process; raw calls from a promise pool with the service’s DynamoDB client settings',
    },
    raw,
    routes,
    ratios,
    stackFixedCostMs,
  };
}

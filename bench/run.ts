/**
 * `npm run bench` (not part of `npm test`): starts its own in-memory DynamoDB Local, creates a table,
 * seeds an admin and measures, in-process through the real handlers:
 *   1. the middleware's cost: full stack vs. the bare service call on the same input (ratio);
 *   2. DynamoDB calls per read request (limiter, user load and data calls apart), and the cycle
 *      summary's data calls at 10 / 100 / 1,000 movements;
 *   3. per-function bundle size and cold init (fresh process require of each minified CJS bundle);
 *   4. scale ingestion throughput (batches of 500 weighings);
 * and over HTTP:
 *   5. latency p50/p95/p99 and requests/s through serverless-offline (autocannon) at 1/10/50 connections,
 *      next to raw DynamoDB Local GetItem/Query/TransactWriteItems at the same concurrency (ratio API ÷ raw);
 *   6. sensor ingestion (bench/lib/ingestion.ts): readings/s in batches of 500 in process and over HTTP,
 *      frames/s through the IoT rule's function, write units per reading, the read cost of a week of hours.
 * Prints tables and writes bench/results/latest.json. Figures are recorded in docs/performance.md.
 *
 * Env knobs: BENCH_ITERATIONS (default 300), BENCH_SUMMARY_MAX (1000; 10000 for the long run),
 * BENCH_SKIP_BUNDLES=1, BENCH_INIT_RUNS (3), BENCH_SKIP_HTTP=1, BENCH_HTTP_SECONDS (5), BENCH_BURST_IDLE_SECONDS (65),
 * BENCH_HTTP_CONNECTIONS (1,10,50), BENCH_JVM_WARMUP_SECONDS (15: DynamoDB Local's JIT warm-up before section 1),
 * BENCH_SKIP_INGESTION=1, BENCH_INGEST_DEVICES (8), BENCH_INGEST_BATCHES (6 batches of 500 per device).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { freePort, localClient, startLocalDynamo } from '../scripts/lib/local-dynamodb.js';
import { ROOT, apiRoutes } from '../scripts/lib/route-table.js';
import { ensureTable } from '../scripts/lib/table.js';
import { breakdown, fmt, installProbe, probe, resetProbe, total, type CallBreakdown } from './lib/db-probe.js';
import { measureBundles, type BundleReport } from './lib/bundles.js';
import type { Stack } from '../scripts/lib/stack.js';
import { measureBurst, measureHttpLatency, rawOps, startBenchStack, type BurstReport, type HttpLatencyReport, type HttpRoute } from './lib/http-latency.js';
import { measureIngestion, type IngestionReport } from './lib/ingestion.js';
import { round, summarize, unionLength, type Summary } from './lib/stats.js';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
const WARMUP = Math.max(20, Math.round(ITERATIONS / 5));
const SUMMARY_MAX = Number(process.env.BENCH_SUMMARY_MAX ?? 1000);
const INIT_RUNS = Number(process.env.BENCH_INIT_RUNS ?? 3);
const JVM_WARMUP_SECONDS = Number(process.env.BENCH_JVM_WARMUP_SECONDS ?? 15);
const SKIP_HTTP = process.env.BENCH_SKIP_HTTP === '1';
const HTTP_SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 5);
const BURST_IDLE_SECONDS = Number(process.env.BENCH_BURST_IDLE_SECONDS ?? 65);
const BURST_CONCURRENCY = 48;
const HTTP_CONNECTIONS = (process.env.BENCH_HTTP_CONNECTIONS ?? '1,10,50')
  .split(',')
  .map((x) => Number(x.trim()))
  .filter((n) => Number.isInteger(n) && n > 0);
const SKIP_INGESTION = process.env.BENCH_SKIP_INGESTION === '1';
const INGEST_DEVICES = Number(process.env.BENCH_INGEST_DEVICES ?? 8);
const INGEST_BATCHES = Number(process.env.BENCH_INGEST_BATCHES ?? 6);
const log = (s: string) => console.log(s);
/** The machine's 1-minute load average when each section starts (the figures are only as quiet as the machine). */
const loadAtStart: Record<string, number> = {};
const section = (name: string) => {
  loadAtStart[name] = round(loadavg()[0]!, 2);
  log(`   (load average ${loadAtStart[name]} on ${cpus().length} CPUs)`);
};
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

const benchStarted = performance.now();
log('flockwise bench: starting DynamoDB Local (in memory)…');
const dynamo = await startLocalDynamo({ port: await freePort(), inMemory: true });
const tableName = `bench-${randomBytes(4).toString('hex')}`;

// The environment every handler reads, set BEFORE any handler (or anything importing one) is loaded.
const benchEnv = {
  STAGE: 'bench',
  TABLE_NAME: tableName,
  DYNAMODB_ENDPOINT: dynamo.endpoint,
  JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-0123456789',
  LOG_REQUESTS: 'false',
  AWS_REGION: 'eu-west-1',
  RATE_LIMIT_GENERAL_MAX: '1000000000',
  RATE_LIMIT_AUTH_MAX: '1000000000',
  RATE_LIMIT_READ_MAX: '1000000000',
  RATE_LIMIT_DATE_MAX: '1000000000',
  RATE_LIMIT_INGEST_MAX: '1000000000',
};
Object.assign(process.env, benchEnv);

// Everything this run starts is stopped at the end, on an error, and on Ctrl-C / SIGTERM.
let offline: Stack | undefined;
const stopAll = async () => {
  await offline?.stop();
  await dynamo.stop();
};
process.once('exit', () => {
  if (dynamo.process.exitCode === null) dynamo.process.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`\n${signal}: stopping serverless offline and DynamoDB Local…`);
    void stopAll().finally(() => process.exit(130));
  });
}

try {
  await main();
} finally {
  await stopAll();
}

async function main(): Promise<void> {
  const admin = localClient(dynamo.endpoint);
  await ensureTable(admin, tableName);
  admin.destroy();

  const { generate } = await import('../scripts/generate.js');
  await generate();
  const { seed } = await import('../scripts/lib/seed.js');
  const api = await import('../tests/support/api.js');
  const { db } = await import('../shared/db/client.js');
  const { getUser } = await import('../shared/db/users.js');
  const { signedIn } = await import('../shared/http/middleware/authenticate.js');
  const { verifyToken } = await import('../shared/auth/tokens.js');
  const { ok, replayable } = await import('../shared/http/responses.js');
  const { settings } = await import('../shared/config/env.js');
  const { availableGroups, SERVICE } = await import('../shared/presentation/service-info.js');
  const ENDPOINTS = availableGroups(apiRoutes()); // what functions/public/root.ts builds once per container
  const { scopedCycleWithBasis, toCycleDto } = await import('../shared/services/cycles.js');
  const { getUserOrThrow } = await import('../shared/db/users.js');
  const { toUserDto } = await import('../shared/services/accounts.js');
  const { createMovementFor } = await import('../shared/services/movements.js');
  const { resetDb } = await import('../shared/db/client.js');
  const { cycleKey, movementsOfCycle, rateLimitKey, revokedTokenKey, userKey } = await import('../shared/db/keys.js');
  const { BatchGetCommand, GetCommand, UpdateCommand } = await import('@aws-sdk/lib-dynamodb');

  installProbe(db());

  // ---- fixtures: admin, a flock with an active cycle and a few movements ------------------------------
  const ADMIN = { email: 'admin@bench.local', password: 'bench-admin-password-123' };
  const { adminId, farmId } = await seed(ADMIN);
  const loginRes = await api.call('POST', '/api/v1/auth/login', { body: ADMIN });
  if (loginRes.status !== 200) throw new Error(`login failed: ${loginRes.raw}`);
  const token = loginRes.body.token as string;
  const claims = await verifyToken(token);
  const record = await getUser(adminId);
  const user = signedIn(record!, claims);

  const expectStatus = <R extends { status: number; raw: string }>(res: R, status: number, what: string): R => {
    if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${res.raw}`);
    return res;
  };
  async function newCycle(name: string, startOffset = -20) {
    const flock = expectStatus(
      await api.call('POST', '/api/v1/flocks', { token, body: { name, birdType: 'broiler', hatchDate: day(startOffset), farmId } }),
      201,
      'create flock',
    ).body.data;
    const cycle = expectStatus(
      await api.call('POST', `/api/v1/flocks/${flock.id}/cycles`, { token, body: { startDate: day(startOffset) } }),
      201,
      'create cycle',
    ).body.data;
    return { flockId: flock.id as string, cycleId: cycle.id as string, base: `/api/v1/flocks/${flock.id}/cycles/${cycle.id}` };
  }
  const main = await newCycle('Bench broilers');
  expectStatus(await api.call('POST', `${main.base}/movements`, { token, body: { type: 'bird_inflow', date: day(-20), quantity: 10000 } }), 201, 'inflow');
  const movementId = expectStatus(
    await api.call('POST', `${main.base}/movements`, { token, body: { type: 'feed_delivery', date: day(-19), feedType: 'starter', quantityKg: 2000 } }),
    201,
    'feed',
  ).body.data.id as string;

  // ---- 1. middleware overhead ------------------------------------------------------------------------
  log(`\n1. Middleware cost: full stack vs. bare service call (${ITERATIONS} iterations after ${WARMUP} warm-up, alternating)`);
  section('middleware');
  const ctx = { getRemainingTimeInMillis: () => 10_000, functionName: 'bench', awsRequestId: 'bench' } as unknown as Context;
  const waterBody = () => ({ type: 'water_consumption', date: day(-1), liters: 12.5 });

  interface Scenario {
    name: string;
    method: string;
    path: string;
    body?: () => unknown;
    auth: boolean;
    bare: () => Promise<unknown>;
  }
  const scenarios: Scenario[] = [
    {
      name: 'public: GET /',
      method: 'GET',
      path: '/',
      auth: false,
      bare: async () =>
        ok(
          { ...SERVICE, environment: settings().stage, endpoints: ENDPOINTS, links: { docs: '/docs', openapi: '/openapi.json', health: '/health' } },
          `${SERVICE.name} ${SERVICE.version}`,
        ),
    },
    {
      name: 'auth read: GET cycle summary',
      method: 'GET',
      path: main.base,
      auth: true,
      bare: async () => {
        const { cycle, basis } = await scopedCycleWithBasis(user, main.flockId, main.cycleId);
        return ok(toCycleDto(cycle, basis), 'OK', { ETag: `"${cycle.version}"` });
      },
    },
    {
      name: 'auth read: GET admin user',
      method: 'GET',
      path: `/api/v1/admin/users/${adminId}`,
      auth: true,
      bare: async () => {
        const u = await getUserOrThrow(adminId);
        return ok(toUserDto(u), 'OK', { ETag: `"${u.version}"` });
      },
    },
    {
      name: 'auth write: POST movement',
      method: 'POST',
      path: `${main.base}/movements`,
      body: waterBody,
      auth: true,
      bare: async () => replayable(await createMovementFor(user, main.flockId, main.cycleId, waterBody() as never, undefined)),
    },
  ];

  interface OverheadRow {
    route: string;
    full: Summary;
    bare: Summary;
    ratio: number;
    /** Mean µs the middleware spent in its own DynamoDB calls (limiter + user load), per request; calls that overlap count once. */
    middlewareDbUs: number;
    /** The same calls' durations added up (what they would cost one after another): the gap to middlewareDbUs is the overlap. */
    middlewareDbSumUs: number;
    /** (full − middleware DB time) ÷ bare: the ratio if the limiter and user load were free. */
    ratioWithoutMiddlewareDb: number;
    /** Mean µs of CPU the middleware adds: (full − all DB time) − (bare − all DB time). */
    middlewareCpuUs: number;
    callsPerRequest: { full: CallBreakdown; bare: CallBreakdown };
  }
  const overhead: OverheadRow[] = [];
  const prepared = await Promise.all(
    scenarios.map(async (s) => {
      const { route, params } = api.matchRoute(s.method, s.path);
      const handler = await api.handlerFor(route.file);
      const event = (): APIGatewayProxyEvent =>
        api.buildEvent(s.method, s.path, route.path, params, { ...(s.auth ? { token } : {}), ...(s.body ? { body: s.body() } : {}), ip: '10.1.2.3' });
      const runFull = async () => {
        const res = await handler(event(), ctx);
        if (res.statusCode >= 300) throw new Error(`${s.name}: ${res.statusCode} ${res.body}`);
      };
      return { s, runFull };
    }),
  );
  // DynamoDB Local is a JVM: its calls get 2–4× faster over the first few thousand requests (JIT). Warm
  // it up on the same calls first, or the first section measures the emulator's warm-up, not the stack.
  const jvmWarmupEnd = performance.now() + JVM_WARMUP_SECONDS * 1000;
  let jvmWarmupRounds = 0;
  while (performance.now() < jvmWarmupEnd) {
    for (const { s, runFull } of prepared) {
      await runFull();
      await s.bare();
    }
    jvmWarmupRounds++;
  }
  log(`   DynamoDB Local warm-up: ${jvmWarmupRounds} rounds of every scenario (full + bare) in ${JVM_WARMUP_SECONDS} s`);
  for (const { s, runFull } of prepared) {
    for (let i = 0; i < WARMUP; i++) {
      await runFull();
      await s.bare();
    }
    const full: number[] = [];
    const bare: number[] = [];
    let mwDb = 0;
    let mwDbSum = 0;
    let fullDb = 0;
    let bareDb = 0;
    let fullCalls: CallBreakdown | undefined;
    let bareCalls: CallBreakdown | undefined;
    for (let i = 0; i < ITERATIONS; i++) {
      resetProbe();
      let t = performance.now();
      await runFull();
      full.push(performance.now() - t);
      mwDb += unionLength(probe.calls.filter((c) => c.category !== 'data').map((c) => [c.start, c.end] as const));
      mwDbSum += probe.calls.filter((c) => c.category !== 'data').reduce((a, c) => a + (c.end - c.start), 0);
      fullDb += unionLength(probe.calls.map((c) => [c.start, c.end] as const));
      fullCalls ??= breakdown();
      resetProbe();
      t = performance.now();
      await s.bare();
      bare.push(performance.now() - t);
      bareDb += unionLength(probe.calls.map((c) => [c.start, c.end] as const));
      bareCalls ??= breakdown();
    }
    const f = summarize(full);
    const b = summarize(bare);
    const us = (ms: number) => (ms * 1000) / ITERATIONS;
    overhead.push({
      route: s.name,
      full: f,
      bare: b,
      ratio: round(f.meanUs / b.meanUs),
      middlewareDbUs: round(us(mwDb), 1),
      middlewareDbSumUs: round(us(mwDbSum), 1),
      ratioWithoutMiddlewareDb: round((f.meanUs - us(mwDb)) / b.meanUs),
      middlewareCpuUs: round(f.meanUs - us(fullDb) - (b.meanUs - us(bareDb)), 1),
      callsPerRequest: { full: fullCalls!, bare: bareCalls! },
    });
  }
  console.table(
    overhead.map((o) => ({
      route: o.route,
      'full mean µs': o.full.meanUs,
      'full p50': o.full.p50Us,
      'full p95': o.full.p95Us,
      'bare mean µs': o.bare.meanUs,
      'bare p50': o.bare.p50Us,
      'bare p95': o.bare.p95Us,
      ratio: o.ratio,
      'mw DB µs': o.middlewareDbUs,
      'mw DB sum µs': o.middlewareDbSumUs,
      'ratio w/o mw DB': o.ratioWithoutMiddlewareDb,
      'mw CPU µs': o.middlewareCpuUs,
      'mw calls': `${fmt(o.callsPerRequest.full.limiter)} | ${fmt(o.callsPerRequest.full.userLoad)}`,
    })),
  );

  // ---- 1b. the DynamoDB floor: the summary route's calls alone, raw, on the same client ----------------------
  log(`\n   The DynamoDB calls of the summary route alone (same keys and client, no HTTP, no middleware CPU; ${ITERATIONS} each, alternating):`);
  const T = tableName;
  const rawGet = () => db().send(new GetCommand({ TableName: T, Key: cycleKey(main.flockId, main.cycleId), ConsistentRead: true }));
  const rawUserLoad = () =>
    db().send(new BatchGetCommand({ RequestItems: { [T]: { Keys: [userKey(adminId), revokedTokenKey(claims.jti)], ConsistentRead: true } } }));
  const rawLimiter = () => {
    const now = Math.floor(Date.now() / 1000);
    return db().send(
      new UpdateCommand({
        TableName: T,
        Key: rateLimitKey('general', 'ip:10.9.9.9', now - (now % 900)),
        UpdateExpression: 'ADD hits :one SET expiresAt = if_not_exists(expiresAt, :exp)',
        ExpressionAttributeValues: { ':one': 1, ':exp': now + 960 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
  };
  const chains: Array<[string, () => Promise<unknown>]> = [
    ['GetItem (the data read: what the bare handler waits for)', rawGet],
    [
      'UpdateItem → BatchGetItem → GetItem (the stack before: limiter awaited first)',
      async () => {
        await rawLimiter();
        await rawUserLoad();
        await rawGet();
      },
    ],
    [
      'UpdateItem ‖ BatchGetItem → GetItem (the stack now)',
      async () => {
        await Promise.all([rawLimiter(), rawUserLoad()]);
        await rawGet();
      },
    ],
    [
      'BatchGetItem → GetItem (no limiter write at all)',
      async () => {
        await rawUserLoad();
        await rawGet();
      },
    ],
  ];
  const chainSamples = chains.map(() => [] as number[]);
  for (let i = 0; i < WARMUP + ITERATIONS; i++) {
    for (const [k, [, run]] of chains.entries()) {
      const t = performance.now();
      await run();
      if (i >= WARMUP) chainSamples[k]!.push(performance.now() - t);
    }
  }
  const floorBase = summarize(chainSamples[0]!);
  const dbFloor = chains.map(([chain], k) => {
    const sm = summarize(chainSamples[k]!);
    return { chain, ...sm, ratioToGetItem: round(sm.meanUs / floorBase.meanUs) };
  });
  console.table(dbFloor.map((r) => ({ chain: r.chain, 'mean µs': r.meanUs, 'p50 µs': r.p50Us, 'p95 µs': r.p95Us, '÷ GetItem': r.ratioToGetItem })));

  // ---- 2. DynamoDB calls per read request --------------------------------------------------------------
  log('\n2. DynamoDB calls per read request (limiter / user load / data, counted per command)');
  section('calls');
  const reads: Array<[string, string, Record<string, string>?]> = [
    ['cycle summary', main.base],
    ['flock get', `/api/v1/flocks/${main.flockId}`],
    ['movement get', `${main.base}/movements/${movementId}`],
    ['movement list', `${main.base}/movements`, { limit: '50' }],
    ['user get', `/api/v1/admin/users/${adminId}`],
    ['inventory stock', '/api/v1/inventory/stock', { farmId }],
  ];
  interface CallsRow extends CallBreakdown {
    route: string;
    path: string;
    dataCalls: number;
  }
  const calls: CallsRow[] = [];
  for (const [name, path, query] of reads) {
    expectStatus(await api.call('GET', path, { token, ...(query ? { query } : {}) }), 200, name); // warm
    resetProbe();
    expectStatus(await api.call('GET', path, { token, ...(query ? { query } : {}) }), 200, name);
    const b = breakdown();
    calls.push({ route: name, path: api.matchRoute('GET', path).route.path, ...b, dataCalls: total(b.data) });
  }
  console.table(
    calls.map((c) => ({
      route: c.route,
      limiter: fmt(c.limiter),
      'user load': fmt(c.userLoad),
      data: fmt(c.data),
      'data calls': c.dataCalls,
      'items read': c.dataItemsRead,
    })),
  );

  log(`\n   Cycle summary vs. number of movements (created through the API, parallel batches of 20)`);
  const growth = await newCycle('Bench summary growth');
  const levels = [10, 100, 1000, 10_000].filter((n) => n <= SUMMARY_MAX);
  const summaryScaling: Array<{
    movements: number;
    dataCalls: Record<string, number>;
    dataItemsRead: number;
    limiter: number;
    userLoad: number;
    summaryUs: number;
  }> = [];
  let recorded = 0;
  for (const level of levels) {
    while (recorded < level) {
      const n = Math.min(20, level - recorded);
      const results = await Promise.all(
        Array.from({ length: n }, () => api.call('POST', `${growth.base}/movements`, { token, body: { type: 'bird_inflow', date: day(-20), quantity: 1 } })),
      );
      for (const r of results) expectStatus(r, 201, 'movement');
      recorded += n;
    }
    await api.call('GET', growth.base, { token });
    resetProbe();
    const t = performance.now();
    const s = expectStatus(await api.call('GET', growth.base, { token }), 200, 'summary');
    const summaryUs = round((performance.now() - t) * 1000, 0);
    if (s.body.data.movementCount !== level) throw new Error(`summary shows ${s.body.data.movementCount} movements, expected ${level}`);
    const b = breakdown();
    summaryScaling.push({
      movements: level,
      dataCalls: b.data,
      dataItemsRead: b.dataItemsRead,
      limiter: total(b.limiter),
      userLoad: total(b.userLoad),
      summaryUs,
    });
  }
  console.table(
    summaryScaling.map((s) => ({
      movements: s.movements,
      'data calls': fmt(s.dataCalls),
      'items read': s.dataItemsRead,
      limiter: s.limiter,
      'user load': s.userLoad,
      'one summary µs': s.summaryUs,
    })),
  );

  // ---- 4. scale ingestion -------------------------------------------------------------------------------
  log('\n4. Scale ingestion: POST /api/v1/scale, batches of 500 weighings');
  section('scale');
  const scaleCycle = await newCycle('Bench scale');
  const batch = (device: string, seq: number) => {
    const dates = [day(-5), day(-4), day(-3), day(-2), day(-1)];
    return {
      flockId: scaleCycle.flockId,
      deviceId: device,
      weighings: Array.from({ length: 500 }, (_, i) => {
        const s = (seq * 500 + i) % 36_000;
        const hh = String(6 + Math.floor(s / 3600)).padStart(2, '0');
        const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
        const ss = String(s % 60).padStart(2, '0');
        return { at: `${dates[i % dates.length]}T${hh}:${mm}:${ss}Z`, grams: 900 + ((i * 37 + seq * 11) % 200) };
      }),
    };
  };
  const scaleRuns: Array<{
    mode: string;
    batches: number;
    weighings: number;
    accepted: number;
    seconds: number;
    weighingsPerSecond: number;
    meanBatchMs: number;
    callsPerBatch: Record<string, number>;
  }> = [];
  // a batch names a bird scale registered in the flock's farm (registered before the clock starts)
  const scaleHouse = expectStatus(
    await api.call('POST', `/api/v1/config/farms/${farmId}/houses`, { token, body: { name: 'Bench scales', usableAreaM2: 1000, capacity: 10000 } }),
    201,
    'scale house',
  ).body.data.id as string;
  const registerScale = async (name: string) =>
    expectStatus(await api.call('POST', '/api/v1/iot/devices', { token, body: { farmId, houseId: scaleHouse, kind: 'scale', name } }), 201, 'register scale')
      .body.data.id as string;
  async function ingest(mode: string, devices: number, batchesPerDevice: number) {
    let accepted = 0;
    const batchMs: number[] = [];
    const scales = await Promise.all(Array.from({ length: devices }, (_, d) => registerScale(`${mode} scale ${d}`)));
    resetProbe();
    const t = performance.now();
    await Promise.all(
      Array.from({ length: devices }, async (_, d) => {
        for (let i = 0; i < batchesPerDevice; i++) {
          const t0 = performance.now();
          const res = expectStatus(await api.call('POST', '/api/v1/scale', { token, body: batch(scales[d]!, i) }), 200, 'scale batch');
          batchMs.push(performance.now() - t0);
          accepted += res.body.data.accepted as number;
        }
      }),
    );
    const seconds = (performance.now() - t) / 1000;
    const batches = devices * batchesPerDevice;
    const perBatch: Record<string, number> = {};
    for (const c of probe.calls) perBatch[c.command] = (perBatch[c.command] ?? 0) + 1;
    for (const k of Object.keys(perBatch)) perBatch[k] = round(perBatch[k]! / batches, 1);
    scaleRuns.push({
      mode,
      batches,
      weighings: batches * 500,
      accepted,
      seconds: round(seconds, 2),
      weighingsPerSecond: Math.round((batches * 500) / seconds),
      meanBatchMs: round(batchMs.reduce((a, b) => a + b, 0) / batchMs.length, 1),
      callsPerBatch: perBatch,
    });
  }
  await ingest('warmup', 1, 2);
  scaleRuns.length = 0;
  await ingest('sequential (1 device)', 1, 20);
  await ingest('parallel (4 devices)', 4, 5);
  console.table(
    scaleRuns.map((r) => ({
      mode: r.mode,
      batches: r.batches,
      weighings: r.weighings,
      accepted: r.accepted,
      seconds: r.seconds,
      'weighings/s': r.weighingsPerSecond,
      'mean batch ms': r.meanBatchMs,
      'calls/batch': fmt(r.callsPerBatch),
    })),
  );

  // ---- 5. HTTP latency through serverless-offline vs. raw DynamoDB Local ----------------------------------------
  let httpLatency: HttpLatencyReport | undefined;
  let burst: BurstReport | undefined;
  if (!SKIP_HTTP) {
    log(`\n5. HTTP latency through serverless-offline (autocannon, ${HTTP_SECONDS} s per route and level) vs. raw DynamoDB Local`);
    section('http');
    log('   starting serverless offline (in-process handlers, this table, limits raised)…');
    offline = await startBenchStack(benchEnv);
    const base = offline.baseUrl;
    const http = async (method: string, path: string, body?: unknown, tok?: string) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...(tok ? { Authorization: `Bearer ${tok}` } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined, raw: text };
    };
    const login = expectStatus(await http('POST', '/api/v1/auth/login', ADMIN), 200, 'HTTP login');
    const httpToken = login.body.token as string;
    const auth = { Authorization: `Bearer ${httpToken}` };
    async function httpCycle(name: string) {
      const flock = expectStatus(await http('POST', '/api/v1/flocks', { name, birdType: 'broiler', hatchDate: day(-20), farmId }, httpToken), 201, 'HTTP flock')
        .body.data;
      const cycle = expectStatus(await http('POST', `/api/v1/flocks/${flock.id}/cycles`, { startDate: day(-20) }, httpToken), 201, 'HTTP cycle').body.data;
      return { flockId: flock.id as string, cycleId: cycle.id as string, base: `/api/v1/flocks/${flock.id}/cycles/${cycle.id}` };
    }
    const read = await httpCycle('HTTP bench reads');
    expectStatus(await http('POST', `${read.base}/movements`, { type: 'bird_inflow', date: day(-20), quantity: 5000 }, httpToken), 201, 'HTTP inflow');
    for (let i = 0; i < 30; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, async () => expectStatus(await http('POST', `${read.base}/movements`, waterBody(), httpToken), 201, 'HTTP movement')),
      );
    }
    // The write route: one cycle per connection (writers of ONE cycle conflict on its counters and retry).
    const writeCycles: Array<{ base: string }> = [];
    const maxConnections = Math.max(...HTTP_CONNECTIONS);
    for (let i = 0; i < maxConnections; i += 10) {
      writeCycles.push(...(await Promise.all(Array.from({ length: Math.min(10, maxConnections - i) }, (_, j) => httpCycle(`HTTP bench writes ${i + j}`)))));
    }
    const PAGE = 25;
    const routes: HttpRoute[] = [
      { name: 'GET /health', method: 'GET', request: () => ({ path: '/health' }), raw: 'GetItem' },
      { name: 'GET cycle summary', method: 'GET', request: () => ({ path: read.base, headers: auth }), raw: 'GetItem' },
      { name: `GET movements (limit ${PAGE})`, method: 'GET', request: () => ({ path: `${read.base}/movements?limit=${PAGE}`, headers: auth }), raw: 'Query' },
      {
        name: 'POST movement',
        method: 'POST',
        request: (connection) => ({
          path: `${writeCycles[connection % writeCycles.length]!.base}/movements`,
          headers: { ...auth, 'Content-Type': 'application/json' },
          body: JSON.stringify(waterBody()),
        }),
        raw: 'TransactWriteItems',
      },
    ];
    // Raw calls with a fresh client of the service's own settings (shared/db/client.ts), without the bench probe.
    resetDb();
    const raw = rawOps(db(), tableName, {
      cycle: cycleKey(read.flockId, read.cycleId) as unknown as Record<string, string>,
      movementsGsi1pk: movementsOfCycle(read.cycleId).GSI1PK,
      pageSize: PAGE,
    });
    httpLatency = await measureHttpLatency({
      baseUrl: base,
      routes,
      raw,
      connections: HTTP_CONNECTIONS,
      seconds: HTTP_SECONDS,
      baselineRoute: 'GET /health',
      log,
    });
    log(`   a burst of ${BURST_CONCURRENCY} concurrent reads of the cycle summary after ${BURST_IDLE_SECONDS} s idle…`);
    burst = await measureBurst({
      baseUrl: base,
      path: read.base,
      headers: auth,
      offlinePid: offline.offlinePid!,
      idleSeconds: BURST_IDLE_SECONDS,
      concurrency: BURST_CONCURRENCY,
    });
    log(
      `   burst: ${burst.ok}/${burst.concurrency} answered 200, p50 ${burst.p50Ms} ms, max ${burst.maxMs} ms; offline ${burst.rssBeforeMb} → ${burst.rssAfterMb} MB, threads ${burst.threadsBefore} → ${burst.threadsAfter}`,
    );
    await offline.stop();
    offline = undefined;
    log('   raw DynamoDB Local (same table, same concurrency, the service’s client settings):');
    console.table(
      httpLatency.raw.map((r) => ({
        op: r.op,
        concurrency: r.concurrency,
        'p50 ms': r.p50Ms,
        'p95 ms': r.p95Ms,
        'p99 ms': r.p99Ms,
        'calls/s': r.perSecond,
        n: r.n,
        errors: r.errors,
      })),
    );
    log('   API through serverless-offline:');
    console.table(
      httpLatency.routes.map((r) => ({
        route: r.route,
        connections: r.connections,
        'p50 ms': r.p50Ms,
        'p95 ms': r.p95Ms,
        'p99 ms': r.p99Ms,
        'req/s': r.perSecond,
        n: r.n,
        non2xx: r.non2xx,
        errors: r.errors,
      })),
    );
    log('   ratio API ÷ raw (latency; throughput as raw calls/s ÷ API req/s):');
    console.table(
      httpLatency.ratios.map((r) => ({
        route: r.route,
        connections: r.connections,
        vs: r.raw,
        'p50 ratio': r.ratioP50,
        'p99 ratio': r.ratioP99,
        'throughput ratio': r.throughputRatio,
        'p50 ratio net of offline': r.netOfStackRatioP50 ?? '',
      })),
    );
    if (httpLatency.stackFixedCostMs !== null)
      log(`   serverless-offline's fixed cost per request (GET /health p50 − raw GetItem p50, 1 connection): ${httpLatency.stackFixedCostMs} ms`);
  }

  // ---- 6. sensor ingestion ---------------------------------------------------------------------------------------
  let sensorIngestion: IngestionReport | undefined;
  if (!SKIP_INGESTION) {
    log(`\n6. Sensor ingestion: batches of 500 frames (in process and over HTTP), the IoT rule's function, write units, read cost`);
    section('ingestion');
    const started = performance.now();
    sensorIngestion = await measureIngestion({
      api,
      token,
      farmId,
      tableName,
      env: { ...benchEnv },
      dynamoPid: dynamo.process.pid,
      devices: INGEST_DEVICES,
      batchesPerDevice: INGEST_BATCHES,
      skipHttp: SKIP_HTTP,
      log,
    });
    log(`   section 6 took ${round((performance.now() - started) / 1000, 1)} s`);
  }

  // ---- 3. bundles and cold init (last: child processes, no DynamoDB needed) ---------------------------------
  let bundles: BundleReport | undefined;
  if (process.env.BENCH_SKIP_BUNDLES !== '1') {
    log(
      `\n3. Bundle size and cold init per function (esbuild CJS minified; fresh ${process.execPath.includes('node_modules') ? 'project' : 'current'} Node ${process.version})`,
    );
    section('bundles');
    bundles = await measureBundles({ runs: INIT_RUNS, env: { ...process.env, ...benchEnv }, log });
    console.table(
      bundles.bundles.map((b) => ({
        handler: b.handler,
        KB: b.kb,
        'init median ms': b.initMedianMs,
        'init runs ms': b.initMs.join(' / '),
        'process ms': b.processMedianMs,
      })),
    );
    log(`   largest bundle (${bundles.bundles[0]!.handler}) by source:`);
    console.table(bundles.largestComposition);
    const ext = bundles.largestSdkExternal;
    log(
      `   same handler with the AWS SDK external (runtime-provided): ${ext.kb} KB, init median ${ext.initMedianMs} ms (${ext.initMs.join(' / ')}; SDK still loaded from node_modules)`,
    );
  }

  // ---- results -------------------------------------------------------------------------------------------
  const results = {
    generatedAt: new Date().toISOString(),
    machine: {
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      loadAverageAtSectionStart: loadAtStart,
      loadAverageAtEnd: round(loadavg()[0]!, 2),
    },
    settings: {
      iterations: ITERATIONS,
      warmup: WARMUP,
      jvmWarmupSeconds: JVM_WARMUP_SECONDS,
      summaryMax: SUMMARY_MAX,
      initRuns: INIT_RUNS,
      skipHttp: SKIP_HTTP,
      httpSeconds: HTTP_SECONDS,
      httpConnections: HTTP_CONNECTIONS,
      skipIngestion: SKIP_INGESTION,
      ingestDevices: INGEST_DEVICES,
      ingestBatchesPerDevice: INGEST_BATCHES,
    },
    middlewareOverhead: overhead,
    dbFloor,
    dynamoCallsPerRead: calls,
    summaryScaling,
    scaleIngestion: scaleRuns,
    bundles,
    httpLatency,
    burst,
    sensorIngestion,
    totalSeconds: round((performance.now() - benchStarted) / 1000, 1),
  };
  const dir = join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  log(`\nwrote bench/results/latest.json (${results.totalSeconds} s)`);
}

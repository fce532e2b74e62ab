/**
 * Section 5: latency and throughput over HTTP through the local stack of `npm start` (serverless-offline,
 * bench/lib/http-latency.ts) with autocannon at each concurrency level, next to raw DynamoDB Local calls at
 * the same concurrency; then a burst of concurrent reads after idling past offline's clean-up.
 */
import type { Stack } from '../../scripts/lib/stack.js';
import { cycleKey, movementsOfCycle } from '../../shared/db/keys.js';
import { db, resetDb } from '../../shared/db/client.js';
import type { BenchDb } from '../lib/bench-db.js';
import { measureBurst, measureHttpLatency, rawOps, startBenchStack, type HttpRoute } from '../lib/http-latency.js';
import { day, expectStatus } from '../lib/requests.js';
import { ADMIN, waterBody, type Fixtures } from './fixtures.js';
import { BURST_CONCURRENCY, BURST_IDLE_SECONDS, HTTP_CONNECTIONS, HTTP_SECONDS, log, section } from './settings.js';

/** `running.offline` is the stack while it runs, so that the run's clean-up stops it on an error or a signal. */
export async function measureHttp({ farmId }: Fixtures, { benchEnv, tableName }: BenchDb, running: { offline?: Stack }) {
  log(`\n5. HTTP latency through serverless-offline (autocannon, ${HTTP_SECONDS} s per route and level) vs. raw DynamoDB Local`);
  section('http');
  log('   starting serverless offline (in-process handlers, this table, limits raised)…');
  running.offline = await startBenchStack(benchEnv);
  const offline = running.offline;
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
  const httpLatency = await measureHttpLatency({
    baseUrl: base,
    routes,
    raw,
    connections: HTTP_CONNECTIONS,
    seconds: HTTP_SECONDS,
    baselineRoute: 'GET /health',
    log,
  });
  log(`   a burst of ${BURST_CONCURRENCY} concurrent reads of the cycle summary after ${BURST_IDLE_SECONDS} s idle…`);
  const burst = await measureBurst({
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
  running.offline = undefined;
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
  return { httpLatency, burst };
}

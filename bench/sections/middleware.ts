/**
 * Section 1: the middleware's cost. Each scenario runs through its handler's full stack and as the bare
 * service call on the same input, alternating; the probe splits the middleware's own DynamoDB time
 * (limiter + user load) from the route's.
 */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { apiRoutes } from '../../scripts/lib/route-table.js';
import { ok, replayable } from '../../shared/http/responses.js';
import { settings } from '../../shared/config/env.js';
import { availableGroups, SERVICE } from '../../shared/presentation/service-info.js';
import { scopedCycleWithBasis, toCycleDto } from '../../shared/services/flocks/cycles.js';
import { getUserOrThrow } from '../../shared/db/users.js';
import { toUserDto } from '../../shared/services/accounts/accounts.js';
import { recordMovement } from '../../shared/services/movements/record-movement.js';
import { commandContext } from '../../shared/domain/command.js';
import { breakdown, fmt, probe, resetProbe, type CallBreakdown } from '../lib/db-probe.js';
import { round, summarize, unionLength, type Summary } from '../lib/stats.js';
import { waterBody, type Fixtures } from './fixtures.js';
import { ITERATIONS, JVM_WARMUP_SECONDS, WARMUP, log, section } from './settings.js';

export interface OverheadRow {
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

export async function measureMiddleware({ api, token, adminId, user, main }: Fixtures): Promise<OverheadRow[]> {
  const ENDPOINTS = availableGroups(apiRoutes()); // what functions/public/root.ts builds once per container
  log(`\n1. Middleware cost: full stack vs. bare service call (${ITERATIONS} iterations after ${WARMUP} warm-up, alternating)`);
  section('middleware');
  const ctx = { getRemainingTimeInMillis: () => 10_000, functionName: 'bench', awsRequestId: 'bench' } as unknown as Context;

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
      bare: async () => replayable(await recordMovement(commandContext(user), main.flockId, main.cycleId, waterBody() as never)),
    },
  ];

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
  return overhead;
}

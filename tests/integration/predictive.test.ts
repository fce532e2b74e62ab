/**
 * Predictive (`/api/v1/predictive`) through the real middleware and DynamoDB Local, on hand-built cycles:
 * the harvest forecast of a Ross 308 cycle weighed on its curve, the same number as the v2 predictions
 * route; the accuracy of that forecast once the harvest weighing is in; feed and silo run-out from
 * movements and load-cell readings; the hourly job (a broken flock recorded, the others written, runs
 * newest first, PREDICTIVE_JOB_ENABLED=false); farm scoping and capabilities; device failure risks from
 * ingested readings. Every JSON answer is checked against the closed schema of its operation.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { handler as jobHandler } from '../../functions/predictive/job.js';
import { resetSettings } from '../../shared/config/env.js';
import { db, dbCalls, resetDbCalls, tableName, totalDbCalls } from '../../shared/db/client.js';
import { cycleKey } from '../../shared/db/keys.js';
import { standardWeightGrams } from '../../shared/domain/analytics/breed-standards.js';
import { ROSS_308 } from '../../shared/domain/analytics/standards/ross-308.js';
import { systemCaller } from '../../shared/domain/caller.js';
import { commandContext } from '../../shared/domain/command.js';
import { runForecasts } from '../../shared/services/predictive/runs.js';
import { userWith } from '../support/accounts.js';
import { call as inProcessCall } from '../support/api.js';
import { checkedCall } from '../support/contract.js';
import { day, flockWithCycle } from '../support/cycles.js';
import { house, otherFarm } from '../support/farms.js';
import { ingest, minutesAgo, registerDevice } from '../support/iot.js';
import { captureLogs } from '../support/logs.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const call = checkedCall(inProcessCall);
const P = '/api/v1/predictive';
const context = { awsRequestId: 'predictive-test' } as Context;
const ross = (age: number) => standardWeightGrams(ROSS_308, age)!.grams;
const round2 = (x: number) => Math.round(x * 100) / 100;

afterEach(() => vi.restoreAllMocks());

/** A farm with its manager (who may POST …/run: manage_flocks) and a worker. */
async function predictiveFarm(name: string) {
  const farmId = await otherFarm(name);
  const [manager, worker, runner] = await Promise.all([
    userWith({ role: 'manager', farmIds: [farmId] }),
    userWith({ role: 'worker', farmIds: [farmId] }),
    userWith({ role: 'manager', farmIds: [farmId] }),
  ]);
  const get = async (path: string, query?: Record<string, string>, token = manager.token) => {
    const res = await call('GET', path, { token, query });
    expect(res.status, JSON.stringify(res.body).slice(0, 600)).toBe(200);
    return res.body.data as Json;
  };
  const run = async (body: Json) => {
    const res = await call('POST', `${P}/run`, { token: runner.token, body });
    expect(res.status, JSON.stringify(res.body).slice(0, 600)).toBe(200);
    return res.body.data as Json;
  };
  return { farmId, manager, worker, runner, get, run };
}

describe('forecasts of a Ross 308 cycle', () => {
  it('the harvest forecast made at day 21 lands within 5 % of the standard at day 35, is the v2 predictions’ number, and is scored once weighed', async () => {
    const f = await predictiveFarm('Predictive Ross farm');
    // The cycle started 40 days ago (age 0 = start = hatch), planned harvest at day 35.
    const age = (n: number) => day(n - 40);
    const c = await flockWithCycle({ token: f.manager.token, farmId: f.farmId, breed: 'Ross 308', startDate: age(0), cycle: { targetAgeDays: 35 } });
    await c.move({ type: 'bird_inflow', date: age(0), quantity: 1000, averageWeightGrams: 44 });
    // weighed on the Ross 308 curve (44, 213, 533, 1,012 g) with a little noise
    for (const [a, grams] of [
      [0, 44],
      [7, 215],
      [14, 528],
      [21, 1020],
    ] as const) {
      const res = await call('POST', `${c.base}/weights`, { token: c.token, body: { date: age(a), grams, sampleSize: 100 } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }

    // The forecast as the job would have made it at day 21 (now injected).
    const run = await runForecasts(
      commandContext(systemCaller('test', ['view_analytics', 'manage_flocks'], [f.farmId]), { now: new Date(`${age(21)}T09:00:00Z`) }),
      { flockId: c.flock.id },
    );
    expect(run).toMatchObject({ farmId: f.farmId, trigger: 'manual', scope: { flockId: c.flock.id }, items: { flocks: 1, forecasts: 1 }, errors: [] });

    const forecast = await f.get(`${P}/flocks/${c.flock.id}`);
    expect(forecast).toMatchObject({
      flockId: c.flock.id,
      cycleId: c.cycle.id,
      asOf: age(21),
      ageDays: 21,
      current: true,
      computedAt: `${age(21)}T09:00:00.000Z`,
      modelVersion: expect.any(String),
      window: { from: age(0), to: age(21), days: 22, weighings: 4, lastWeighingDate: age(21) },
      harvest: { basis: 'target_age', ageDays: 35, date: age(35), daysFromAsOf: 14 },
      weight: { method: 'breed_curve_scaled', standard: 'Ross 308' },
    });
    const harvestGrams = forecast.harvest.weight.grams as number;
    expect(Math.abs(harvestGrams - ross(35)) / ross(35)).toBeLessThan(0.05);
    expect(forecast.harvest.weight.low).toBeLessThan(harvestGrams);
    expect(forecast.harvest.weight.high).toBeGreaterThan(harvestGrams);

    // One engine: the v2 predictions route (asOf today, the same weighings) gives the same weight at day 35.
    const v2 = await f.get(`/api/v2/analytics/predictions/${c.flock.id}/${c.cycle.id}`);
    expect(v2.predictions.weight.atTargetAge).toMatchObject({ ageDays: 35, weight: { value: harvestGrams } });

    // Nothing to score yet; then the harvest weighing comes in.
    expect((await f.get(`${P}/accuracy`)).weight).toEqual({ mapePct: null, n: 0 });
    const actual = 2250;
    expect((await call('POST', `${c.base}/weights`, { token: c.token, body: { date: age(35), grams: actual, sampleSize: 100 } })).status).toBe(201);
    const expected = round2((Math.abs(harvestGrams - actual) / actual) * 100);
    const accuracy = await f.get(`${P}/accuracy`);
    expect(accuracy).toMatchObject({ farmId: f.farmId, flockId: null, to: day(0), from: day(-90) });
    expect(accuracy.weight.n).toBe(1);
    expect(accuracy.weight.mapePct).toBeCloseTo(expected, 2);
    expect(accuracy.harvest).toEqual({ mapePct: accuracy.weight.mapePct, n: 1 });
    expect(accuracy.flocks).toEqual([{ flockId: c.flock.id, flockName: c.flock.name, weight: accuracy.weight, harvest: accuracy.harvest }]);
    expect(accuracy.modelVersions).toEqual([forecast.modelVersion]);
    // the same, asked for the flock
    expect((await f.get(`${P}/accuracy`, { flockId: c.flock.id })).harvest).toEqual(accuracy.harvest);
  });
});

describe('feed and silo run-out', () => {
  it('stock ÷ trailing 3-day consumption from movements; a house with a silo: its load ÷ its outflow', async () => {
    const f = await predictiveFarm('Predictive feed farm');
    const siloHouse = await house(f.farmId, 'Silo house');
    const stockFlock = await flockWithCycle({ token: f.manager.token, farmId: f.farmId, startDate: day(-10) });
    const siloFlock = await flockWithCycle({ token: f.manager.token, farmId: f.farmId, startDate: day(-10), houseId: siloHouse });
    await stockFlock.move({ type: 'bird_inflow', date: day(-10), quantity: 500 });
    await siloFlock.move({ type: 'bird_inflow', date: day(-10), quantity: 400 });
    await stockFlock.move({ type: 'feed_delivery', date: day(-10), feedType: 'starter', quantityKg: 3000 });
    // trailing window = the 3 days before today: 150 + 180 + 120 = 450 → 150 kg/day; day −4 and today do not count
    for (const [d, kg] of [
      [-4, 999],
      [-3, 150],
      [-2, 180],
      [-1, 120],
      [0, 200],
    ] as const) {
      await stockFlock.move({ type: 'feed_consumption', date: day(d), feedType: 'starter', quantityKg: kg });
    }
    // stock 3,000 − 1,649 = 1,351 kg → 1,351 ÷ 150 = 9.007 days → run-out today + 9
    const iot = { farmId: f.farmId, houseId: siloHouse, token: f.manager.token };
    const silo = await registerDevice(iot, { kind: 'feed_silo', name: 'Silo 1', reportingIntervalSeconds: 3600 });
    // load cells: 5,000 → 4,600, 4,600 → 4,200, 4,200 → 3,900 over the 3 days (1,100 kg → 366.667 kg/day); now 3,800 kg
    const readings = [
      [`${day(-3)}T00:30:00.000Z`, 5000],
      [`${day(-3)}T23:30:00.000Z`, 4600],
      [`${day(-2)}T00:30:00.000Z`, 4600],
      [`${day(-2)}T23:30:00.000Z`, 4200],
      [`${day(-1)}T00:30:00.000Z`, 4200],
      [`${day(-1)}T23:30:00.000Z`, 3900],
      [minutesAgo(5), 3800],
    ].map(([ts, kg]) => ({ ts, metrics: { siloKg: kg } }));
    expect((await ingest(silo.key, readings)).status).toBe(200);

    const run = await f.run({ farmId: f.farmId });
    expect(run).toMatchObject({ farmId: f.farmId, trigger: 'manual', scope: { flockId: null }, items: { flocks: 2, forecasts: 2, devices: 1 }, errors: [] });

    const fromStock = await f.get(`${P}/flocks/${stockFlock.flock.id}`);
    expect(fromStock.feed).toMatchObject({ window: { from: day(-3), to: day(-1) }, dailyKg: 150, dailyKgByType: { starter: 150 } });
    expect(fromStock.feed.runOut).toEqual({
      source: 'farm_stock',
      stockKg: 1351,
      dailyKg: 150,
      daysLeft: 9,
      date: day(9),
      feedTypes: ['starter'],
      reason: null,
    });
    const fromSilo = await f.get(`${P}/flocks/${siloFlock.flock.id}`);
    // 3,800 ÷ 366.667 = 10.36 → 10.4 days, run-out today + 10
    expect(fromSilo.feed.runOut).toMatchObject({ source: 'silo', stockKg: 3800, daysLeft: 10.4, date: day(10) });
    expect(fromSilo.feed.runOut.dailyKg).toBeCloseTo(366.667, 3);

    const farm = await f.get(`${P}/farms/${f.farmId}`);
    expect(farm.feed.stock.byType).toEqual([{ feedType: 'starter', stockKg: 1351, dailyKg: 150, daysLeft: 9, runOutDate: day(9) }]);
    expect(farm.feed.silos).toEqual([
      { deviceId: silo.id, houseId: siloHouse, name: 'Silo 1', kg: 3800, dailyKg: expect.closeTo(366.667, 3), daysLeft: 10.4, runOutDate: day(10) },
    ]);
    expect(farm.feed).toMatchObject({ asOf: day(0), flocksEvaluated: 2, flocksFailed: [] });
    expect(farm.healthRisks.map((r: Json) => r.flockId).sort()).toEqual([stockFlock.flock.id, siloFlock.flock.id].sort());
  });
});

describe('the hourly job', () => {
  it('a broken flock is recorded on the run and the other flock still gets its forecast; runs newest first; PREDICTIVE_JOB_ENABLED=false skips', async () => {
    const f = await predictiveFarm('Predictive job farm');
    const good = await flockWithCycle({ token: f.manager.token, farmId: f.farmId, breed: 'Ross 308', startDate: day(-14) });
    await good.move({ type: 'bird_inflow', date: day(-14), quantity: 800 });
    const broken = await flockWithCycle({ token: f.manager.token, farmId: f.farmId, startDate: day(-14) });
    // the flock still names its active cycle, whose record is gone: reading it fails for this flock only
    await db().send(new DeleteCommand({ TableName: tableName(), Key: cycleKey(broken.flock.id, broken.cycle.id) }));

    const warn = captureLogs();
    const manual = await f.run({ farmId: f.farmId });
    expect(warn.lines().at(-1)).toMatchObject({ level: 'warn', msg: 'predictive: not evaluated', flockId: broken.flock.id });
    expect(manual.errors).toEqual([{ flockId: broken.flock.id, deviceId: null, message: `Cycle ${broken.cycle.id} of flock ${broken.flock.id} not found` }]);

    vi.restoreAllMocks();
    const log = captureLogs();
    resetDbCalls();
    process.env.LOG_REQUESTS = 'true'; // the suite silences the success lines; this test reads the job's
    const outcome = await jobHandler({}, context).finally(() => {
      process.env.LOG_REQUESTS = 'false';
    });
    const calls = { ...dbCalls, total: totalDbCalls() };
    expect(outcome.status).toBe('done');
    const result = outcome.status === 'done' ? (outcome.result as Json) : {};
    expect(result).toMatchObject({ runId: expect.any(String), farms: expect.any(Number) });
    expect(result.errors).toBeGreaterThanOrEqual(1);
    expect(result.forecasts).toBeGreaterThanOrEqual(1);
    expect(log.lines().at(-1)).toMatchObject({ msg: 'event', name: 'predictive-job', outcome: 'done' });
    console.info(`predictive job over ${result.farms} farms, ${result.flocks} cycles, ${result.devices} devices: ${JSON.stringify(calls)}`);

    const runs = (await call('GET', `${P}/runs`, { token: f.manager.token })).body;
    expect(runs.data).toHaveLength(2);
    const [latest, earlier] = runs.data as [Json, Json];
    expect(latest).toMatchObject({ id: result.runId, trigger: 'schedule', actorId: 'system:predictive', items: { flocks: 2, forecasts: 1, devices: 0 } });
    expect(latest.errors).toEqual([expect.objectContaining({ flockId: broken.flock.id })]);
    expect(earlier).toMatchObject({ id: manual.id, trigger: 'manual', actorId: f.runner.id });
    expect(latest.startedAt >= earlier.startedAt).toBe(true);
    expect(latest.durationMs).toBeGreaterThanOrEqual(0);
    expect(Date.parse(latest.finishedAt) - Date.parse(latest.startedAt)).toBe(latest.durationMs);
    const page = await call('GET', `${P}/runs`, { token: f.manager.token, query: { limit: '1' } });
    expect(page.body.data.map((r: Json) => r.id)).toEqual([latest.id]);
    const next = await call('GET', `${P}/runs`, { token: f.manager.token, query: { limit: '1', cursor: page.body.page.nextCursor } });
    expect(next.body.data.map((r: Json) => r.id)).toEqual([earlier.id]);

    // the good flock's forecast is the job's (computed after the manual run)
    expect((await f.get(`${P}/flocks/${good.flock.id}`)).computedAt >= manual.finishedAt).toBe(true);
    expect((await call('GET', `${P}/flocks/${broken.flock.id}`, { token: f.manager.token })).status).toBe(404);
    const farm = await f.get(`${P}/farms/${f.farmId}`);
    expect(farm.feed).toMatchObject({ flocksEvaluated: 1, flocksFailed: [broken.flock.id] });

    process.env.PREDICTIVE_JOB_ENABLED = 'false';
    resetSettings();
    try {
      expect(await jobHandler({}, context)).toEqual({ status: 'done', result: { skipped: 'disabled' } });
    } finally {
      delete process.env.PREDICTIVE_JOB_ENABLED;
      resetSettings();
    }
    expect((await f.get(`${P}/runs`)).length).toBe(2);
  });

  it('costs a bounded number of DynamoDB calls per cycle (no Scan)', async () => {
    const f = await predictiveFarm('Predictive cost farm');
    const houseId = await house(f.farmId, 'Cost house');
    for (let i = 0; i < 3; i++) {
      const c = await flockWithCycle({ token: f.manager.token, farmId: f.farmId, startDate: day(-7), houseId });
      await c.move({ type: 'bird_inflow', date: day(-7), quantity: 100 });
    }
    const ctx = commandContext(systemCaller('test', ['view_analytics', 'manage_flocks'], [f.farmId]));
    resetDbCalls();
    const run = await runForecasts(ctx, { farmId: f.farmId });
    expect(run.items).toEqual({ flocks: 3, forecasts: 3, devices: 0 });
    // farm: GetItem farm + GetItem config (health factors) + Query flocks + Query stock + Query devices + 1 BatchWriteItem (run)
    // per cycle: BatchGetItem (flock, cycle, config) + Query days + Query weighings + BatchGetItem house + BatchWriteItem (latest + history)
    expect(dbCalls.Scan).toBeUndefined();
    expect(dbCalls).toEqual({ GetItem: 2, Query: 3 + 2 * 3, BatchGetItem: 2 * 3, BatchWriteItem: 1 + 3 });
    const oneFlock = (await call('GET', '/api/v1/flocks', { token: f.manager.token, query: { farmId: f.farmId } })).body.data[0];
    resetDbCalls();
    await runForecasts(ctx, { flockId: oneFlock.id });
    // one flock: GetItem flock + GetItem config + Query stock + Query house devices + Query the farm's latest forecasts + the cycle's 4 + 2 writes
    expect(dbCalls).toEqual({ GetItem: 2, Query: 3 + 2, BatchGetItem: 2, BatchWriteItem: 2 });
  });
});

describe('farm scoping and capabilities', () => {
  it('another farm’s manager gets 404 on a flock’s forecast and cannot list its devices; a worker reads but cannot run (403)', async () => {
    const f = await predictiveFarm('Predictive scoped farm');
    const c = await flockWithCycle({ token: f.manager.token, farmId: f.farmId, startDate: day(-5) });
    await f.run({ flockId: c.flock.id });
    const strangerFarm = await otherFarm('Predictive stranger farm');
    const stranger = await userWith({ role: 'manager', farmIds: [strangerFarm] });

    const notFound = await call('GET', `${P}/flocks/${c.flock.id}`, { token: stranger.token });
    expect(notFound.status).toBe(404);
    expect(notFound.body.error).toBe(`Flock ${c.flock.id} not found`);
    expect((await call('GET', `${P}/devices`, { token: stranger.token, query: { farmId: f.farmId } })).status).toBe(404);
    expect((await call('GET', `${P}/farms/${f.farmId}`, { token: stranger.token })).status).toBe(404);
    expect((await call('GET', `${P}/runs`, { token: stranger.token, query: { farmId: f.farmId } })).status).toBe(404);
    expect((await call('GET', `${P}/accuracy`, { token: stranger.token, query: { flockId: c.flock.id } })).status).toBe(404);
    expect(
      (
        await call('POST', `${P}/run`, {
          token: f.runner.token,
          body: { flockId: (await flockWithCycle({ token: stranger.token, farmId: strangerFarm, startDate: day(-3) })).flock.id },
        })
      ).status,
    ).toBe(404);

    expect((await f.get(`${P}/flocks/${c.flock.id}`, undefined, f.worker.token)).flockId).toBe(c.flock.id);
    expect((await f.get(`${P}/devices`, undefined, f.worker.token)).devices).toEqual([]);
    expect((await f.get(`${P}/farms/${f.farmId}`, undefined, f.worker.token)).farmId).toBe(f.farmId);
    expect((await call('GET', `${P}/runs`, { token: f.worker.token })).status).toBe(200);
    expect((await call('POST', `${P}/run`, { token: f.worker.token, body: { farmId: f.farmId } })).status).toBe(403);
    expect((await call('POST', `${P}/run`, { token: f.manager.token, body: { farmId: f.farmId } })).status).toBe(200);
    expect((await call('POST', `${P}/run`, { token: f.runner.token, body: { farmId: f.farmId, flockId: c.flock.id } })).status).toBe(400);
    expect((await call('POST', `${P}/run`, { token: f.runner.token, body: {} })).status).toBe(400);
  });
});

describe('device failure risk', () => {
  it('from ingested readings: a flat-lining device and a silent one rank above a healthy one', async () => {
    const f = await predictiveFarm('Predictive device farm');
    const houseId = await house(f.farmId, 'Device house');
    const iot = { farmId: f.farmId, houseId, token: f.manager.token };
    const healthy = await registerDevice(iot, { name: 'A healthy', reportingIntervalSeconds: 3600 });
    const flat = await registerDevice(iot, { name: 'B flat', reportingIntervalSeconds: 3600 });
    const silent = await registerDevice(iot, { name: 'C silent', reportingIntervalSeconds: 3600 });
    // one reading an hour over the last 26 hours (every hour of the 24-hour window has one)
    const hourly = (value: (k: number) => Record<string, number>) => Array.from({ length: 26 }, (_, k) => ({ ts: minutesAgo(k * 60 + 1), metrics: value(k) }));
    expect(
      (
        await ingest(
          healthy.key,
          hourly((k) => ({ temperatureC: 22 + (k % 5) * 0.3, humidityPct: 55 + (k % 7) })),
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await ingest(
          flat.key,
          hourly(() => ({ temperatureC: 24, humidityPct: 60 })),
        )
      ).status,
    ).toBe(200);

    const run = await f.run({ farmId: f.farmId });
    expect(run.items.devices).toBe(3);
    const risks = (await f.get(`${P}/devices`, { houseId })).devices as Json[];
    expect(risks.map((r) => r.deviceId)).toEqual([silent.id, flat.id, healthy.id]);
    const [s, fl, h] = risks as [Json, Json, Json];
    expect(s).toMatchObject({ score: 100, level: 'critical', status: 'offline', lastSeen: null });
    // registered this hour: no hour it should have reported in yet, so no gaps, only silence
    expect(s.factors.map((x: Json) => x.kind)).toEqual(['silent']);
    // temperature and humidity both stuck for 24 hours: 100 × (1 − 0.2 × 0.2) = 96
    expect(fl).toMatchObject({ score: 96, level: 'critical', status: 'online' });
    expect(fl.factors.map((x: Json) => [x.kind, x.metric])).toEqual([
      ['flat_line', 'humidityPct'],
      ['flat_line', 'temperatureC'],
    ]);
    expect(h).toMatchObject({ score: 0, level: 'low', status: 'online', factors: [] });
    expect((await f.get(`${P}/devices`)).devices).toHaveLength(3);
  });
});

/**
 * Rules through the real middleware and DynamoDB Local: the default rules a farm starts with, CRUD with
 * If-Match and validation, farm scoping, the calculation catalogue; live evaluation on daily records
 * (fires on exactly the expected days, never in its cooldown) equals the backtest; the water-drop and
 * heat scenarios rank the drinker line and heat stress first; a rule's incident action.
 */
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { adminLogin, userWith } from '../support/accounts.js';
import { day, flockWithCycle } from '../support/cycles.js';
import { house, otherFarm } from '../support/farms.js';
import { ingest, registerDevice } from '../support/iot.js';
import { dbCalls, resetDbCalls } from '../../shared/db/client.js';
import { invocations } from '../support/lambda.js';
import { runAlarmJob } from '../../shared/services/rules/jobs.js';
import { alarmJob } from '../support/anomalies.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A new farm with House 2, its manager, and a broiler flock of 1,000 birds placed 30 days ago in House 2. */
async function farmWithFlock(name = 'Rules farm') {
  // created through the API: a new farm starts with its default rules
  const admin = await adminLogin();
  const farm = await call('POST', '/api/v1/config/farms', { token: admin, body: { name } });
  expect(farm.status, JSON.stringify(farm.body)).toBe(201);
  const farmId = farm.body.data.id as string;
  const houseId = (
    await call('POST', `/api/v1/config/farms/${farmId}/houses`, { token: admin, body: { name: 'House 2', usableAreaM2: 1200, capacity: 20000 } })
  ).body.data.id as string;
  const manager = await userWith({ role: 'manager', farmIds: [farmId] });
  const fx = await flockWithCycle({ token: manager.token, farmId, houseId, startDate: day(-30), hatchDate: day(-30), breed: 'Ross 308' });
  await fx.move({ type: 'bird_inflow', date: day(-30), quantity: 1000, averageWeightGrams: 42 });
  await fx.move({ type: 'feed_delivery', date: day(-30), quantityKg: 20_000, feedType: 'grower' });
  const record = async (date: string, f: { deaths?: number; feedKg?: number; waterLiters?: number } = {}) => {
    const res = await call('POST', `${fx.base}/daily-records`, {
      token: manager.token,
      body: {
        date,
        deaths: f.deaths ?? 1,
        feedKg: f.feedKg ?? 100,
        waterLiters: f.waterLiters ?? 190,
        temperatureMinC: 19,
        temperatureMaxC: 22,
        humidityPct: 60,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  };
  const createRule = async (body: Json) =>
    call('POST', '/api/v1/rules', { token: manager.token, body: { scope: { farmId }, severity: 'warning', actions: ['raise_anomaly'], ...body } });
  const getRule = async (id: string) => (await call('GET', `/api/v1/rules/${id}`, { token: manager.token })).body.data as Json;
  const anomalies = async (query: Record<string, string>) => {
    const res = await call('GET', '/api/v1/anomalies', { token: manager.token, query: { farmId, limit: '100', ...query } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as Json[];
  };
  return { farmId, houseId, manager, fx, record, createRule, getRule, anomalies };
}

const mortalityRule = { name: 'Mortality above 1 %', input: 'dailyMortalityPct', window: 'P1D', aggregation: 'last', condition: { op: '>', value: 1 } };

describe('rules', () => {
  it('a farm starts with the default rules of its thresholds; they can be edited, switched off and deleted for good', async () => {
    const f = await farmWithFlock('Defaults farm');
    const listed = await call('GET', '/api/v1/rules', { token: f.manager.token, query: { farmId: f.farmId, limit: '100' } });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const defaults = listed.body.data as Json[];
    const keys = defaults.map((r) => r.defaultKey);
    expect(keys.length).toBeGreaterThanOrEqual(8);
    expect(defaults.every((r) => r.defaultKey?.startsWith('default:') && r.enabled)).toBe(true);
    const nh3 = defaults.find((r) => r.input === 'nh3Ppm' || r.input === 'ammonia')!;
    expect(nh3).toMatchObject({ basis: 'hour', aggregation: 'avg', window: 'PT1H', condition: { op: '>', value: 20 } });

    const stale = await call('PATCH', `/api/v1/rules/${nh3.id}`, { token: f.manager.token, body: { enabled: false }, headers: { 'If-Match': '"7"' } });
    expect(stale.status).toBe(412);
    const off = await call('PATCH', `/api/v1/rules/${nh3.id}`, {
      token: f.manager.token,
      body: { enabled: false },
      headers: { 'If-Match': `"${nh3.version}"` },
    });
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ enabled: false, version: nh3.version + 1 });
    expect(off.headers.ETag).toBe(`"${nh3.version + 1}"`);
    expect(
      (await call('GET', '/api/v1/rules', { token: f.manager.token, query: { farmId: f.farmId, enabled: 'false' } })).body.data.map((r: Json) => r.id),
    ).toEqual([nh3.id]);

    const victim = defaults.find((r) => r.defaultKey !== nh3.defaultKey)!;
    expect((await call('DELETE', `/api/v1/rules/${victim.id}`, { token: f.manager.token })).status).toBe(204);
    expect((await call('GET', `/api/v1/rules/${victim.id}`, { token: f.manager.token })).status).toBe(404);
    const again = (await call('GET', '/api/v1/rules', { token: f.manager.token, query: { farmId: f.farmId, limit: '100' } })).body.data as Json[];
    expect(again.length).toBe(defaults.length - 1);
  });

  it('an Idempotency-Key makes a retried creation answer the first rule; another body with the same key is refused', async () => {
    const farmId = await otherFarm('Idempotent rules farm');
    const manager = await userWith({ role: 'manager', farmIds: [farmId] });
    const create = (body: Json) =>
      call('POST', '/api/v1/rules', {
        token: manager.token,
        headers: { 'Idempotency-Key': 'create-mortality-rule' },
        body: { ...mortalityRule, scope: { farmId }, severity: 'warning', actions: ['raise_anomaly'], ...body },
      });
    const first = await create({});
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.headers.ETag).toBe('"1"');
    expect(first.headers['Idempotent-Replayed']).toBeUndefined();
    const retry = await create({});
    expect(retry.status).toBe(201);
    expect(retry.headers['Idempotent-Replayed']).toBe('true');
    expect(retry.headers.ETag).toBe('"1"');
    expect(retry.body.data).toEqual(first.body.data);
    expect((await create({ name: 'Another rule' })).status).toBe(422);
    const listed = (await call('GET', '/api/v1/rules', { token: manager.token, query: { farmId, limit: '100' } })).body.data as Json[];
    expect(listed.filter((r) => r.defaultKey === null).map((r) => r.id)).toEqual([first.body.data.id]);
  });

  it('refuses what it cannot evaluate with 400 naming the field, hides other farms’ rules and needs manage_rules to write', async () => {
    const f = await farmWithFlock('Validation farm');
    const bad = async (body: Json) => {
      const res = await f.createRule({ ...mortalityRule, ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      return (res.body.details as Json[]).map((d) => `${d.field}: ${d.message}`).join('; ');
    };
    expect(await bad({ input: 'bogus' })).toMatch(/^body\.input: unknown input "bogus"/);
    expect(await bad({ window: 'PT1H' })).toMatch(/^body\.window: /);
    expect(await bad({ window: 'P1M' })).toMatch(/^body\.window: /);
    expect(await bad({ condition: { eval: ['1'] } })).toMatch(/^body\.condition: /);
    expect(await bad({ condition: { '>': [{ var: 'secret' }, 1] } })).toMatch(/^body\.condition: .*secret/);
    const strangers = await otherFarm('Strangers');
    const strangeHouse = await house(strangers, 'Their house');
    // another farm's house is a missing one: 404 naming it
    const foreign = await f.createRule({ ...mortalityRule, scope: { farmId: f.farmId, houseId: strangeHouse } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: `House ${strangeHouse} not found` });

    const created = await f.createRule({ ...mortalityRule, condition: { '>': [{ var: 'value' }, { '+': [0.5, { '*': [0.01, { var: 'ageDays' }] }] }] } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({ inputKind: 'calculation', basis: 'day', unit: '%', cooldownMinutes: 1440, enabled: true, defaultKey: null });

    const outsider = await userWith({ role: 'manager', farmIds: [strangers] });
    expect((await call('GET', `/api/v1/rules/${created.body.data.id}`, { token: outsider.token })).status).toBe(404);
    expect((await call('DELETE', `/api/v1/rules/${created.body.data.id}`, { token: outsider.token })).status).toBe(404);
    const worker = await userWith({ role: 'worker', farmIds: [f.farmId] });
    expect(
      (
        await call('POST', '/api/v1/rules', {
          token: worker.token,
          body: { ...mortalityRule, scope: { farmId: f.farmId }, severity: 'info', actions: ['raise_anomaly'] },
        })
      ).status,
    ).toBe(403);
    expect((await call('GET', `/api/v1/rules/${created.body.data.id}`, { token: worker.token })).status).toBe(200);
  });

  it('lists the calculation templates of the KPI engine with formula, unit, inputs and source', async () => {
    const { token } = await userWith({ role: 'viewer' });
    const res = await call('GET', '/api/v1/rules/metadata/calculations', { token });
    expect(res.status).toBe(200);
    const ids = (res.body.data as Json[]).map((c) => c.id);
    for (const id of [
      'dailyMortalityPct',
      'cumulativeMortalityPct',
      'fcr',
      'adg',
      'uniformityPct',
      'waterFeedRatio',
      'epef',
      'henDayPct',
      'daysOfFeedLeft',
      'temperatureDeviation',
      'waterDropPct',
    ]) {
      expect(ids).toContain(id);
    }
    for (const c of res.body.data as Json[]) expect(c.formula.length * c.unit.length * c.source.length * c.inputs.length, c.id).toBeGreaterThan(0);
  });

  it('fires on exactly the expected days and not in its cooldown, and the backtest equals what live evaluation produced', async () => {
    const f = await farmWithFlock('Cooldown farm');
    const rule = (await f.createRule({ ...mortalityRule, cooldownMinutes: 2 * 1440 })).body.data as Json;
    // 1 death a day (0.1 %) except 15 (1.5 %) on days -10, -9, -8 and -5
    const high = new Set([day(-10), day(-9), day(-8), day(-5)]);
    const fired: string[] = [];
    for (let d = -12; d <= -3; d++) {
      await f.record(day(d), { deaths: high.has(day(d)) ? 15 : 1 });
      const status = (await f.getRule(rule.id)).status.find((s: Json) => s.target === `flock:${f.fx.flock.id}`);
      if (status?.lastFiredAt && !fired.includes(status.lastFiredAt)) fired.push(status.lastFiredAt);
    }
    // -10 fires; -9 is a day later (cooldown); -8 is two days later (the cooldown is over); -5 fires
    const endOf = (d: number) => `${day(d + 1)}T00:00:00.000Z`;
    expect(fired).toEqual([endOf(-10), endOf(-8), endOf(-5)]);

    const test = await call('POST', `/api/v1/rules/${rule.id}/test`, {
      token: f.manager.token,
      body: { flockId: f.fx.flock.id, from: `${day(-12)}T00:00:00.000Z`, to: `${day(-2)}T00:00:00.000Z` },
    });
    expect(test.status, JSON.stringify(test.body)).toBe(200);
    expect(test.body.data.firings.map((e: Json) => e.at)).toEqual(fired);
    expect(test.body.data.suppressedByCooldown).toBe(1);
    expect(test.body.data.firings[0]).toMatchObject({ outcome: 'fired', value: 1.5 });

    // one anomaly for the rule and flock while it is open: the later firings updated it
    const mine = (await f.anomalies({ flockId: f.fx.flock.id, source: 'rule' })).filter((a) => a.ruleId === rule.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ metric: 'dailyMortalityPct', occurrences: 3, status: 'open', severity: 'warning', expected: 1 });
    // the newest firing's value (15 of the birds present that day)
    expect(mine[0]!.observed).toBe(test.body.data.firings.at(-1).value);
  });

  it('a water drop with normal feed fires the default rule and ranks the drinker line first, with the check for House 2', async () => {
    const f = await farmWithFlock('Water farm');
    for (let d = -12; d <= -3; d++) await f.record(day(d), { waterLiters: d >= -4 ? 130 : 190 });
    const waterDrop = (await f.anomalies({ flockId: f.fx.flock.id, source: 'rule' })).find((a) => a.metric === 'waterDropPct');
    expect(waterDrop, 'the default water-drop rule fired').toBeDefined();
    expect(waterDrop!.hypotheses[0].cause).toMatch(/drinker/i);
    expect(waterDrop!.hypotheses[0].check).toMatch(/house 2/i);
    expect(waterDrop!.hypotheses.find((h: Json) => /disease/i.test(h.cause))?.contradicting.join(' ')).toMatch(/feed/i);

    // the manager's dashboard counts it; a worker of the farm gets its check as a due action
    const manager = (await call('GET', '/api/v1/dashboard', { token: f.manager.token })).body.data;
    expect(manager.openAnomalies.count).toBeGreaterThanOrEqual(1);
    expect(manager.openAnomalies.latest.map((a: Json) => a.id)).toContain(waterDrop!.id);
    const worker = await userWith({ role: 'worker', farmIds: [f.farmId] });
    const due = (await call('GET', '/api/v1/dashboard', { token: worker.token })).body.data.dueActions as Json[];
    expect(due).toContainEqual(expect.objectContaining({ kind: 'anomaly_check', id: waterDrop!.id, action: waterDrop!.hypotheses[0].check }));
  });

  it('a hot house with rising mortality ranks heat stress first (sensor rule, evaluated by the job)', async () => {
    const f = await farmWithFlock('Heat farm');
    for (let d = -6; d <= -1; d++) await f.record(day(d), { deaths: d >= -2 ? 12 : 1 });
    await f.record(day(0), { deaths: 14 });
    const device = await registerDevice(
      { farmId: f.farmId, houseId: f.houseId, token: f.manager.token },
      { kind: 'climate', metrics: ['temperatureC', 'humidityPct'] },
    );
    const hourStart = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000;
    const readings = [0, 10, 20, 30, 40, 50].map((m) => ({
      ts: new Date(hourStart + m * 60_000).toISOString(),
      metrics: { temperatureC: 31.5, humidityPct: 62 },
    }));
    expect((await ingest(device.key, readings)).status).toBe(200);
    const rule = (
      await f.createRule({
        name: 'House too warm',
        input: 'temperatureDeviation',
        window: 'PT1H',
        aggregation: 'avg',
        condition: { op: '>', value: 2 },
        severity: 'critical',
      })
    ).body.data as Json;
    resetDbCalls();
    const job = await runAlarmJob(alarmJob('test-job'));
    console.info(`the alarm job (${job.rules.rules} rules, ${job.rules.targets} targets, ${job.detectors.flocks} flocks): ${JSON.stringify(dbCalls)}`);
    expect(dbCalls.Scan).toBeUndefined();
    expect(job.rules.errors).toEqual([]);
    const heat = (await f.anomalies({ source: 'rule' })).find((a) => a.ruleId === rule.id);
    expect(heat, JSON.stringify(job)).toBeDefined();
    expect(heat).toMatchObject({ houseId: f.houseId, severity: 'critical' });
    expect(heat?.hypotheses[0].cause).toMatch(/heat stress/i);
  });

  it('a rule that cannot be evaluated says why in its status and does not fire', async () => {
    const f = await farmWithFlock('Quiet farm');
    const rules = (await call('GET', '/api/v1/rules', { token: f.manager.token, query: { farmId: f.farmId, limit: '100' } })).body.data as Json[];
    const nh3 = rules.find((r) => r.defaultKey === 'default:nh3')!;
    await runAlarmJob(alarmJob('test-quiet'));
    // no sensor in the farm: nothing to judge, and the status says so
    expect((await f.getRule(nh3.id)).status).toEqual([
      {
        target: 'scope',
        state: 'no_data',
        reason: 'no sensor in its scope: register a device in the house',
        lastEvaluatedAt: null,
        lastFiredAt: null,
        judgedUntil: null,
      },
    ]);
    // a sensor that never reported: its house is judged, without values
    await registerDevice({ farmId: f.farmId, houseId: f.houseId, token: f.manager.token }, { kind: 'air_quality', name: 'NH3 sensor' });
    await runAlarmJob(alarmJob('test-quiet-2'));
    const status = (await f.getRule(nh3.id)).status as Json[];
    expect(status).toEqual([expect.objectContaining({ target: `house:${f.houseId}`, state: 'no_data', lastFiredAt: null })]);
    expect(status[0]!.reason).toBe('no ammonia values to judge yet');
    expect((await f.anomalies({ source: 'rule' })).filter((a) => a.ruleId === nh3.id)).toEqual([]);
  });

  it('judging a day costs the same reads whatever the number of rules (a few Queries per scope, never a Scan)', async () => {
    const f = await farmWithFlock('Cost farm');
    // the calls of the rulesOnNewData run the daily record started (another function: the stand-in counts it)
    const count = async (date: string) => {
      const seen = invocations.length;
      await f.record(date);
      const runs = invocations.slice(seen).filter((i) => i.name.endsWith('-rulesOnNewData'));
      expect(runs).toHaveLength(1);
      console.info(`the alarms a daily record starts: ${JSON.stringify(runs[0]!.calls)}`);
      return runs[0]!.calls;
    };
    await f.record(day(-5));
    const withDefaults = await count(day(-4));
    for (let i = 0; i < 5; i++)
      expect((await f.createRule({ ...mortalityRule, name: `Mortality ${i}`, condition: { op: '>', value: 5 + i } })).status).toBe(201);
    const withMore = await count(day(-3));
    expect(withMore).toEqual(withDefaults);
    expect(withDefaults.Scan).toBeUndefined();
    // a few Queries per flock; one of them is the farm's feed stock (days of feed left: deliveries fill the farm's stock, not a cycle's)
    expect(withDefaults.Query).toBeLessThanOrEqual(5);
  });

  it('the open_incident action opens one incident per rule and target while it is open, linked to the anomaly', async () => {
    const f = await farmWithFlock('Incident farm');
    const rule = (await f.createRule({ ...mortalityRule, actions: ['raise_anomaly', 'open_incident'], severity: 'critical', cooldownMinutes: 0 })).body
      .data as Json;
    await f.record(day(-3), { deaths: 20 });
    await f.record(day(-2), { deaths: 20 });
    const incidents = (await call('GET', '/api/v1/operations/incidents', { token: f.manager.token, query: { farmId: f.farmId } })).body.data as Json[];
    const mine = incidents.filter((i) => i.dedupKey === `rule:${rule.id}:flock:${f.fx.flock.id}`);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ category: 'welfare', severity: 'critical', occurrences: 2, links: { flockIds: [f.fx.flock.id] } });
    expect(mine[0]!.links.anomalyIds).toHaveLength(1);
  });
});

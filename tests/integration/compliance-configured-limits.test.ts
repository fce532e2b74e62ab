/**
 * The compliance report reads the configured thresholds, through the real middleware and DynamoDB Local:
 * `minDarkHours` (broilers' darkness a day), `lightStepUpMaxHoursPerWeek` (layers' step-up) and
 * `layerMaxHensPerM2` (hens per m² of a barn) change the verdict of a day; a value laxer than the law
 * (less than 6 h of darkness, more than 9 hens per m²) is refused with 400 naming the legal limit.
 * The file shares one table, so the tests run in order and each puts back the defaults it changed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { adminLogin, userWith } from '../support/accounts.js';
import { otherFarm } from '../support/farms.js';
import { day, flockWithCycle, type CycleFixture } from '../support/cycles.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const THRESHOLDS = '/api/v1/config/analytics/thresholds';

async function setThresholds(body: Json) {
  const res = await call('PUT', THRESHOLDS, { token: await adminLogin(), body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function ruleOf(f: CycleFixture, rule: string): Promise<Json> {
  const res = await call('GET', `/api/v1/compliance/cycles/${f.flock.id}/${f.cycle.id}/report`, { token: f.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data.rules as Json[]).find((r) => r.rule === rule)!;
}

async function record(f: CycleFixture, body: Json) {
  const res = await call('POST', `${f.base}/daily-records`, { token: f.token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

describe('the compliance rules read the configured thresholds', { timeout: 180_000 }, () => {
  afterEach(async () => setThresholds({}));

  it('a laxer value than the law is refused with 400 naming the legal limit; a stricter one is kept', async () => {
    const admin = await adminLogin();
    const lax = await call('PUT', THRESHOLDS, { token: admin, body: { minDarkHours: 5, layerMaxHensPerM2: 10 } });
    expect(lax.status).toBe(400);
    expect(lax.body.details).toEqual([
      {
        field: 'body.minDarkHours',
        message: 'must be at least 6, the legal minimum (Council Directive 2007/43/EC, Annex I, point 6); it may be stricter, never laxer',
      },
      {
        field: 'body.layerMaxHensPerM2',
        message: 'must be at most 9, the legal maximum (Council Directive 1999/74/EC, Art. 4(1)(4)); it may be stricter, never laxer',
      },
    ]);
    const whole = await call('PUT', '/api/v1/config/analytics', { token: admin, body: { thresholds: { layerMaxHensPerM2: 9.5 } } });
    expect(whole.status).toBe(400);
    expect(whole.body.details).toEqual([expect.objectContaining({ field: 'body.thresholds.layerMaxHensPerM2' })]);
    const strict = await call('PUT', THRESHOLDS, { token: admin, body: { minDarkHours: 8, layerMaxHensPerM2: 7 } });
    expect(strict.status, JSON.stringify(strict.body)).toBe(200);
    expect(strict.body.data.thresholds).toMatchObject({ minDarkHours: 8, layerMaxHensPerM2: 7, lightStepUpMaxHoursPerWeek: 1 });
  });

  it('minDarkHours: a broiler day with 7 h of darkness passes at the default 6 h and fails at a configured 8 h', async () => {
    const f = await flockWithCycle({ birdType: 'broiler', startDate: day(-20), hatchDate: day(-20) });
    await f.move({ type: 'bird_inflow', date: day(-20), quantity: 1000 });
    await record(f, { date: day(-5), deaths: 0, feedKg: 0, waterLiters: 0, temperatureMinC: 24, temperatureMaxC: 27, lightHours: 17 });
    expect((await ruleOf(f, 'lighting')).status).toBe('pass');
    await setThresholds({ minDarkHours: 8 });
    const rule = await ruleOf(f, 'lighting');
    expect(rule.status).toBe('fail');
    expect(rule.findings).toEqual([expect.objectContaining({ date: day(-5), message: expect.stringMatching(/7 h of darkness \(at least 8 h\)/) })]);
  });

  it('lightStepUpMaxHoursPerWeek: a layer step-up of 2 h in a week warns at the default 1 h and passes at a configured 2 h', async () => {
    const f = await flockWithCycle({ birdType: 'layer', startDate: day(-160), hatchDate: day(-160) });
    await f.move({ type: 'bird_inflow', date: day(-160), quantity: 1000 });
    const laying = { deaths: 0, feedKg: 0, waterLiters: 0, eggsCollected: 0 };
    await record(f, { date: day(-7), ...laying, lightHours: 14 });
    await record(f, { date: day(-1), ...laying, lightHours: 16 });
    const warned = await ruleOf(f, 'lighting');
    expect(warned.findings).toEqual([expect.objectContaining({ status: 'warn', message: expect.stringMatching(/the step-up is at most 1 h a week/) })]);
    await setThresholds({ lightStepUpMaxHoursPerWeek: 2 });
    expect(await ruleOf(f, 'lighting')).toMatchObject({ status: 'pass', findings: [] });
  });

  it('layerMaxHensPerM2: 8 hens per m² of a barn pass at the Directive’s 9 and fail at a configured 7', async () => {
    const farmId = await otherFarm('Barn farm');
    const manager = await userWith({ role: 'manager', farmIds: [farmId] });
    const house = await call('POST', `/api/v1/config/farms/${farmId}/houses`, {
      token: manager.token,
      body: { name: 'Barn', usableAreaM2: 1000, type: 'floor', capacity: 20_000 },
    });
    expect(house.status, JSON.stringify(house.body)).toBe(201);
    const f = await flockWithCycle({ token: manager.token, farmId, birdType: 'layer', houseId: house.body.data.id, startDate: day(-10), hatchDate: day(-150) });
    await f.move({ type: 'bird_inflow', date: day(-10), quantity: 8000 });
    const atNine = await ruleOf(f, 'stocking_density');
    expect(atNine.status, JSON.stringify(atNine)).toBe('pass');
    expect(atNine.summary).toContain('(limit 9 birds/m2)');
    await setThresholds({ layerMaxHensPerM2: 7 });
    const atSeven = await ruleOf(f, 'stocking_density');
    expect(atSeven.status).toBe('fail');
    expect(atSeven.findings[0]).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/^8 birds\/m2 in house .* over the limit of 7 birds\/m2/),
      evidence: { limit: 7, source: expect.stringMatching(/^the configured limit of 7 laying hens per m² .*stricter than Council Directive 1999\/74\/EC/) },
    });
  });
});

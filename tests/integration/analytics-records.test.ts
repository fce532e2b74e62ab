import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { adminLogin, userWith } from '../support/accounts.js';
import { day, flockWithCycle } from '../support/cycles.js';
import { otherFarm } from '../support/farms.js';
import { dbCalls, resetDbCalls } from '../../shared/db/client.js';

const EGGS = '/api/v2/analytics/egg-production';
const WATER = '/api/v2/analytics/water-readings';

describe('POST /api/v2/analytics/egg-production', () => {
  it('records an egg_collection in the flock’s active cycle: stock, summary and quality figures move', async () => {
    const c = await flockWithCycle({ birdType: 'layer', breed: 'Hy-Line Brown' });
    await c.move({ type: 'bird_inflow', date: day(-20), quantity: 1000 });
    const res = await call('POST', EGGS, {
      token: c.token,
      body: {
        flockId: c.flock.id,
        date: day(-1),
        totalEggs: 900,
        cracked: 12,
        dirty: 5,
        doubleYolk: 2,
        averageEggWeightGrams: 61.4,
        grades: { M: 500, L: 388 },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({
      type: 'egg_collection',
      date: day(-1),
      cycleId: c.cycle.id,
      totalEggs: 900,
      cracked: 12,
      dirty: 5,
      doubleYolk: 2,
      averageEggWeightGrams: 61.4,
    });
    const summary = (await call('GET', c.base, { token: c.token })).body.data;
    expect(summary.eggs).toMatchObject({ collected: 900, cracked: 12, dirty: 5 });
  });

  it('defaults the date to today, is idempotent with a key, and refuses what cannot be recorded', async () => {
    const c = await flockWithCycle({ birdType: 'layer' });
    const key = { 'Idempotency-Key': 'eggs-today-1' };
    const first = await call('POST', EGGS, { token: c.token, headers: key, body: { flockId: c.flock.id, totalEggs: 10 } });
    expect(first.status).toBe(201);
    expect(first.body.data.date).toBe(day(0));
    const again = await call('POST', EGGS, { token: c.token, headers: key, body: { flockId: c.flock.id, totalEggs: 10 } });
    expect(again.status).toBe(201);
    expect(again.headers['Idempotent-Replayed']).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    expect((await call('GET', c.base, { token: c.token })).body.data.eggs.collected).toBe(10);

    const bad: Array<[Record<string, unknown>, string]> = [
      [{ totalEggs: 10 }, 'body.flockId'],
      [{ flockId: c.flock.id }, 'body.totalEggs'],
      [{ flockId: c.flock.id, totalEggs: -1 }, 'body.totalEggs'],
      [{ flockId: c.flock.id, totalEggs: 10, cracked: 11 }, 'body.cracked'],
      [{ flockId: c.flock.id, totalEggs: 10, date: day(-30) }, 'body.date'],
      [{ flockId: c.flock.id, totalEggs: 10, date: day(3) }, 'body.date'],
      [{ flockId: c.flock.id, totalEggs: 10, colour: 'brown' }, 'body.colour'],
    ];
    for (const [body, field] of bad) {
      const res = await call('POST', EGGS, { token: c.token, body });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect((await call('GET', c.base, { token: c.token })).body.data.eggs.collected).toBe(10);

    const broiler = await flockWithCycle({ birdType: 'broiler', token: c.token });
    const refused = await call('POST', EGGS, { token: c.token, body: { flockId: broiler.flock.id, totalEggs: 5 } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/broiler/);
    await call('POST', `${c.base}/close`, { token: c.token, body: {} });
    const closed = await call('POST', EGGS, { token: c.token, body: { flockId: c.flock.id, totalEggs: 5 } });
    expect(closed.status).toBe(409);
    expect(closed.body.error).toMatch(/no active cycle/);
  });

  it('needs edit_analytics; another farm’s flock is 404', async () => {
    const c = await flockWithCycle({ birdType: 'layer' });
    const viewer = await userWith({ role: 'viewer' });
    expect((await call('POST', EGGS, { token: viewer.token, body: { flockId: c.flock.id, totalEggs: 1 } })).status).toBe(403);
    const farm = await otherFarm();
    const outsider = await userWith({ role: 'manager', farmIds: [farm] });
    const res = await call('POST', EGGS, { token: outsider.token, body: { flockId: c.flock.id, totalEggs: 1 } });
    expect(res.status).toBe(404);
    expect((await call('GET', c.base, { token: c.token })).body.data.eggs.collected).toBe(0);
  });
});

describe('POST /api/v2/analytics/water-readings', () => {
  it('stores the reading with its pH assessment against the thresholds in force, in one transaction', async () => {
    const c = await flockWithCycle();
    resetDbCalls();
    const res = await call('POST', WATER, {
      token: c.token,
      body: { flockId: c.flock.id, pH: 5.8, temperatureC: 18, chlorinePpm: 3, source: 'line_end', date: day(-2) },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(dbCalls.TransactWriteItems).toBe(1);
    expect(res.body.data).toMatchObject({
      flockId: c.flock.id,
      cycleId: c.cycle.id,
      date: day(-2),
      pH: 5.8,
      temperatureC: 18,
      chlorinePpm: 3,
      tdsPpm: null,
      source: 'line_end',
      assessment: { pH: 'low', range: { min: 6, max: 8, performanceMin: 6.3 } },
    });
    expect(res.body.data.assessment.message).toMatch(/below the acceptable 6/);
    const ok = await call('POST', WATER, { token: c.token, body: { flockId: c.flock.id, pH: 7.1 } });
    expect(ok.body.data).toMatchObject({ date: day(0), assessment: { pH: 'acceptable' } });
    const soso = await call('POST', WATER, { token: c.token, body: { flockId: c.flock.id, pH: 6.1 } });
    expect(soso.body.data.assessment.pH).toBe('below_optimum');

    const admin = await adminLogin();
    await call('PUT', '/api/v1/config/analytics/thresholds', { token: admin, body: { waterPhMin: 5.5, waterPhPerformanceMin: 5.6 } });
    const relaxed = await call('POST', WATER, { token: c.token, body: { flockId: c.flock.id, pH: 5.8 } });
    expect(relaxed.body.data.assessment.pH).toBe('acceptable');
    await call('PUT', '/api/v1/config/analytics/thresholds', { token: admin, body: {} });
  });

  it('validates the contract’s rules (pH 0–14, flockId required) and writes nothing on refusal', async () => {
    const c = await flockWithCycle();
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ flockId: c.flock.id, pH: 14.1 }, 'body.pH'],
      [{ flockId: c.flock.id, pH: -0.1 }, 'body.pH'],
      [{ flockId: c.flock.id, pH: '7' }, 'body.pH'],
      [{ flockId: c.flock.id }, 'body.pH'],
      [{ pH: 7 }, 'body.flockId'],
      [{ flockId: c.flock.id, pH: 7, source: 'puddle' }, 'body.source'],
      [{ flockId: c.flock.id, pH: 7, date: day(-25) }, 'body.date'],
    ];
    for (const [body, field] of bad) {
      resetDbCalls();
      const res = await call('POST', WATER, { token: c.token, body });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
      expect(dbCalls.TransactWriteItems).toBeUndefined();
    }
    await call('POST', `${c.base}/close`, { token: c.token, body: {} });
    const closed = await call('POST', WATER, { token: c.token, body: { flockId: c.flock.id, pH: 7 } });
    expect(closed.status).toBe(409);
  });
});

describe('POST /api/v2/analytics/age-adjusted-data/{flockId}', () => {
  const AGE = (flockId: string) => `/api/v2/analytics/age-adjusted-data/${flockId}`;

  it('stores a body weight as a weighing of the active cycle and compares it with the standard at that age', async () => {
    // Ross 308, age 21 today: standard 1,012 g; 960 g is (960 − 1,012) ÷ 1,012 = −5.14 %;
    // at 42 days: 960 × 2,998 ÷ 1,012 = 2,843.97 → 2,844 g
    const c = await flockWithCycle({ breed: 'Ross 308', startDate: day(-21) });
    const res = await call('POST', AGE(c.flock.id), { token: c.token, body: { value: 960, sampleSize: 50 } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({
      metric: 'body_weight_g',
      value: 960,
      unit: 'g',
      date: day(0),
      ageDays: 21,
      standard: { name: 'Ross 308', value: 1012, interpolated: false },
      ageAdjusted: { referenceAgeDays: 42, value: 2844 },
      weighing: { grams: 960, sampleSize: 50, method: 'manual_sample' },
    });
    expect(res.body.data.deviationPct).toBeCloseTo(-5.14, 2);
    const weights = await call('GET', `${c.base}/weights`, { token: c.token });
    expect(weights.body.data.map((w: { grams: number }) => w.grams)).toEqual([960]);
    expect((await call('GET', c.base, { token: c.token })).body.data.latestWeight).toEqual({ date: day(0), grams: 960 });
  });

  it('unknown breeds get no standard (with the reason); bad input is 400 and writes nothing; retries replay', async () => {
    const c = await flockWithCycle({ breed: 'Kuroiler', startDate: day(-10) });
    const key = { 'Idempotency-Key': 'age-adjusted-1' };
    const first = await call('POST', AGE(c.flock.id), { token: c.token, headers: key, body: { value: 300, date: day(-1) } });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({
      standard: null,
      deviationPct: null,
      ageAdjusted: null,
      reason: expect.stringMatching(/no breed standard for "Kuroiler"/),
    });
    const again = await call('POST', AGE(c.flock.id), { token: c.token, headers: key, body: { value: 300, date: day(-1) } });
    expect(again.headers['Idempotent-Replayed']).toBe('true');
    expect(again.body.data.weighing.id).toBe(first.body.data.weighing.id);
    for (const [body, field] of [
      [{}, 'body.value'],
      [{ value: -3 }, 'body.value'],
      [{ value: '300' }, 'body.value'],
      [{ value: 300, metric: 'shoe_size' }, 'body.metric'],
      [{ value: 300, date: day(-11) }, 'body.date'],
    ] as Array<[Record<string, unknown>, string]>) {
      const res = await call('POST', AGE(c.flock.id), { token: c.token, body });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect((await call('GET', `${c.base}/weights`, { token: c.token })).body.data).toHaveLength(1);
    expect((await call('POST', AGE('01JD3Y4Z9V6Q8K2M5N7P0R1S3T'), { token: c.token, body: { value: 300 } })).status).toBe(404);
  });
});

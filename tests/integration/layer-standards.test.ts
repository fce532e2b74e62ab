/**
 * A Hy-Line Brown flock from the day-old chicks to week 85 through the real middleware and DynamoDB Local:
 * a rearing weighing (week 5) is compared with the guide's weight for the age, and a day of week 85 has the
 * guide's targets (hen-day, egg weight and egg mass, feed and water, hen-housed eggs, livability); the
 * standards list serves the tables from week 1 to week 100. Responses are checked against their closed
 * schemas (tests/support/contract.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call as inProcessCall } from '../support/api.js';
import { checkedCall } from '../support/contract.js';
import { day, flockWithCycle, type CycleFixture } from '../support/cycles.js';

const call = checkedCall(inProcessCall);
const A = '/api/v2/analytics';
/** Hatched 596 days ago: yesterday is age 595 = week 85. */
const HATCH_AGO = 596;
const age = (n: number) => day(n - HATCH_AGO);
let c: CycleFixture;

beforeAll(async () => {
  c = await flockWithCycle({ birdType: 'layer', breed: 'Hy-Line Brown', startDate: age(0), hatchDate: age(0) });
  await c.move({ type: 'bird_inflow', date: age(0), quantity: 1000 });
  // week 5: 100 pullets weighed, 400 g on average
  const weighed = await call('POST', `${c.base}/weights`, { token: c.token, body: { date: age(35), grams: 400, sampleSize: 100 } });
  expect(weighed.status, JSON.stringify(weighed.body)).toBe(201);
  // week 85: 770 eggs of 65 g from the 1,000 hens
  const eggs = await call('POST', `${A}/egg-production`, {
    token: c.token,
    body: { flockId: c.flock.id, date: age(595), totalEggs: 770, cracked: 0, averageEggWeightGrams: 65 },
  });
  expect(eggs.status, JSON.stringify(eggs.body)).toBe(201);
});

describe('Hy-Line Brown from rearing to week 85 against its guide', () => {
  it('the week-5 weighing is compared with the midpoint of the published 360–420 g band', async () => {
    const res = await call('GET', `${A}/breed/${c.flock.id}/${c.cycle.id}`, { token: c.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { comparison } = res.body.data;
    expect(comparison.standard).toMatchObject({ id: 'hy-line-brown', status: 'approximate', edition: null });
    const week5 = comparison.days.find((d: { date: string }) => d.date === age(35));
    // (400 − 390) ÷ 390 × 100 = 2.564 %
    expect(week5.ageDays).toBe(35);
    expect(week5.bodyWeight).toEqual({
      actual: 400,
      standard: 390,
      unit: 'g',
      deviationPct: 2.56,
      interpolated: false,
      standardBasis: 'band midpoint',
      standardBand: { low: 360, high: 420 },
    });
  });

  it('a day of week 85 has the guide’s targets, compared where the flock has a figure', async () => {
    const res = await call('GET', `${A}/breed/${c.flock.id}/${c.cycle.id}`, { token: c.token });
    const d = res.body.data.comparison.days.find((x: { date: string }) => x.date === age(595));
    expect(d.ageDays).toBe(595);
    // hen-day 770 ÷ 1,000 = 77 % against the midpoint of 74.8–78.6 % = 76.7 % → +0.39 %
    expect(d.henDayPct).toMatchObject({
      actual: 77,
      standard: 76.7,
      deviationPct: 0.39,
      standardBasis: 'band midpoint',
      standardBand: { low: 74.8, high: 78.6 },
    });
    // egg weight 65 g against the printed 65.1 g → −0.15 %
    expect(d.eggWeight).toMatchObject({ actual: 65, standard: 65.1, deviationPct: -0.15 });
    expect(d.eggWeight.standardBasis).toBeUndefined();
    // egg mass 0.77 × 65 = 50.05 g against 76.7 % × 65.1 g = 49.93 g (derived: the guide prints no daily egg mass)
    expect(d.eggMass).toMatchObject({ actual: 50.05, standard: 49.93, standardBasis: 'derived' });
    expect(d.dailyFeedIntake).toMatchObject({ actual: null, standard: 112, standardBand: { low: 108, high: 116 } });
    expect(d.waterIntake).toMatchObject({ standard: 197.5, unit: 'ml/bird/day' });
    // 770 eggs to date ÷ 1,000 housed = 0.77 eggs/hen against 399.85
    expect(d.henHousedEggs).toMatchObject({ actual: 0.77, standard: 399.85 });
    // livability 100 % against 100 − 5.68 % mortality in lay = 94.32 %, with the basis of each
    expect(d.livability).toMatchObject({ actual: 100, standard: 94.32, standardBasis: 'derived' });
    expect(d.livability.assumptions.join(' ')).toMatch(/from housing in lay/);
  });

  it('the standards list serves Hy-Line Brown from week 1 to week 100', async () => {
    const res = await call('GET', `${A}/breeds`, { token: c.token });
    expect(res.status).toBe(200);
    const h = res.body.data.find((s: { id: string }) => s.id === 'hy-line-brown');
    const weight = h.series.find((s: { key: string }) => s.key === 'bodyWeight');
    expect(weight).toMatchObject({ unit: 'g', basis: 'band midpoint', ageRange: { from: 1, to: 100, unit: 'week' } });
    expect(weight.points.find((p: { age: number }) => p.age === 5)).toEqual({ age: 5, ageDays: 35, value: 390, low: 360, high: 420 });
    expect(h.series.map((s: { key: string }) => s.key)).toEqual(
      expect.arrayContaining(['henDayPct', 'eggWeight', 'eggMass', 'dailyFeedIntake', 'waterIntake', 'henHousedEggs', 'livability']),
    );
  });
});

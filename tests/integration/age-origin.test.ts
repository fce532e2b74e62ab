/**
 * The birds' age counts from the placement (the cycle's first bird_inflow) when the hatch date is unknown,
 * never from the cycle's start date alone: a cycle started 3 days early to book feed does not age its birds.
 *
 *   start D−3 (feed delivered that day), 1,000 Ross 308 chicks placed on D = today − 7, no hatch date
 *   today = D+7 → age 7 (not 10); Ross 308 at day 7: 213 g (day 10 would be interpolated toward 533 g)
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { userWith } from '../support/accounts.js';
import { day } from '../support/cycles.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const D = -7;
let token: string;
let flock: Json;
let cycle: Json;
let base: string;
let schedule: Json;

const get = async (path: string, query?: Record<string, string>) => {
  const res = await call('GET', path, { token, query });
  expect(res.status, res.raw).toBe(200);
  return res.body.data;
};
const move = async (body: Json) => {
  const res = await call('POST', `${base}/movements`, { token, body });
  expect(res.status, res.raw).toBe(201);
  return res.body.data;
};

beforeAll(async () => {
  token = (await userWith({ role: 'manager' })).token;
  const flockRes = await call('POST', '/api/v1/flocks', { token, body: { name: 'Early booked', birdType: 'broiler', breed: 'Ross 308' } });
  expect(flockRes.status, flockRes.raw).toBe(201);
  flock = flockRes.body.data;
  const cycleRes = await call('POST', `/api/v1/flocks/${flock.id}/cycles`, { token, body: { startDate: day(D - 3) } });
  expect(cycleRes.status, cycleRes.raw).toBe(201);
  cycle = cycleRes.body.data;
  base = `/api/v1/flocks/${flock.id}/cycles/${cycle.id}`;
  await move({ type: 'feed_delivery', date: day(D - 3), feedType: 'starter', quantityKg: 500 });
  // the age-based schedule is written BEFORE the birds arrive: its ages follow the placement recorded later
  const created = await call('POST', '/api/v1/schedules', {
    token,
    body: { title: 'Weigh', kind: 'weighing', flockId: flock.id, cycleId: cycle.id, timing: { ageDays: [7, 10] } },
  });
  expect(created.status, created.raw).toBe(201);
  schedule = created.body.data;
  await move({ type: 'bird_inflow', date: day(D), quantity: 1000, averageWeightGrams: 42 });
  const weighed = await call('POST', `${base}/weights`, { token, body: { date: day(0), grams: 190, sampleSize: 100 } });
  expect(weighed.status, weighed.raw).toBe(201);
});

describe('age from the placement', () => {
  it('the cycle summary counts age from the first placement and says so', async () => {
    const c = await get(base);
    expect(c).toMatchObject({ startDate: day(D - 3), placedOn: day(D), ageDays: 7, ageFrom: 'placement' });
  });

  it('a weighing and the daily series are at age 7 on D+7', async () => {
    const [w] = await get(`${base}/weights`);
    expect(w).toMatchObject({ date: day(0), ageDays: 7 });
    const { days } = await get(`/api/v2/analytics/daily/${flock.id}/${cycle.id}`);
    expect(days.find((d: Json) => d.date === day(0))).toMatchObject({ ageDays: 7 });
    expect(days.find((d: Json) => d.date === day(D))).toMatchObject({ ageDays: 0 });
  });

  it('the breed comparison compares with the standard at day 7', async () => {
    const { comparison } = await get(`/api/v2/analytics/breed/${flock.id}/${cycle.id}`);
    const today = comparison.days.find((d: Json) => d.date === day(0));
    expect(today.ageDays).toBe(7);
    expect(today.bodyWeight).toMatchObject({ actual: 190, standard: 213, interpolated: false });
  });

  it('an ageDays schedule falls on the placement date + age', async () => {
    const agenda = await get('/api/v1/schedules/agenda', { farmId: flock.farmId, from: day(D), to: day(5) });
    const dates = agenda.occurrences.filter((o: Json) => o.scheduleId === schedule.id).map((o: Json) => o.date);
    expect(dates).toEqual([day(0), day(3)]);
  });

  it('an earlier inflow moves the placement back; deleting it restores the first one still recorded', async () => {
    const early = await move({ type: 'bird_inflow', date: day(D - 1), quantity: 10 });
    expect(await get(base)).toMatchObject({ placedOn: day(D - 1), ageDays: 8, ageFrom: 'placement' });
    const del = await call('DELETE', `${base}/movements/${early.id}`, { token, headers: { 'If-Match': `"${early.version}"` } });
    expect(del.status, del.raw).toBe(204);
    expect(await get(base)).toMatchObject({ placedOn: day(D), ageDays: 7, ageFrom: 'placement' });
    // editing the cycle's own fields keeps the placement the ledger recorded
    const patched = await call('PATCH', base, { token, body: { notes: 'feed booked early' } });
    expect(patched.status, patched.raw).toBe(200);
    expect(patched.body.data).toMatchObject({ placedOn: day(D), ageDays: 7 });
  });

  it('a known hatch date still comes first', async () => {
    const hatched = await call('POST', '/api/v1/flocks', { token, body: { name: 'Hatched', birdType: 'broiler', hatchDate: day(D - 5) } });
    const c = await call('POST', `/api/v1/flocks/${hatched.body.data.id}/cycles`, { token, body: { startDate: day(D - 3) } });
    await call('POST', `/api/v1/flocks/${hatched.body.data.id}/cycles/${c.body.data.id}/movements`, {
      token,
      body: { type: 'bird_inflow', date: day(D), quantity: 100 },
    });
    expect(await get(`/api/v1/flocks/${hatched.body.data.id}/cycles/${c.body.data.id}`)).toMatchObject({
      placedOn: day(D),
      ageDays: 12,
      ageFrom: 'hatch_date',
    });
  });
});

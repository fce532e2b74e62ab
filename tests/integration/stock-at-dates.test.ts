/**
 * A farm stock's balance at every date, through the real middleware and DynamoDB Local: a back-dated
 * consumption the deliveries dated before it do not cover is accepted with a warning (the delivery note is
 * often entered later), the stock view lists the shortfall until the paperwork is in, the balance now never
 * goes below zero under concurrent writers, and the shortfalls the stock view reports are exact however
 * the writers interleave.
 */
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { userWith } from '../support/accounts.js';
import { otherFarm } from '../support/farms.js';

const DAY_MS = 86_400_000;
/** The calendar date `n` days from today (UTC; the farm's zone is UTC). */
const day = (n: number) => new Date(Date.now() + n * DAY_MS).toISOString().slice(0, 10);

async function broilerFarm(name: string) {
  const farm = await otherFarm(name);
  const m = await userWith({ role: 'manager', farmIds: [farm] });
  const flock = (await call('POST', '/api/v1/flocks', { token: m.token, body: { name: 'S', birdType: 'broiler', hatchDate: day(-12), farmId: farm } })).body
    .data;
  const cycle = (await call('POST', `/api/v1/flocks/${flock.id}/cycles`, { token: m.token, body: { startDate: day(-12) } })).body.data;
  const base = `/api/v1/flocks/${flock.id}/cycles/${cycle.id}`;
  const move = (body: Record<string, unknown>) => call('POST', `${base}/movements`, { token: m.token, body });
  const starter = async () => {
    const res = await call('GET', '/api/v1/inventory/stock', { token: m.token, query: { farmId: farm } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.feed.byType.find((f: { feedType: string }) => f.feedType === 'starter');
  };
  expect((await move({ type: 'bird_inflow', date: day(-12), quantity: 1000 })).status).toBe(201);
  return { farm, token: m.token, base, move, starter };
}

describe('balances at every date', () => {
  it('a delivery dated the 27th does not cover a consumption dated the 22nd: accepted with a warning, listed until the paperwork comes', async () => {
    const f = await broilerFarm('Dated stock farm');
    expect((await f.move({ type: 'feed_delivery', date: day(0), feedType: 'starter', quantityKg: 100 })).status).toBe(201);

    const late = await f.move({ type: 'feed_consumption', date: day(-5), feedType: 'starter', quantityKg: 80 });
    expect(late.status, JSON.stringify(late.body)).toBe(201);
    expect(late.body.warnings).toEqual([
      expect.objectContaining({ code: 'stock_short_at_date', stock: 'feed', feedType: 'starter', farmId: f.farm, from: day(-5), until: day(0), lowest: -80 }),
    ]);
    expect(late.body.warnings[0].message).toContain(`80 kg short from ${day(-5)} until ${day(0)}`);
    expect(await f.starter()).toEqual({ feedType: 'starter', kg: 20, shortfalls: [{ from: day(-5), until: day(0), lowest: -80 }] });

    // the delivery note of the 20th comes in: the shortfall is gone, and a delivery never warns
    const note = await f.move({ type: 'feed_delivery', date: day(-7), feedType: 'starter', quantityKg: 100 });
    expect(note.status).toBe(201);
    expect(note.body.warnings).toBeUndefined();
    expect(await f.starter()).toEqual({ feedType: 'starter', kg: 120, shortfalls: [] });

    // a consumption the stock covered at its date raises nothing
    const covered = await f.move({ type: 'feed_consumption', date: day(-4), feedType: 'starter', quantityKg: 10 });
    expect(covered.status).toBe(201);
    expect(covered.body.warnings).toBeUndefined();

    // moving it before every delivery is a correction that leaves the earlier days short: warned, listed
    const moved = await call('PATCH', `${f.base}/movements/${covered.body.data.id}`, { token: f.token, body: { date: day(-9), version: 1 } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.warnings).toEqual([expect.objectContaining({ code: 'stock_short_at_date', from: day(-9), until: day(-7), lowest: -10 })]);
    expect((await f.starter()).shortfalls).toEqual([{ from: day(-9), until: day(-7), lowest: -10 }]);
  });

  it('a day’s form whose feed the stock did not hold at its date is saved with the warning', async () => {
    const f = await broilerFarm('Dated form farm');
    expect((await f.move({ type: 'feed_delivery', date: day(-1), feedType: 'starter', quantityKg: 500 })).status).toBe(201);
    const form = await call('POST', `${f.base}/daily-records`, {
      token: f.token,
      body: { date: day(-3), deaths: 0, feedKg: 120, waterLiters: 200, temperatureMinC: 30, temperatureMaxC: 32, humidityPct: 55 },
    });
    expect(form.status, JSON.stringify(form.body)).toBe(201);
    expect(form.body.warnings).toEqual([
      expect.objectContaining({ code: 'stock_short_at_date', feedType: 'starter', from: day(-3), until: day(-1), lowest: -120 }),
    ]);
    expect(await f.starter()).toEqual({ feedType: 'starter', kg: 380, shortfalls: [{ from: day(-3), until: day(-1), lowest: -120 }] });
  });

  it('moving a delivery booked on the farm after the consumption it covered is accepted with the warning', async () => {
    const f = await broilerFarm('Dated farm delivery');
    const booked = await call('POST', '/api/v1/inventory/movements', {
      token: f.token,
      body: { farmId: f.farm, type: 'feed_delivery', date: day(-7), feedType: 'starter', quantityKg: 100 },
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect((await f.move({ type: 'feed_consumption', date: day(-5), feedType: 'starter', quantityKg: 60 })).status).toBe(201);
    const moved = await call('PATCH', `/api/v1/inventory/movements/${booked.body.data.id}`, { token: f.token, body: { date: day(-3), version: 1 } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.warnings).toEqual([
      expect.objectContaining({ code: 'stock_short_at_date', feedType: 'starter', from: day(-5), until: day(-3), lowest: -60 }),
    ]);
    expect(await f.starter()).toEqual({ feedType: 'starter', kg: 40, shortfalls: [{ from: day(-5), until: day(-3), lowest: -60 }] });
  });

  it('concurrent back-dated consumptions: the balance now never goes below zero, and the shortfalls listed are exact', async () => {
    const f = await broilerFarm('Dated race farm');
    expect((await f.move({ type: 'feed_delivery', date: day(-8), feedType: 'starter', quantityKg: 20 })).status).toBe(201);
    expect((await f.move({ type: 'feed_delivery', date: day(0), feedType: 'starter', quantityKg: 100 })).status).toBe(201);
    // 10 writers take 15 kg each on dates between the two deliveries: 120 kg covers 8 of them
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => f.move({ type: 'feed_consumption', date: day(-6 + (i % 3)), feedType: 'starter', quantityKg: 15 })),
    );
    const accepted = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 409);
    expect(accepted).toHaveLength(8);
    expect(refused).toHaveLength(2);
    for (const r of refused) expect(JSON.stringify(r.body)).toMatch(/starter/);
    const stock = await f.starter();
    expect(stock.kg).toBe(0);
    // what the accepted ones imply, date by date: 20 kg from day −8, less 15 kg per accepted consumption, +100 on day 0
    const byDate = new Map<string, number>();
    for (const r of accepted) byDate.set(r.body.data.date, (byDate.get(r.body.data.date) ?? 0) + 15);
    let balance = 20;
    let lowest = 0;
    let from: string | null = null;
    for (const d of [...byDate.keys()].sort()) {
      balance -= byDate.get(d)!;
      if (balance < 0 && from === null) from = d;
      lowest = Math.min(lowest, balance);
    }
    expect(stock.shortfalls).toEqual([{ from, until: day(0), lowest }]);
  });
});

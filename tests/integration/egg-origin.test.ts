/**
 * Eggs that are safe to sell, through the real middleware and DynamoDB Local: every egg carries its origin
 * (the laying cycle and the laying day). A sale draws from its own cycle's lots, so eggs of a treated flock
 * cannot be sold through another cycle and a cycle that laid nothing sells nothing; a withdrawal period is
 * judged on the days the eggs were laid, with meat and eggs each on their own period; the compliance report
 * judges laying days too; corrections and concurrent sales keep every lot at zero or above.
 */
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { userWith } from '../support/accounts.js';
import { otherFarm } from '../support/farms.js';
import { day, flockWithCycle } from '../support/cycles.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function layerFarm() {
  const farmId = await otherFarm('Egg origin farm');
  const manager = await userWith({ role: 'manager', farmIds: [farmId] });
  const cycle = async (birdType: string) => {
    const c = await flockWithCycle({ token: manager.token, farmId, birdType, startDate: day(-40) });
    const post = (body: Json) => call('POST', `${c.base}/movements`, { token: manager.token, body });
    const summary = async () => (await call('GET', c.base, { token: manager.token })).body.data as Json;
    return { ...c, post, summary };
  };
  const layers = await cycle('layer');
  await layers.move({ type: 'bird_inflow', date: day(-40), quantity: 30_000 });
  const eggStock = async () => (await call('GET', '/api/v1/inventory/stock', { token: manager.token, query: { farmId } })).body.data.eggs.count as number;
  const report = async (c: { flock: Json; cycle: Json }) =>
    (await call('GET', `/api/v1/compliance/cycles/${c.flock.id}/${c.cycle.id}/report`, { token: manager.token })).body.data as Json;
  return { farmId, manager, layers, cycle, eggStock, report };
}

const medication = (date: string, extra: Json = {}) => ({ type: 'medication', date, product: 'Tylosin', dose: '0.5 g/l', withdrawalDays: 7, ...extra });
const withdrawalSales = (r: Json) => (r.rules as Json[]).find((x) => x.rule === 'withdrawal_sales')!;

describe('egg origin', () => {
  it('eggs of a treated flock cannot be sold through another cycle of the farm: that cycle laid none', async () => {
    const f = await layerFarm();
    for (let d = -6; d <= -2; d++) await f.layers.move({ type: 'egg_collection', date: day(d), totalEggs: 4000 });
    await f.layers.move(medication(day(-3)));
    const broilers = await f.cycle('broiler');
    await broilers.move({ type: 'bird_inflow', date: day(-40), quantity: 1000 });
    const stockBefore = await f.eggStock();
    const bypass = await broilers.post({ type: 'egg_sale', date: day(0), quantity: 20_000, unitPrice: 0.1 });
    expect(bypass.status).toBe(409);
    expect(bypass.body.error).toBe(
      `Cycle ${broilers.cycle.id} has no eggs on hand laid on or before ${day(0)}: eggs come from the lots its hens laid (collected, not yet sold, lost or sent away), and it holds none`,
    );
    // nothing written: no sale, no revenue on the broiler cycle, the farm's eggs untouched
    expect((await broilers.summary()).eggs).toMatchObject({ collected: 0, sold: 0 });
    expect(await f.eggStock()).toBe(stockBefore);
    // the treated cycle itself: refused too (its eggs were laid inside the window)
    const own = await f.layers.post({ type: 'egg_sale', date: day(0), quantity: 20_000 });
    expect(own.status).toBe(409);
    expect(own.body.error).toContain('were laid inside a withdrawal period');
    expect(withdrawalSales(await f.report(broilers)).status).toBe('pass');
  });

  it('a cycle sells only the eggs it holds, from the oldest laying day first, and records the lots it drew', async () => {
    const f = await layerFarm();
    await f.layers.move({ type: 'egg_collection', date: day(-3), totalEggs: 900 });
    await f.layers.move({ type: 'egg_collection', date: day(-2), totalEggs: 1000 });
    const tooMany = await f.layers.post({ type: 'egg_sale', date: day(-1), quantity: 1901 });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error).toBe(`Cycle ${f.layers.cycle.id} holds 1900 ungraded eggs laid on or before ${day(-1)}; cannot sell 1901`);
    // a sale dated before eggs were laid cannot sell them
    expect((await f.layers.post({ type: 'egg_sale', date: day(-3), quantity: 901 })).status).toBe(409);
    const sale = await f.layers.post({ type: 'egg_sale', date: day(-1), quantity: 1200 });
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    expect(sale.body.data.fromLots).toEqual([
      { laidOn: day(-3), quantity: 900 },
      { laidOn: day(-2), quantity: 300 },
    ]);
    // named lots must hold what they give
    const named = await f.layers.post({ type: 'egg_sale', date: day(0), quantity: 800, fromLots: [{ laidOn: day(-2), quantity: 800 }] });
    expect(named.status).toBe(409);
    expect(named.body.error).toBe(`Cycle ${f.layers.cycle.id} holds 700 ungraded eggs laid on ${day(-2)}; cannot sell 800 of them`);
    const wrongSum = await f.layers.post({ type: 'egg_sale', date: day(0), quantity: 800, fromLots: [{ laidOn: day(-2), quantity: 700 }] });
    expect(wrongSum.status).toBe(400);
    expect(wrongSum.body.details).toEqual([{ field: 'body.fromLots', message: 'add up to 700 eggs; quantity is 800' }]);
    // a correction of a collection cannot take back eggs already sold
    const list = (await call('GET', `${f.layers.base}/movements`, { token: f.manager.token, query: { type: 'egg_collection' } })).body.data as Json[];
    const first = list.find((m) => m.date === day(-3))!;
    const shrink = await call('PATCH', `${f.layers.base}/movements/${first.id}`, { token: f.manager.token, body: { totalEggs: 500, version: first.version } });
    expect(shrink.status).toBe(409);
    expect(shrink.body.error).toContain(`laid on ${day(-3)}`);
    expect((await f.layers.summary()).eggs).toMatchObject({ collected: 1900, sold: 1200 });
  });

  it('withdrawal is judged on the laying day: eggs laid inside a window stay refused after it ends; eggs laid after it sell', async () => {
    const f = await layerFarm();
    // treated on day(-10), 7 days: eggs laid up to day(-3) are restricted
    await f.layers.move(medication(day(-10)));
    for (let d = -10; d <= -2; d++) await f.layers.move({ type: 'egg_collection', date: day(d), totalEggs: 1000 });
    const afterWindow = await f.layers.post({ type: 'egg_sale', date: day(-1), quantity: 8000 });
    expect(afterWindow.status).toBe(409);
    expect(afterWindow.body.error).toContain(`laid on ${day(-10)} to ${day(-3)} were laid inside a withdrawal period: Tylosin (egg withdrawal ends ${day(-3)}`);
    expect(afterWindow.body.error).toContain(`Sell eggs laid from ${day(-2)}`);
    // the eggs laid after the window, named: sold
    const clean = await f.layers.post({ type: 'egg_sale', date: day(-1), quantity: 1000, fromLots: [{ laidOn: day(-2), quantity: 1000 }] });
    expect(clean.status, JSON.stringify(clean.body)).toBe(201);
    // the restricted eggs are destroyed (a loss is not a sale), then nothing is left to sell
    const loss = await f.layers.post({ type: 'egg_loss', date: day(-1), quantity: 8000, reason: 'Withdrawal: destroyed' });
    expect(loss.status).toBe(201);
    expect((await f.layers.post({ type: 'egg_sale', date: day(0), quantity: 1 })).status).toBe(409);
    expect(withdrawalSales(await f.report(f.layers)).status).toBe('pass');
  });

  it('an override sells restricted eggs, audited, and the report names their laying days', async () => {
    const f = await layerFarm();
    await f.layers.move(medication(day(-10)));
    await f.layers.move({ type: 'egg_collection', date: day(-5), totalEggs: 500 });
    const sale = await f.layers.post({ type: 'egg_sale', date: day(-1), quantity: 500, override: { reason: 'Residue test negative, lab report 17' } });
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    const rule = withdrawalSales(await f.report(f.layers));
    expect(rule.status).toBe('warn');
    expect(rule.findings[0].message).toContain(`(eggs laid on ${day(-5)})`);
    expect(rule.findings[0].evidence).toMatchObject({ laidOn: [day(-5)] });
  });

  it('meat and eggs each have their own period', async () => {
    const f = await layerFarm();
    // no egg withdrawal, 7 days for meat
    await f.layers.move(medication(day(-4), { eggWithdrawalDays: 0 }));
    await f.layers.move({ type: 'egg_collection', date: day(-3), totalEggs: 600 });
    expect((await f.layers.post({ type: 'egg_sale', date: day(-1), quantity: 600 })).status).toBe(201);
    const birds = await f.layers.post({ type: 'bird_sale', date: day(-1), quantity: 100 });
    expect(birds.status).toBe(409);
    expect(birds.body.error).toContain(`Tylosin (withdrawal ends ${day(3)}`);
    // a longer egg period than the meat one
    const g = await layerFarm();
    await g.layers.move(medication(day(-8), { withdrawalDays: 1, eggWithdrawalDays: 10 }));
    await g.layers.move({ type: 'egg_collection', date: day(-5), totalEggs: 100 });
    expect((await g.layers.post({ type: 'bird_sale', date: day(-5), quantity: 10 })).status).toBe(201);
    const eggs = await g.layers.post({ type: 'egg_sale', date: day(0), quantity: 100 });
    expect(eggs.status).toBe(409);
    expect(eggs.body.error).toContain(`egg withdrawal ends ${day(2)}`);
    const list = await call('GET', '/api/v1/compliance/withdrawals', { token: g.manager.token, query: { farmId: g.farmId } });
    expect(list.body.data[0]).toMatchObject({ withdrawalDays: 1, eggWithdrawalDays: 10, meatEndsOn: day(-7), eggEndsOn: day(2), endsOn: day(2) });
  });

  it('concurrent sales of the same eggs: what is on hand is sold once, no lot goes below zero', async () => {
    const f = await layerFarm();
    await f.layers.move({ type: 'egg_collection', date: day(-1), totalEggs: 1000 });
    const results = await Promise.all(Array.from({ length: 8 }, () => f.layers.post({ type: 'egg_sale', date: day(0), quantity: 200 })));
    const codes = results.map((r) => r.status).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(5);
    expect(codes.filter((c) => c !== 201).every((c) => c === 409)).toBe(true);
    expect((await f.layers.summary()).eggs).toMatchObject({ collected: 1000, sold: 1000 });
    expect(await f.eggStock()).toBe(0);
  });

  it('an edit of a sale draws again from the lots, its own eggs given back first', async () => {
    const f = await layerFarm();
    await f.layers.move({ type: 'egg_collection', date: day(-2), totalEggs: 300 });
    await f.layers.move({ type: 'egg_collection', date: day(-1), totalEggs: 300 });
    const sale = (await f.layers.post({ type: 'egg_sale', date: day(0), quantity: 250 })).body.data as Json;
    const bigger = await call('PATCH', `${f.layers.base}/movements/${sale.id}`, { token: f.manager.token, body: { quantity: 550, version: sale.version } });
    expect(bigger.status, JSON.stringify(bigger.body)).toBe(200);
    expect(bigger.body.data.fromLots).toEqual([
      { laidOn: day(-2), quantity: 300 },
      { laidOn: day(-1), quantity: 250 },
    ]);
    const tooBig = await call('PATCH', `${f.layers.base}/movements/${sale.id}`, {
      token: f.manager.token,
      body: { quantity: 601, version: bigger.body.data.version },
    });
    expect(tooBig.status).toBe(409);
    // deleting the sale gives its eggs back to their lots
    expect((await call('DELETE', `${f.layers.base}/movements/${sale.id}`, { token: f.manager.token })).status).toBe(204);
    const again = await f.layers.post({ type: 'egg_sale', date: day(0), quantity: 600 });
    expect(again.status).toBe(201);
  });
});

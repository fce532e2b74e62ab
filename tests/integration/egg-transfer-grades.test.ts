/**
 * Graded eggs sent to another farm, through the real middleware and DynamoDB Local: a transfer of eggs
 * naming a `grade` takes eggs of that grade from the sender's lots (oldest laying day first, as a sale
 * does) and the receiving cycle's lots get them as that grade, keeping their laying days; both farms'
 * stocks follow the grade.
 */
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { day } from '../support/cycles.js';
import { farmSide, type Side } from '../support/farm-sides.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const BASE = '/api/v1/sharing/transfers';

const act = (token: string, id: string, action: string) => call('POST', `${BASE}/${id}/${action}`, { token, body: {} });
const send = (from: Side, to: Side, body: Json) =>
  call('POST', BASE, { token: from.token, body: { kind: 'eggs', from: { farmId: from.farmId, flockId: from.flockId }, to: { farmId: to.farmId }, ...body } });

async function completed(from: Side, to: Side, body: Json) {
  const t = await send(from, to, body);
  expect(t.status, JSON.stringify(t.body)).toBe(201);
  const approve = await call('POST', `${BASE}/${t.body.data.id}/approve`, { token: to.token, body: { flockId: to.flockId } });
  expect(approve.status, JSON.stringify(approve.body)).toBe(200);
  return act(from.token, t.body.data.id, 'complete');
}

describe('graded eggs between farms', () => {
  it('a transfer with a grade sends eggs of that grade, oldest laying day first; the receiver holds them as that grade on their laying days', async () => {
    const [a, b] = await Promise.all([farmSide('Graded sender'), farmSide('Graded receiver')]);
    await a.move({ type: 'egg_collection', date: day(-3), totalEggs: 1000, grades: { L: 600, M: 300 } });
    await a.move({ type: 'egg_collection', date: day(-2), totalEggs: 1000, grades: { L: 900 } });
    const t = await send(a, b, { quantity: 1000, grade: 'L' });
    expect(t.status, JSON.stringify(t.body)).toBe(201);
    expect(t.body.data).toMatchObject({ kind: 'eggs', quantity: 1000, grade: 'L' });
    expect((await call('POST', `${BASE}/${t.body.data.id}/approve`, { token: b.token, body: { flockId: b.flockId } })).status).toBe(200);
    const done = await act(a.token, t.body.data.id, 'complete');
    expect(done.status, JSON.stringify(done.body)).toBe(200);

    // both movements name the grade and the laying days
    const movement = async (s: Side, type: string) =>
      ((await call('GET', `/api/v1/flocks/${s.flockId}/cycles/${s.cycleId}/movements`, { token: s.token, query: { type } })).body.data as Json[])[0]!;
    const lots = [
      { laidOn: day(-3), quantity: 600 },
      { laidOn: day(-2), quantity: 400 },
    ];
    expect(await movement(a, 'egg_transfer_out')).toMatchObject({ quantity: 1000, grade: 'L', fromLots: lots });
    expect(await movement(b, 'egg_transfer_in')).toMatchObject({ quantity: 1000, grade: 'L', fromLots: lots });
    // the stocks follow the grade: the sender keeps its M and ungraded eggs, the receiver holds L only
    expect((await a.stock()).eggs).toEqual({ count: 1000, byGrade: { L: 500, M: 300 }, ungraded: 200, shortfalls: [] });
    expect((await b.stock()).eggs).toEqual({ count: 1000, byGrade: { L: 1000 }, ungraded: 0, shortfalls: [] });
    // the receiver sells them as L, from their laying days; it holds no ungraded eggs
    const ungraded = await b.post({ type: 'egg_sale', date: day(0), quantity: 1 });
    expect(ungraded.status).toBe(409);
    expect(ungraded.body.error).toContain('holds 0 ungraded eggs');
    const sale = await b.post({ type: 'egg_sale', date: day(0), quantity: 700, grade: 'L' });
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    expect(sale.body.data.fromLots).toEqual([
      { laidOn: day(-3), quantity: 600 },
      { laidOn: day(-2), quantity: 100 },
    ]);
  });

  it('a graded transfer asking for more of its grade than the sender holds is refused naming what it holds; nothing moves', async () => {
    const [a, b] = await Promise.all([farmSide('Short grade sender'), farmSide('Short grade receiver')]);
    await a.move({ type: 'egg_collection', date: day(-2), totalEggs: 1000, grades: { XL: 100 } });
    const refused = await completed(a, b, { quantity: 150, grade: 'XL' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain(`holds 100 eggs of grade XL laid on or before ${day(0)}; cannot send 150`);
    expect((await a.stock()).eggs).toEqual({ count: 1000, byGrade: { XL: 100 }, ungraded: 900, shortfalls: [] });
    expect((await b.stock()).eggs.count).toBe(0);
  });

  it('a grade is only for an eggs transfer', async () => {
    const [a, b] = await Promise.all([farmSide('Grade feed sender'), farmSide('Grade feed receiver')]);
    const feed = await send(a, b, { kind: 'feed', feedType: 'layer-mash', quantity: 10, grade: 'L' });
    expect(feed.status).toBe(400);
    expect(feed.body.details).toEqual([{ field: 'body.grade', message: 'is only for an eggs transfer' }]);
  });
});

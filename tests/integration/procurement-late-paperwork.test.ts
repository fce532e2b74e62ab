/**
 * Paperwork entered after the fact: an order whose expected day is past is drafted and placed, a receipt
 * dated before the order was placed (and before its supplier was entered) is taken, and each is audited
 * as back-dated; a receipt dated after the farm's today is refused (goods cannot have arrived yet).
 */
import { describe, expect, it } from 'vitest';
import { adminLogin } from '../support/accounts.js';
import { day, flockWithCycle } from '../support/cycles.js';
import { call, farmWithManager } from '../support/procurement.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('procurement paperwork entered after the fact', () => {
  it('accepts a past expected date and a receipt before the placement, audits both as back-dated, refuses a receipt after today', async () => {
    const f = await farmWithManager();
    const fx = await flockWithCycle({ token: f.manager.token, farmId: f.farmId });
    const s = await f.supplier();
    const today = day(0);

    const drafted = await f.post('/orders', {
      farmId: f.farmId,
      supplierId: s.id,
      expectedDate: day(-3),
      lines: [{ itemKind: 'feed', feedType: 'starter', quantity: 1000, unit: 'kg', unitPrice: 0.5 }],
    });
    expect(drafted.status, JSON.stringify(drafted.body)).toBe(201);
    const o = drafted.body.data as Json;
    const placed = await f.post(`/orders/${o.id}/place`, {});
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const lineId = o.lines[0].id;

    const future = await f.post(`/orders/${o.id}/receipts`, { date: day(1), lines: [{ lineId, quantity: 1, flockId: fx.flock.id }] });
    expect(future.status).toBe(400);
    expect(future.body.details).toEqual([{ field: 'body.date', message: `must not be after the farm's today (${today}): the goods cannot have arrived yet` }]);

    // delivered a day before it was due, four days before anyone entered the order
    const early = await f.post(`/orders/${o.id}/receipts`, { date: day(-4), lines: [{ lineId, quantity: 400, flockId: fx.flock.id }] });
    expect(early.status, JSON.stringify(early.body)).toBe(201);
    const rest = await f.post(`/orders/${o.id}/receipts`, { date: today, lines: [{ lineId, quantity: 600, flockId: fx.flock.id }] });
    expect(rest.status, JSON.stringify(rest.body)).toBe(201);
    expect(rest.body.data.order.status).toBe('received');

    // the day the order was entered is not the day it was ordered: the deliveries carry no order date (no lead time)
    const movements = await call('GET', `${fx.base}/movements`, { token: f.manager.token, query: { type: 'feed_delivery' } });
    const byDate = Object.fromEntries((movements.body.data as Json[]).map((m) => [m.date, m]));
    expect(Object.keys(byDate).sort()).toEqual([day(-4), today]);
    for (const m of Object.values(byDate) as Json[]) {
      expect(m).toMatchObject({ expectedDate: day(-3), orderId: o.id });
      expect(m.orderedDate ?? null).toBeNull();
    }

    const audit = (await call('GET', '/api/v1/admin/audit', { token: await adminLogin(), query: { targetId: o.id } })).body.data as Json[];
    const of = (action: string) => audit.filter((e) => e.action === action).map((e) => e.changes.backdated ?? null);
    expect(of('purchase_order.create')).toEqual([{ date: day(-3), enteredOn: today }]);
    expect(of('purchase_order.place')).toEqual([{ date: day(-3), enteredOn: today }]);
    expect(of('purchase_order.receive').sort((a, b) => (a === null ? 1 : b === null ? -1 : 0))).toEqual([{ date: day(-4), enteredOn: today }, null]);
  });
});

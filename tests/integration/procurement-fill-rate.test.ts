/**
 * A supplier's fill rate counts the feed lines that are closed — fully received, of a cancelled order, or
 * past due (the order's expected date before the farm's today) — and leaves the open ones out, saying so;
 * the rest of the reliability stays the analytics supplier entry of the same facts.
 */
import { describe, expect, it } from 'vitest';
import { day, flockWithCycle } from '../support/cycles.js';
import { call, farmWithManager, P } from '../support/procurement.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('supplier fill rate', () => {
  it('leaves out an order still being delivered, and counts it once it is past due or cancelled', async () => {
    const f = await farmWithManager();
    const fx = await flockWithCycle({ token: f.manager.token, farmId: f.farmId });
    const s = await f.supplier();
    const reliability = async () => (await call('GET', `${P}/suppliers/${s.id}/reliability`, { token: f.manager.token })).body.data as Json;
    const receive = async (o: Json, quantity: number) => {
      const res = await f.post(`/orders/${o.id}/receipts`, { date: day(0), lines: [{ lineId: o.lines[0].id, quantity, flockId: fx.flock.id }] });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    };

    // half received so far, due in 5 days: still being delivered, not short
    const open = await f.placed(s.id);
    await receive(open, 500);
    const first = await reliability();
    expect(first.fillRatePct).toEqual({ value: null, unit: '%', reason: 'no closed feed line yet: 1 still being delivered (left out)' });
    expect(first.fill).toEqual({ orderedKg: 0, receivedKg: 0, lines: 0, openLines: 1 });

    // due two days ago and 300 of 1000 kg received: past due, it counts as short
    const late = await f.placed(s.id, { expectedDate: day(-2) });
    await receive(late, 300);
    const second = await reliability();
    expect(second.fillRatePct).toEqual({ value: 30, unit: '%', assumptions: ['1 feed line still being delivered left out'] });
    expect(second.fill).toEqual({ orderedKg: 1000, receivedKg: 300, lines: 1, openLines: 1 });

    // the open order cancelled: what it delivered is all it will
    expect((await f.post(`/orders/${open.id}/cancel`, {})).status).toBe(200);
    const third = await reliability();
    expect(third.fillRatePct).toEqual({ value: 40, unit: '%' });
    expect(third.fill).toEqual({ orderedKg: 2000, receivedKg: 800, lines: 2, openLines: 0 });

    // the score and its components stay the analytics supplier entry of the same deliveries
    const analytics = await call('GET', `/api/v2/analytics/cycle/${fx.flock.id}/${fx.cycle.id}/suppliers`, { token: f.manager.token });
    expect(third.reliability).toEqual(analytics.body.data.suppliers.find((x: Json) => x.supplierId === s.id));
  });
});

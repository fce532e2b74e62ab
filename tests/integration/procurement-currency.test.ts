import { beforeAll, describe, expect, it } from 'vitest';
import { adminLogin } from '../support/accounts.js';
import { day, flockWithCycle, type CycleFixture } from '../support/cycles.js';
import { call, farmWithManager, P } from '../support/procurement.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * A UK farm priced in GBP buys starter twice from one supplier: 500 kg at 0.36 GBP (an order without a
 * currency: the farm's) and 1,000 kg at 0.40 EUR (an order in euros, recorded as given). Then 100 kg is fed.
 *   financials: the EUR kg enter the ledger unpriced, so starter costs the GBP delivery's 0.36 → 100 × 0.36 = 36 GBP
 *               (adding the euros in would have made it (180 + 400) ÷ 1,500 = 0.3867 → 38.67)
 *   reliability: average 0.36 GBP/kg over 500 kg; the EUR price listed apart, 0.40 EUR/kg over 1,000 kg
 */
let f: Awaited<ReturnType<typeof farmWithManager>>;
let fx: CycleFixture;
let supplier: Json;
let gbpOrder: Json;
let eurOrder: Json;

const receive = async (o: Json, quantity: number) => {
  const res = await f.post(`/orders/${o.id}/receipts`, { date: day(0), lines: [{ lineId: o.lines[0].id, quantity, flockId: fx.flock.id }] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
};

beforeAll(async () => {
  f = await farmWithManager('UK farm');
  const admin = await adminLogin();
  const set = await call('PUT', `/api/v1/config/farms/${f.farmId}/pricing`, { token: admin, body: { currency: 'GBP' } });
  expect(set.status, JSON.stringify(set.body)).toBe(200);
  fx = await flockWithCycle({ token: f.manager.token, farmId: f.farmId, startDate: day(-5) });
  supplier = await f.supplier();
  gbpOrder = await f.placed(supplier.id, { lines: [{ itemKind: 'feed', feedType: 'starter', quantity: 500, unit: 'kg', unitPrice: 0.36 }] });
  eurOrder = await f.placed(supplier.id, { currency: 'EUR', lines: [{ itemKind: 'feed', feedType: 'starter', quantity: 1000, unit: 'kg', unitPrice: 0.4 }] });
  await receive(gbpOrder, 500);
  await receive(eurOrder, 1000);
  await fx.move({ type: 'feed_consumption', date: day(0), feedType: 'starter', quantityKg: 100 });
});

describe('purchase orders in a currency', () => {
  it('an order without a currency is in the farm’s, one in another currency is recorded as given; a code that is not ISO 4217 is refused', async () => {
    expect(gbpOrder).toMatchObject({ currency: 'GBP', total: 180 });
    expect(eurOrder).toMatchObject({ currency: 'EUR', total: 400 });
    const bad = await f.post('/orders', {
      farmId: f.farmId,
      supplierId: supplier.id,
      currency: 'ABC',
      expectedDate: day(5),
      lines: [{ itemKind: 'feed', feedType: 'starter', quantity: 1, unit: 'kg', unitPrice: 1 }],
    });
    expect(bad.status, JSON.stringify(bad.body)).toBe(400);
    expect(bad.body.details).toEqual([expect.objectContaining({ field: 'body.currency' })]);
  });

  it('the goods of an order in another currency enter the ledger unpriced: the financials never add euros to pounds', async () => {
    const movements = await call('GET', `${fx.base}/movements`, { token: f.manager.token, query: { type: 'feed_delivery' } });
    const byQty = new Map(movements.body.data.map((m: Json) => [m.quantityKg, m]));
    expect((byQty.get(500) as Json).unitPrice).toBe(0.36);
    expect((byQty.get(1000) as Json).unitPrice ?? null).toBeNull();
    const res = await call('GET', `/api/v2/analytics/financials/${fx.flock.id}/${fx.cycle.id}`, { token: f.manager.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.financials.currency).toBe('GBP');
    expect(res.body.data.financials.costs.feed.amount).toBe(36);
  });

  it('supplier reliability averages prices in the farm’s currency and lists the others apart', async () => {
    const res = await call('GET', `${P}/suppliers/${supplier.id}/reliability`, { token: f.manager.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.currency).toBe('GBP');
    expect(res.body.data.reliability.price).toEqual({ averagePerKg: { value: 0.36, unit: 'GBP/kg' }, pricedKg: 500 });
    expect(res.body.data.reliability.otherCurrencyPrices).toEqual([
      { currency: 'EUR', deliveries: 1, pricedKg: 1000, averagePerKg: { value: 0.4, unit: 'EUR/kg' } },
    ]);
    const cycle = await call('GET', `/api/v2/analytics/cycle/${fx.flock.id}/${fx.cycle.id}/suppliers`, { token: f.manager.token });
    expect(cycle.body.data.cycle.currency).toBe('GBP');
    expect(cycle.body.data.suppliers[0]).toMatchObject({ price: { averagePerKg: { value: 0.36, unit: 'GBP/kg' } }, otherCurrencyPrices: [] });
  });

  it('a suggested order names its currency: the last order’s of the feed', async () => {
    for (const d of [-3, -2, -1]) await fx.move({ type: 'feed_consumption', date: day(d), feedType: 'starter', quantityKg: 300 });
    const res = await call('GET', `${P}/suggestions`, { token: f.manager.token, query: { farmId: f.farmId } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [s] = res.body.data.suggestions;
    expect(s.order).toMatchObject({ currency: 'EUR', lines: [expect.objectContaining({ unitPrice: 0.4 })] });
  });
});

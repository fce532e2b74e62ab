/** Feed is a farm stock: deliveries booked on the farm without a cycle (POST /api/v1/inventory/movements), their corrections, and what reads them. */
import { describe, expect, it } from 'vitest';
import { call as rawCall } from '../support/api.js';
import { checkedCall } from '../support/contract.js';
import { userWith } from '../support/accounts.js';
import { house, otherFarm } from '../support/farms.js';
import { day, flockWithCycle } from '../support/cycles.js';
import { farmWithManager, P } from '../support/procurement.js';
import { batchGet } from '../../shared/db/client.js';
import { farmDeliveryKey, farmMovementKey } from '../../shared/db/keys.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const call = checkedCall(rawCall);
const M = '/api/v1/inventory/movements';

async function farmBetweenCycles(name = 'Farm between cycles') {
  const farmId = await otherFarm(name);
  const { token } = await userWith({ role: 'manager', farmIds: [farmId] });
  const book = (body: Json, headers: Record<string, string> = {}) => call('POST', M, { token, body: { farmId, ...body }, headers });
  const stock = async () => {
    const res = await call('GET', '/api/v1/inventory/stock', { token, query: { farmId } });
    expect(res.status).toBe(200);
    return Object.fromEntries((res.body.data.feed.byType as Json[]).map((f) => [f.feedType, f.kg]));
  };
  const flock = async (startDate: string) => {
    const f = await call('POST', '/api/v1/flocks', { token, body: { name: `Flock ${startDate}`, birdType: 'broiler', farmId, hatchDate: startDate } });
    expect(f.status, JSON.stringify(f.body)).toBe(201);
    const c = await call('POST', `/api/v1/flocks/${f.body.data.id}/cycles`, { token, body: { startDate } });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    return { flock: f.body.data as Json, cycle: c.body.data as Json, base: `/api/v1/flocks/${f.body.data.id}/cycles/${c.body.data.id}` };
  };
  return { farmId, token, book, stock, flock };
}

describe('deliveries booked on the farm', () => {
  it('a farm between cycles receives feed; a later cycle consumes it; its KPIs count consumption only', async () => {
    const s = await farmBetweenCycles();
    const bin = await house(s.farmId, 'House A');
    const booked = await s.book({ type: 'feed_delivery', date: day(-10), feedType: 'starter', quantityKg: 2000, unitPrice: 0.6, houseId: bin });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(booked.body.data).toMatchObject({ farmId: s.farmId, flockId: null, cycleId: null, houseId: bin, type: 'feed_delivery', quantityKg: 2000 });
    expect(await s.stock()).toEqual({ starter: 2000 });

    // the chicks arrive a week after the feed
    const c = await s.flock(day(-3));
    const eat = await call('POST', `${c.base}/movements`, { token: s.token, body: { type: 'feed_consumption', date: day(-2), quantityKg: 300 } });
    expect(eat.status, JSON.stringify(eat.body)).toBe(201);
    expect(eat.body.data.feedType).toBe('starter');
    expect(await s.stock()).toEqual({ starter: 1700 });
    const kpis = (await call('GET', `/api/v2/analytics/cycle/${c.flock.id}/${c.cycle.id}`, { token: s.token })).body.data.kpis;
    expect(kpis.feedConsumedKg.value).toBe(300);
    expect(kpis.feedDeliveredKg.value).toBe(0);

    // the cycle's feed cost is priced from the farm's deliveries of that feed type
    const fin = await call('GET', `/api/v2/analytics/financials/${c.flock.id}/${c.cycle.id}`, { token: s.token });
    expect(fin.status, JSON.stringify(fin.body)).toBe(200);
    const feed = fin.body.data.financials.costs.feed;
    expect(feed.byType).toEqual([
      expect.objectContaining({ feedType: 'starter', consumedKg: 300, unitPrice: 0.6, priceSource: 'farmDeliveries', amount: 180 }),
    ]);

    // the farm's list and its CSV export carry the delivery (no flock, no cycle)
    const listed = await call('GET', M, { token: s.token, query: { farmId: s.farmId, type: 'feed_delivery' } });
    expect(listed.body.data).toEqual([expect.objectContaining({ id: booked.body.data.id, flockId: null, cycleId: null })]);
    const csv = await rawCall('GET', `${M}/export`, { token: s.token });
    expect(csv.status).toBe(200);
    expect(csv.raw).toContain(booked.body.data.id);
  });

  it('a delivery dated before the cycle’s start: the cycle route says where it belongs, the farm route takes it', async () => {
    const s = await farmBetweenCycles('Farm before placement');
    const c = await s.flock(day(-2));
    const early = { type: 'feed_delivery', date: day(-5), feedType: 'starter', quantityKg: 500 };
    const refused = await call('POST', `${c.base}/movements`, { token: s.token, body: early });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([{ field: 'body.date', message: expect.stringContaining('POST /api/v1/inventory/movements') }]);
    const booked = await s.book(early);
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(await s.stock()).toEqual({ starter: 500 });
    // any past day, never a future one
    const future = await s.book({ ...early, date: day(3) });
    expect(future.status).toBe(400);
    expect(future.body.details).toEqual([{ field: 'body.date', message: 'must not be in the future' }]);
    // the forms say where deliveries are booked
    const forms = (await call('GET', '/api/v1/inventory/input-schema', { token: s.token })).body.data;
    expect(forms.feed_delivery.farmBooking).toMatchObject({ method: 'POST', path: M, extraFields: ['farmId', 'houseId'] });
    expect(forms.medicine_delivery.farmBooking).toMatchObject({ path: M });
    expect(forms.feed_consumption.farmBooking).toBeUndefined();
  });

  it('a house of another farm is the 404 of a missing house, and nothing is written; another farm is the 404 of a missing farm', async () => {
    const s = await farmBetweenCycles('Farm with a foreign bin');
    const elsewhere = await otherFarm('Someone else');
    const foreign = await house(elsewhere, 'Their house');
    const res = await s.book({ type: 'feed_delivery', date: day(-1), feedType: 'starter', quantityKg: 100, houseId: foreign });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe(`House ${foreign} not found`);
    expect(await s.stock()).toEqual({});
    const list = await call('GET', M, { token: s.token });
    expect(list.body.data).toEqual([]);
    const theirs = await call('POST', M, { token: s.token, body: { farmId: elsewhere, type: 'feed_delivery', date: day(-1), feedType: 'x', quantityKg: 1 } });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toBe(`Farm ${elsewhere} not found`);
  });

  it('an office corrects a mistyped delivery; a correction below the stock is 409 and writes nothing', async () => {
    const s = await farmBetweenCycles('Farm correcting');
    const booked = (await s.book({ type: 'feed_delivery', date: day(-4), feedType: 'grower', quantityKg: 1000, supplierId: undefined })).body.data;
    const path = `${M}/${booked.id}`;
    const read = await call('GET', path, { token: s.token });
    expect(read.status).toBe(200);
    expect(read.headers.ETag).toBe('"1"');
    // the movement's id alone finds its farm; another farm's user gets the 404 of a missing movement
    expect((await call('GET', path, { token: s.token })).body.data).toMatchObject({ id: booked.id, farmId: s.farmId });
    const stranger = await userWith({ role: 'manager', farmIds: [await otherFarm('Stranger')] });
    const hidden = await call('GET', path, { token: stranger.token });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toBe(`Movement ${booked.id} not found`);
    expect((await call('GET', `${M}/01JD3Y4Z9V6Q8K2M5N7P0R1S3T`, { token: stranger.token })).body.error).toBe('Movement 01JD3Y4Z9V6Q8K2M5N7P0R1S3T not found');
    const fixed = await call('PATCH', path, { token: s.token, body: { quantityKg: 800 }, headers: { 'If-Match': '"1"' } });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(fixed.body.data).toMatchObject({ quantityKg: 800, version: 2 });
    expect(await s.stock()).toEqual({ grower: 800 });

    const c = await s.flock(day(-3));
    expect(
      (await call('POST', `${c.base}/movements`, { token: s.token, body: { type: 'feed_consumption', date: day(-1), quantityKg: 600, feedType: 'grower' } }))
        .status,
    ).toBe(201);
    const tooLow = await call('PATCH', path, { token: s.token, body: { quantityKg: 500, version: 2 } });
    expect(tooLow.status).toBe(409);
    expect(tooLow.body.error).toMatch(/Only 200 kg of feed "grower" in stock on farm/);
    const gone = await call('DELETE', path, { token: s.token });
    expect(gone.status).toBe(409);
    expect(await s.stock()).toEqual({ grower: 200 });
    expect((await call('GET', path, { token: s.token })).body.data).toMatchObject({ quantityKg: 800, version: 2 });

    // a delivery nobody drew from is deleted with its supplier copy
    const spare = (await s.book({ type: 'feed_delivery', date: day(-1), feedType: 'finisher', quantityKg: 50 })).body.data;
    expect((await call('DELETE', `${M}/${spare.id}`, { token: s.token })).status).toBe(204);
    expect(await batchGet([farmMovementKey(s.farmId, spare.id), farmDeliveryKey(s.farmId, spare.id)], { consistent: true })).toEqual([]);
    expect(await s.stock()).toEqual({ grower: 200, finisher: 0 });
  });

  it('concurrent consumptions never drive the farm’s stock below zero', async () => {
    const s = await farmBetweenCycles('Farm racing');
    expect((await s.book({ type: 'feed_delivery', date: day(-6), feedType: 'starter', quantityKg: 1000 })).status).toBe(201);
    const c = await s.flock(day(-3));
    const eat = () =>
      rawCall('POST', `${c.base}/movements`, { token: s.token, body: { type: 'feed_consumption', date: day(-1), quantityKg: 300, feedType: 'starter' } });
    const results = await Promise.all(Array.from({ length: 6 }, eat));
    const ok = results.filter((r) => r.status === 201).length;
    expect(results.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    expect(ok).toBeLessThanOrEqual(3);
    expect((await s.stock()).starter).toBe(1000 - ok * 300);
    expect((await s.stock()).starter).toBeGreaterThanOrEqual(0);
  });

  it('Idempotency-Key: a retry gets the first answer and books once', async () => {
    const s = await farmBetweenCycles('Farm retrying');
    const body = { type: 'medicine_delivery', date: day(-1), product: 'Gumboro vaccine', quantity: 2000, unit: 'doses' };
    const first = await s.book(body, { 'Idempotency-Key': 'farm-delivery-1' });
    const again = await s.book(body, { 'Idempotency-Key': 'farm-delivery-1' });
    expect(first.status).toBe(201);
    expect(again.headers['Idempotent-Replayed']).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    const stock = await call('GET', '/api/v1/inventory/stock', { token: s.token });
    expect(stock.body.data.medicines).toEqual([{ product: 'Gumboro vaccine', unit: 'doses', quantity: 2000, shortfalls: [] }]);
  });
});

describe('receipts need no cycle', () => {
  it('a farm between cycles receives an order’s feed: the line without flockId books it on the farm, in its house bin', async () => {
    const f = await farmWithManager('Receiving between cycles');
    const bin = await house(f.farmId, 'Silo house');
    const s = await f.supplier();
    const o = await f.placed(s.id);
    const r = await f.post(`/orders/${o.id}/receipts`, { date: day(0), lines: [{ lineId: o.lines[0].id, quantity: 600, houseId: bin }] });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const line = r.body.data.receipt.lines[0];
    expect(line).toMatchObject({ flockId: null, cycleId: null, movementId: expect.any(String) });
    expect(await f.stockOf('starter')).toBe(600);
    const booked = await call('GET', `${M}/${line.movementId}`, { token: f.manager.token });
    expect(booked.body.data).toMatchObject({
      type: 'feed_delivery',
      flockId: null,
      houseId: bin,
      supplierId: s.id,
      orderId: o.id,
      receiptId: r.body.data.receipt.id,
    });
    // the receipt owns it: it changes only through the receipt
    expect((await call('PATCH', `${M}/${line.movementId}`, { token: f.manager.token, body: { quantityKg: 1 } })).status).toBe(409);
    const reliability = await call('GET', `${P}/suppliers/${s.id}/reliability`, { token: f.manager.token });
    expect(reliability.body.data.receipts).toBe(1);
    // a chick line still needs a flock with an active cycle
    const chicks = await f.placed(s.id, { lines: [{ itemKind: 'chicks', product: 'Ross 308', quantity: 100, unit: 'birds', unitPrice: 0.5 }] });
    const noFlock = await f.post(`/orders/${chicks.id}/receipts`, { date: day(0), lines: [{ lineId: chicks.lines[0].id, quantity: 100 }] });
    expect(noFlock.status).toBe(400);
    expect(noFlock.body.details).toEqual([expect.objectContaining({ field: 'body.lines.0.flockId' })]);
  });

  it('a receipt dated before its flock’s cycle names body.date', async () => {
    const f = await farmWithManager('Receipt before placement');
    const fx = await flockWithCycle({ token: f.manager.token, farmId: f.farmId, startDate: day(-2) });
    const s = await f.supplier();
    const o = await f.placed(s.id);
    const r = await f.post(`/orders/${o.id}/receipts`, { date: day(-5), lines: [{ lineId: o.lines[0].id, quantity: 100, flockId: fx.flock.id }] });
    expect(r.status).toBe(400);
    expect(r.body.details).toEqual([{ field: 'body.date', message: expect.stringMatching(/^must not be before the cycle's start date/) }]);
    expect(await f.stockOf('starter')).toBe(0);
  });

  it('supplier reliability counts a delivery booked on the farm by hand', async () => {
    const f = await farmWithManager('Booked by hand');
    const s = await f.supplier();
    const res = await call('POST', M, {
      token: f.manager.token,
      body: { farmId: f.farmId, type: 'feed_delivery', date: day(-1), feedType: 'starter', quantityKg: 900, supplierId: s.id, expectedDate: day(-2) },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const reliability = (await call('GET', `${P}/suppliers/${s.id}/reliability`, { token: f.manager.token })).body.data;
    expect(reliability.receipts).toBe(1);
    expect(reliability.onTimeRatePct.value).toBe(0);
    // the cycle running on the farm that day counts it in its supplier report too
    const fx = await flockWithCycle({ token: f.manager.token, farmId: f.farmId, startDate: day(-3) });
    const report = await call('GET', `/api/v2/analytics/cycle/${fx.flock.id}/${fx.cycle.id}/suppliers`, { token: f.manager.token });
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    expect(report.body.data.suppliers).toEqual([expect.objectContaining({ supplierId: s.id, deliveries: 1 })]);
  });
});

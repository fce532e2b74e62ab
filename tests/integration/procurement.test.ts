/**
 * Procurement through the real middleware and DynamoDB Local: supplier CRUD with If-Match (archived when
 * it has orders), the purchase order lifecycle and its illegal moves, feed ordered and received in two
 * partial receipts (stock, the order's status, the supplier's reliability equal to the analytics supplier
 * score of the cycle), over-delivery, a receipt retried concurrently with one Idempotency-Key, scoping
 * and capabilities, and reorder suggestions.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { userWith } from '../support/accounts.js';
import { day, flockWithCycle } from '../support/cycles.js';
import { house } from '../support/farms.js';
import { call, farmWithManager, P } from '../support/procurement.js';
import { db, tableName } from '../../shared/db/client.js';
import { farmKey } from '../../shared/db/keys.js';
import { localToday } from '../../shared/platform/calendar.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('procurement', () => {
  it('suppliers: create (idempotent), read, change with If-Match, delete; one with orders is archived and takes no new orders', async () => {
    const f = await farmWithManager();
    const body = { name: 'Hatchery North', kinds: ['chicks'], farmIds: [f.farmId] };
    const first = await f.post('/suppliers', body, { 'Idempotency-Key': 'sup-1' });
    expect(first.status).toBe(201);
    const again = await f.post('/suppliers', body, { 'Idempotency-Key': 'sup-1' });
    expect(again.status).toBe(201);
    expect(again.headers['Idempotent-Replayed']).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    const id = first.body.data.id;

    const got = await call('GET', `${P}/suppliers/${id}`, { token: f.manager.token });
    expect(got.status).toBe(200);
    expect(got.headers.ETag).toBe('"1"');
    const stale = await call('PATCH', `${P}/suppliers/${id}`, { token: f.manager.token, body: { name: 'X' }, headers: { 'If-Match': '"7"' } });
    expect(stale.status).toBe(412);
    const patched = await call('PATCH', `${P}/suppliers/${id}`, {
      token: f.manager.token,
      body: { kinds: ['chicks', 'feed'] },
      headers: { 'If-Match': '"1"' },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data).toMatchObject({ kinds: ['chicks', 'feed'], version: 2 });
    expect((await call('PATCH', `${P}/suppliers/${id}`, { token: f.manager.token, body: { name: 'Y', version: 1 } })).status).toBe(409);

    const listed = await call('GET', `${P}/suppliers`, { token: f.manager.token, query: { farmId: f.farmId } });
    expect(listed.body.data.map((s: Json) => s.id)).toEqual([id]);

    expect((await call('DELETE', `${P}/suppliers/${id}`, { token: f.manager.token, headers: { 'If-Match': '"1"' } })).status).toBe(412);
    expect((await call('DELETE', `${P}/suppliers/${id}`, { token: f.manager.token, headers: { 'If-Match': '"2"' } })).status).toBe(204);
    expect((await call('GET', `${P}/suppliers/${id}`, { token: f.manager.token })).status).toBe(404);

    const withOrders = await f.supplier();
    await f.order(withOrders.id);
    const archived = await call('DELETE', `${P}/suppliers/${withOrders.id}`, { token: f.manager.token });
    expect(archived.status).toBe(200);
    expect(archived.body.data).toMatchObject({ archived: true, orderCount: 1 });
    const refused = await f.post('/orders', {
      farmId: f.farmId,
      supplierId: withOrders.id,
      expectedDate: day(3),
      lines: [{ itemKind: 'feed', feedType: 'starter', quantity: 10, unit: 'kg', unitPrice: 1 }],
    });
    expect(refused.status).toBe(409);
    const visible = await call('GET', `${P}/suppliers`, { token: f.manager.token, query: { farmId: f.farmId } });
    expect(visible.body.data).toEqual([]);
    const all = await call('GET', `${P}/suppliers`, { token: f.manager.token, query: { farmId: f.farmId, includeArchived: 'true' } });
    expect(all.body.data.map((s: Json) => s.id)).toEqual([withOrders.id]);
  });

  it('orders: draft → ordered → cancelled; only a draft changes; illegal moves are 409; lines are checked against the supplier', async () => {
    const f = await farmWithManager();
    const s = await f.supplier({ kinds: ['feed'] });
    const wrongKind = await f.post('/orders', {
      farmId: f.farmId,
      supplierId: s.id,
      expectedDate: day(3),
      lines: [{ itemKind: 'vaccines', product: 'ND clone 30', quantity: 1000, unit: 'doses', unitPrice: 0.01 }],
    });
    expect(wrongKind.status).toBe(400);
    expect(JSON.stringify(wrongKind.body.details)).toContain('lines.0.itemKind');

    const o = await f.order(s.id);
    expect(o).toMatchObject({ status: 'draft', total: 500, version: 1, orderedAt: null });
    const edited = await call('PATCH', `${P}/orders/${o.id}`, { token: f.manager.token, body: { expectedDate: day(6) }, headers: { 'If-Match': '"1"' } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data).toMatchObject({ expectedDate: day(6), version: 2 });
    expect((await f.post(`/orders/${o.id}/receipts`, { date: day(0), lines: [{ lineId: o.lines[0].id, quantity: 1 }] })).status).toBe(409);
    const placed = await f.post(`/orders/${o.id}/place`, { version: 2 });
    expect(placed.status).toBe(200);
    expect(placed.body.data.status).toBe('ordered');
    expect(placed.body.data.orderedAt).not.toBeNull();
    expect((await call('PATCH', `${P}/orders/${o.id}`, { token: f.manager.token, body: { expectedDate: day(7) } })).status).toBe(409);
    const twice = await f.post(`/orders/${o.id}/place`, {});
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe('A purchase order that is ordered cannot be ordered (allowed from draft)');
    expect((await f.post(`/orders/${o.id}/cancel`, { note: 'Found a cheaper mill' })).status).toBe(200);
    expect((await f.post(`/orders/${o.id}/cancel`, {})).status).toBe(409);
    expect((await f.post(`/orders/${o.id}/receipts`, { date: day(0), lines: [{ lineId: o.lines[0].id, quantity: 1 }] })).status).toBe(409);
    const listed = await call('GET', `${P}/orders`, { token: f.manager.token, query: { farmId: f.farmId, status: 'cancelled' } });
    expect(listed.body.data.map((x: Json) => x.id)).toEqual([o.id]);
  });

  it('an order’s and a receipt’s dates are the farm’s calendar dates (its time zone), not UTC’s', async () => {
    // At any instant at least one of these farms has another date than UTC: UTC−12 before noon UTC, UTC+14 from 10:00 UTC.
    for (const timezone of ['Etc/GMT+12', 'Pacific/Kiritimati']) {
      const f = await farmWithManager(`Farm in ${timezone}`);
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: farmKey(f.farmId),
          UpdateExpression: 'SET #tz = :tz',
          ExpressionAttributeNames: { '#tz': 'timezone' },
          ExpressionAttributeValues: { ':tz': timezone },
        }),
      );
      const today = localToday(new Date(), timezone);
      const fx = await flockWithCycle({ token: f.manager.token, farmId: f.farmId, startDate: day(-5) });
      const s = await f.supplier();
      // expected "today" on the farm's calendar: not past, whatever UTC's date
      const o = await f.placed(s.id, { expectedDate: today });
      // received the day it was placed, on the farm's calendar
      const r = await f.post(`/orders/${o.id}/receipts`, { date: today, lines: [{ lineId: o.lines[0].id, quantity: 1000, flockId: fx.flock.id }] });
      expect(r.status, `${timezone}: ${JSON.stringify(r.body)}`).toBe(201);
      const movements = await call('GET', `${fx.base}/movements`, { token: f.manager.token, query: { type: 'feed_delivery' } });
      expect(movements.body.data, timezone).toEqual([expect.objectContaining({ date: today, orderedDate: today, expectedDate: today })]);
    }
  });

  it('feed ordered and received in two partial receipts: stock up by exactly the kg, the order received, reliability equal to the analytics supplier score', async () => {
    const f = await farmWithManager();
    const fx = await flockWithCycle({ token: f.manager.token, farmId: f.farmId });
    const s = await f.supplier();
    const o = await f.placed(s.id);
    const lineId = o.lines[0].id;
    const before = await f.stockOf('starter');

    const r1 = await f.post(`/orders/${o.id}/receipts`, {
      date: day(0),
      lines: [{ lineId, quantity: 600, flockId: fx.flock.id, lotNumber: 'L-1', qualityIssues: ['wet'] }],
    });
    expect(r1.status, JSON.stringify(r1.body)).toBe(201);
    expect(r1.body.data.order).toMatchObject({ status: 'partially_received' });
    expect(r1.body.data.order.lines[0].receivedQuantity).toBe(600);
    expect(await f.stockOf('starter')).toBe(before + 600);
    const rel1 = (await call('GET', `${P}/suppliers/${s.id}/reliability`, { token: f.manager.token })).body.data;
    expect(rel1.receipts).toBe(1);
    // the line is still being delivered (due in 5 days): left out of the fill rate, not counted as short
    expect(rel1.fillRatePct).toEqual({ value: null, unit: '%', reason: 'no closed feed line yet: 1 still being delivered (left out)' });
    expect(rel1.qualityIssueRatePct.value).toBe(100);

    const over = await f.post(`/orders/${o.id}/receipts`, { date: day(0), lines: [{ lineId, quantity: 401, flockId: fx.flock.id }] });
    expect(over.status).toBe(400);
    const r2 = await f.post(`/orders/${o.id}/receipts`, { date: day(0), lines: [{ lineId, quantity: 400, flockId: fx.flock.id }] });
    expect(r2.status, JSON.stringify(r2.body)).toBe(201);
    expect(r2.body.data.order).toMatchObject({ status: 'received' });
    expect(r2.body.data.order.receivedAt).not.toBeNull();
    expect(await f.stockOf('starter')).toBe(before + 1000);
    expect((await f.post(`/orders/${o.id}/receipts`, { date: day(0), lines: [{ lineId, quantity: 1, flockId: fx.flock.id }] })).status).toBe(409);

    const movements = await call('GET', `${fx.base}/movements`, { token: f.manager.token, query: { type: 'feed_delivery' } });
    expect(movements.body.data.map((m: Json) => m.quantityKg).sort()).toEqual([400, 600]);
    expect(movements.body.data[0]).toMatchObject({ supplierId: s.id, orderId: o.id, expectedDate: o.expectedDate });
    // the receipt's movements change only with it (else the order and the ledger would disagree)
    const written = movements.body.data[0];
    expect([r1.body.data.receipt.id, r2.body.data.receipt.id]).toContain(written.receiptId);
    expect((await call('PATCH', `${fx.base}/movements/${written.id}`, { token: f.manager.token, body: { quantityKg: 1 } })).status).toBe(409);
    expect((await call('DELETE', `${fx.base}/movements/${written.id}`, { token: f.manager.token })).status).toBe(409);

    const rel = (await call('GET', `${P}/suppliers/${s.id}/reliability`, { token: f.manager.token })).body.data;
    expect(rel).toMatchObject({ receipts: 2, fill: { orderedKg: 1000, receivedKg: 1000, lines: 1, openLines: 0 } });
    expect(rel.fillRatePct.value).toBe(100);
    expect(rel.onTimeRatePct.value).toBe(100);
    expect(rel.qualityIssueRatePct.value).toBe(50);
    const analytics = await call('GET', `/api/v2/analytics/cycle/${fx.flock.id}/${fx.cycle.id}/suppliers`, { token: f.manager.token });
    expect(analytics.status).toBe(200);
    const score = analytics.body.data.suppliers.find((x: Json) => x.supplierId === s.id);
    expect(rel.reliability).toEqual(score);
    expect(rel.score).toEqual(score.score);

    const got = await call('GET', `${P}/orders/${o.id}`, { token: f.manager.token });
    expect(got.body.data.receipts.map((r: Json) => r.lines[0].quantity)).toEqual([600, 400]);
  });

  it('over-delivery is refused unless the order allows it; a chick line places birds', async () => {
    const f = await farmWithManager();
    const fx = await flockWithCycle({ token: f.manager.token, farmId: f.farmId });
    const s = await f.supplier();
    const o = await f.placed(s.id, { allowOverDelivery: true });
    const res = await f.post(`/orders/${o.id}/receipts`, { date: day(0), lines: [{ lineId: o.lines[0].id, quantity: 1100, flockId: fx.flock.id }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.order.status).toBe('received');

    const chicks = await f.placed(s.id, { lines: [{ itemKind: 'chicks', product: 'Ross 308', quantity: 500, unit: 'birds', unitPrice: 0.4 }] });
    const noFlock = await f.post(`/orders/${chicks.id}/receipts`, { date: day(0), lines: [{ lineId: chicks.lines[0].id, quantity: 1 }] });
    expect(noFlock.status).toBe(400);
    const fraction = await f.post(`/orders/${chicks.id}/receipts`, {
      date: day(0),
      lines: [{ lineId: chicks.lines[0].id, quantity: 1.5, flockId: fx.flock.id }],
    });
    expect(fraction.status).toBe(400);
    const alive = (await call('GET', fx.base, { token: f.manager.token })).body.data.birds.alive;
    const placed = await f.post(`/orders/${chicks.id}/receipts`, {
      date: day(0),
      lines: [{ lineId: chicks.lines[0].id, quantity: 500, flockId: fx.flock.id }],
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect((await call('GET', fx.base, { token: f.manager.token })).body.data.birds.alive).toBe(alive + 500);
  });

  it('vaccines received go to the farm’s medicine stock; a vaccination given from stock takes them; more than in stock is 409 naming the balance', async () => {
    const f = await farmWithManager();
    const fx = await flockWithCycle({ token: f.manager.token, farmId: f.farmId });
    const s = await f.supplier({ kinds: ['vaccines', 'equipment'] });
    const o = await f.placed(s.id, {
      lines: [
        { itemKind: 'vaccines', product: 'ND clone 30', quantity: 10_000, unit: 'doses', unitPrice: 0.01 },
        { itemKind: 'equipment', product: 'Drinker nipples', quantity: 50, unit: 'units', unitPrice: 1.2 },
      ],
    });
    const [vaccine, nipples] = o.lines as Json[];
    const medicines = async () => (await call('GET', '/api/v1/inventory/stock', { token: f.manager.token, query: { farmId: f.farmId } })).body.data.medicines;
    expect(await medicines()).toEqual([]);
    // a vaccine line names the flock whose cycle records the delivery, or else none (booked on the farm) with its house bin, never both; equipment has no stock
    const noFlock = await f.post(`/orders/${o.id}/receipts`, {
      date: day(0),
      lines: [{ lineId: vaccine!.id, quantity: 10_000, flockId: fx.flock.id, houseId: await house(f.farmId) }],
    });
    expect(noFlock.status).toBe(400);
    expect(JSON.stringify(noFlock.body)).toContain('lines.0.houseId');
    const equipmentFlock = await f.post(`/orders/${o.id}/receipts`, { date: day(0), lines: [{ lineId: nipples!.id, quantity: 50, flockId: fx.flock.id }] });
    expect(equipmentFlock.status).toBe(400);
    const r = await f.post(`/orders/${o.id}/receipts`, {
      date: day(0),
      lines: [
        { lineId: vaccine!.id, quantity: 10_000, flockId: fx.flock.id, lotNumber: 'ND-2291' },
        { lineId: nipples!.id, quantity: 50 },
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.data.order.status).toBe('received');
    expect(await medicines()).toEqual([{ product: 'ND clone 30', unit: 'doses', quantity: 10_000, shortfalls: [] }]);
    const delivered = await call('GET', `${fx.base}/movements`, { token: f.manager.token, query: { type: 'medicine_delivery' } });
    expect(delivered.body.data).toEqual([
      expect.objectContaining({ product: 'ND clone 30', quantity: 10_000, unit: 'doses', supplierId: s.id, orderId: o.id, lotNumber: 'ND-2291' }),
    ]);

    // a vaccination given from stock takes its doses; the stock never goes below zero
    const vaccinate = (quantity: number) =>
      call('POST', `${fx.base}/movements`, {
        token: f.manager.token,
        body: { type: 'vaccination', date: day(0), vaccine: 'ND clone 30', method: 'spray', fromStock: { quantity, unit: 'doses' } },
      });
    expect((await vaccinate(9_800)).status).toBe(201);
    expect(await medicines()).toEqual([{ product: 'ND clone 30', unit: 'doses', quantity: 200, shortfalls: [] }]);
    const short = await vaccinate(500);
    expect(short.status).toBe(409);
    expect(short.body.error).toMatch(/Only 200 doses of "ND clone 30" in stock/);
    expect(await medicines()).toEqual([{ product: 'ND clone 30', unit: 'doses', quantity: 200, shortfalls: [] }]);
  });

  it('a receipt retried concurrently with one Idempotency-Key writes once', async () => {
    const f = await farmWithManager();
    const fx = await flockWithCycle({ token: f.manager.token, farmId: f.farmId });
    const s = await f.supplier();
    const o = await f.placed(s.id);
    const before = await f.stockOf('starter');
    const body = { date: day(0), lines: [{ lineId: o.lines[0].id, quantity: 300, flockId: fx.flock.id }] };
    const results = await Promise.all(Array.from({ length: 6 }, () => f.post(`/orders/${o.id}/receipts`, body, { 'Idempotency-Key': 'receipt-retry-1' })));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(new Set(results.map((r) => r.body.data.receipt.id)).size).toBe(1);
    const movements = await call('GET', `${fx.base}/movements`, { token: f.manager.token, query: { type: 'feed_delivery' } });
    expect(movements.body.data).toHaveLength(1);
    expect(await f.stockOf('starter')).toBe(before + 300);
    const got = (await call('GET', `${P}/orders/${o.id}`, { token: f.manager.token })).body.data;
    expect(got.receipts).toHaveLength(1);
    expect(got.lines[0].receivedQuantity).toBe(300);
    expect(got.version).toBe(3);
  });

  it('two different receipts racing on one order: one commits, the other is refused, and the stock moves once', async () => {
    const f = await farmWithManager();
    const fx = await flockWithCycle({ token: f.manager.token, farmId: f.farmId });
    const s = await f.supplier();
    const o = await f.placed(s.id);
    const before = await f.stockOf('starter');
    const results = await Promise.all(
      ['a', 'b'].map((lot) =>
        f.post(`/orders/${o.id}/receipts`, { date: day(0), lines: [{ lineId: o.lines[0].id, quantity: 600, flockId: fx.flock.id, lotNumber: lot }] }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses[0]).toBe(201);
    expect([400, 409]).toContain(statuses[1]);
    expect(await f.stockOf('starter')).toBe(before + 600);
    const got = (await call('GET', `${P}/orders/${o.id}`, { token: f.manager.token })).body.data;
    expect(got).toMatchObject({ status: 'partially_received', version: 3 });
    expect(got.lines[0].receivedQuantity).toBe(600);
    const movements = await call('GET', `${fx.base}/movements`, { token: f.manager.token, query: { type: 'feed_delivery' } });
    expect(movements.body.data).toHaveLength(1);
  });

  it('scoping and capabilities: another farm’s records are 404; a worker reads but cannot write', async () => {
    const f = await farmWithManager();
    const s = await f.supplier();
    const o = await f.order(s.id);
    const stranger = await farmWithManager('Other procurement farm');
    expect((await call('GET', `${P}/orders/${o.id}`, { token: stranger.manager.token })).status).toBe(404);
    expect((await call('GET', `${P}/suppliers/${s.id}`, { token: stranger.manager.token })).status).toBe(404);
    expect((await call('GET', `${P}/suppliers/${s.id}/reliability`, { token: stranger.manager.token })).status).toBe(404);
    expect((await stranger.post(`/orders/${o.id}/place`, {})).status).toBe(404);
    const foreign = await stranger.post('/orders', {
      farmId: stranger.farmId,
      supplierId: s.id,
      expectedDate: day(3),
      lines: [{ itemKind: 'feed', feedType: 'starter', quantity: 10, unit: 'kg', unitPrice: 1 }],
    });
    // another farm's supplier, named in a body, answers as a missing one
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: `Supplier ${s.id} not found` });
    expect((await stranger.post('/suppliers', { name: 'Sneaky', kinds: ['feed'], farmIds: [f.farmId] })).status).toBe(404);

    const worker = await userWith({ role: 'worker', farmIds: [f.farmId] });
    expect((await call('GET', `${P}/orders/${o.id}`, { token: worker.token })).status).toBe(200);
    expect((await call('GET', `${P}/orders`, { token: worker.token })).status).toBe(200);
    expect((await call('POST', `${P}/orders/${o.id}/place`, { token: worker.token, body: {} })).status).toBe(403);
    expect((await call('POST', `${P}/suppliers`, { token: worker.token, body: { name: 'W', kinds: ['feed'], farmIds: [f.farmId] } })).status).toBe(403);
  });

  it('suggestions: a draft order per feed type that runs short, with its reasoning; nothing is written', async () => {
    const f = await farmWithManager();
    const fx = await flockWithCycle({ token: f.manager.token, farmId: f.farmId });
    const s = await f.supplier();
    const o = await f.placed(s.id, { lines: [{ itemKind: 'feed', feedType: 'grower', quantity: 500, unit: 'kg', unitPrice: 0.42 }] });
    await f.post(`/orders/${o.id}/receipts`, { date: day(0), lines: [{ lineId: o.lines[0].id, quantity: 500, flockId: fx.flock.id }] });
    for (const d of [-3, -2, -1]) await fx.move({ type: 'feed_consumption', date: day(d), feedType: 'grower', quantityKg: 100 });
    const res = await call('GET', `${P}/suggestions`, { token: f.manager.token, query: { farmId: f.farmId } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [g] = res.body.data.suggestions;
    expect(g).toMatchObject({ feedType: 'grower', stockKg: 200, dailyConsumptionKg: 100, runOutSource: 'trend', runOutDate: day(2) });
    expect(g.order).toMatchObject({ farmId: f.farmId, supplierId: s.id, expectedDate: day(2) });
    expect(g.order.lines).toEqual([{ itemKind: 'feed', feedType: 'grower', quantity: 1400, unit: 'kg', unitPrice: 0.42 }]);
    expect(g.reasoning.length).toBeGreaterThan(2);
    const drafted = await f.post('/orders', g.order);
    expect(drafted.status, JSON.stringify(drafted.body)).toBe(201);
  });
});

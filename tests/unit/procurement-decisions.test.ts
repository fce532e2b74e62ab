/** Purchase orders and receipts decided without a database: the refusals in the order a client meets them, and the records they return. */
import { describe, expect, it } from 'vitest';
import { decideOrderAction, decideOrderCreate, decideOrderUpdate, orderActionReads, orderUpdateReads } from '../../shared/domain/procurement/orders.js';
import { decideReceipt, decideReceivedQuantities, judgeReceiptDate, receiptReads } from '../../shared/domain/procurement/receipts.js';
import type { OrderRecord, SupplierRecord } from '../../shared/domain/procurement/records.js';
import { Conflict, NotFound, ValidationFailed } from '../../shared/errors.js';

const now = new Date('2026-03-10T09:00:00.000Z');
const caller = { id: 'u1', allFarms: false, farmIds: ['F1'] };
const supplier: SupplierRecord = {
  id: 'S1',
  name: 'Mill',
  kinds: ['feed', 'chicks', 'equipment'],
  contact: {},
  farmIds: ['F1'],
  archived: false,
  orderCount: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  version: 1,
};
const feedLine = { itemKind: 'feed' as const, feedType: 'starter', quantity: 1000, unit: 'kg' as const, unitPrice: 0.5 };
const order = (over: Partial<OrderRecord> = {}): OrderRecord => ({
  id: 'O1',
  farmId: 'F1',
  supplierId: 'S1',
  status: 'ordered',
  lines: [
    { id: 'L1', itemKind: 'feed', feedType: 'starter', product: null, quantity: 1000, unit: 'kg', unitPrice: 0.5, receivedQuantity: 0 },
    { id: 'L2', itemKind: 'chicks', feedType: null, product: 'Ross 308', quantity: 500, unit: 'birds', unitPrice: 0.4, receivedQuantity: 0 },
    { id: 'L3', itemKind: 'equipment', feedType: null, product: 'Drinker', quantity: 2, unit: 'units', unitPrice: 30, receivedQuantity: 0 },
  ],
  expectedDate: '2026-03-12',
  allowOverDelivery: false,
  notes: null,
  orderedAt: '2026-03-01T08:00:00.000Z',
  receivedAt: null,
  cancelledAt: null,
  createdBy: 'u1',
  createdAt: '2026-02-28T08:00:00.000Z',
  updatedAt: '2026-03-01T08:00:00.000Z',
  version: 2,
  ...over,
});
/** A ValidationFailed whose one detail says `message`. */
const refusing = (message: RegExp) => expect.objectContaining({ details: [expect.objectContaining({ message: expect.stringMatching(message) })] });
const body = { farmId: 'F1', supplierId: 'S1', expectedDate: '2026-03-20', lines: [feedLine] };

describe('purchase order decisions', () => {
  it('drafts an order with new line ids, audited as answered', () => {
    const { order: o, audit, changes } = decideOrderCreate(caller, 'F1', supplier, { ...body, notes: '  soon ' }, now, undefined);
    expect(o).toMatchObject({ farmId: 'F1', status: 'draft', notes: 'soon', version: 1, createdAt: now.toISOString(), allowOverDelivery: false });
    expect(o.lines[0]).toMatchObject({ feedType: 'starter', receivedQuantity: 0, id: expect.any(String) });
    expect(audit).toEqual([
      { action: 'purchase_order.create', targetType: 'purchase_order', targetId: o.id, changes: expect.objectContaining({ total: 500 }) },
    ]);
    expect(changes).toEqual([{ type: 'purchase_order', id: o.id, op: 'upsert', version: 1, farmIds: ['F1'] }]);
  });

  it('drafts an order whose expected day is past on the farm’s calendar, audited as back-dated', () => {
    // 09:00 UTC on the 10th is already the 10th in Auckland, still the 9th in Honolulu
    const late = { ...body, expectedDate: '2026-03-09' };
    expect(decideOrderCreate(caller, 'F1', supplier, late, now, 'Pacific/Auckland').audit[0]!.changes).toMatchObject({
      expectedDate: '2026-03-09',
      backdated: { date: '2026-03-09', enteredOn: '2026-03-10' },
    });
    expect(decideOrderCreate(caller, 'F1', supplier, late, now, 'Pacific/Honolulu').audit[0]!.changes).not.toHaveProperty('backdated');
  });

  it('refuses a supplier the caller does not see (404), then an archived one (409), one not serving the farm, then bad lines (400)', () => {
    expect(() => decideOrderCreate(caller, 'F1', undefined, body, now, undefined)).toThrow(NotFound);
    expect(() => decideOrderCreate(caller, 'F1', { ...supplier, farmIds: ['F2'] }, body, now, undefined)).toThrow(NotFound);
    expect(() => decideOrderCreate(caller, 'F1', { ...supplier, archived: true, farmIds: ['F2', 'F1'] }, body, now, undefined)).toThrow(Conflict);
    expect(() => decideOrderCreate({ ...caller, farmIds: ['F1', 'F2'] }, 'F1', { ...supplier, farmIds: ['F2'] }, body, now, undefined)).toThrow(
      expect.objectContaining({ details: [{ field: 'supplierId', message: 'supplier S1 does not serve farm F1' }] }),
    );
    expect(() => decideOrderCreate(caller, 'F1', { ...supplier, kinds: ['chicks'] }, body, now, undefined)).toThrow(ValidationFailed);
  });

  it('edits only a draft (409 before the supplier is judged), records every field sent, and reads the supplier only for new lines of a draft', () => {
    expect(orderUpdateReads(order({ status: 'draft' }), { lines: [feedLine] })).toEqual({ supplier: true });
    expect(orderUpdateReads(order({ status: 'draft' }), { notes: 'x' })).toEqual({ supplier: false });
    expect(orderUpdateReads(order(), { lines: [feedLine] })).toEqual({ supplier: false });
    expect(() => decideOrderUpdate(caller, order(), { lines: [feedLine] }, undefined, now)).toThrow(Conflict);
    const draft = order({ status: 'draft' });
    const { change, audit, changes } = decideOrderUpdate(caller, draft, { expectedDate: draft.expectedDate, notes: ' n ' }, undefined, now);
    expect(change.fields).toEqual({ expectedDate: '2026-03-12', notes: 'n' });
    expect(change.next).toMatchObject({ notes: 'n', version: 3, updatedAt: now.toISOString() });
    expect(audit[0]!.changes).toEqual({ expectedDate: { from: '2026-03-12', to: '2026-03-12' }, notes: { from: null, to: 'n' } });
    expect(changes).toEqual([{ type: 'purchase_order', id: 'O1', op: 'upsert', version: 3, farmIds: ['F1'] }]);
    expect(() => decideOrderUpdate(caller, draft, { lines: [feedLine] }, undefined, now)).toThrow(NotFound);
  });

  it('places a draft (not with a past expected date on the farm calendar) and cancels; an illegal move names the status', () => {
    const draft = order({ status: 'draft', orderedAt: null });
    expect(orderActionReads(draft, 'place')).toEqual({ farm: true });
    expect(orderActionReads(order(), 'place')).toEqual({ farm: false });
    expect(orderActionReads(draft, 'cancel')).toEqual({ farm: false });
    const placed = decideOrderAction(draft, 'place', { note: 'go' }, now, 'Europe/Paris');
    expect(placed.change.fields).toEqual({ status: 'ordered', orderedAt: now.toISOString() });
    expect(placed.audit[0]!.changes).toEqual({ status: { from: 'draft', to: 'ordered' }, note: 'go' });
    // 2026-03-10 is already the 11th in Auckland: a past expected date is placed, audited as back-dated
    const late = decideOrderAction({ ...draft, expectedDate: '2026-03-10' }, 'place', {}, new Date('2026-03-10T12:00:00Z'), 'Pacific/Auckland');
    expect(late.change.fields).toMatchObject({ status: 'ordered' });
    expect(late.audit[0]!.changes).toEqual({ status: { from: 'draft', to: 'ordered' }, backdated: { date: '2026-03-10', enteredOn: '2026-03-11' } });
    expect(() => decideOrderAction(order(), 'place', {}, now, undefined)).toThrow(/ordered cannot be ordered/);
    expect(decideOrderAction(order(), 'cancel', {}, now, undefined).change.fields).toEqual({ status: 'cancelled', cancelledAt: now.toISOString() });
  });
});

describe('receipt decisions', () => {
  const flock = { id: 'FL1', farmId: 'F1', activeCycleId: 'C1' };
  const cycle = { id: 'C1', flockId: 'FL1', farmId: 'F1', startDate: '2026-02-01', endDate: null };
  const targets = new Map([['FL1', { flock, cycle }]]);
  const receiptBody = {
    date: '2026-03-09',
    lines: [
      { lineId: 'L1', quantity: 400, flockId: 'FL1' },
      { lineId: 'L2', quantity: 500, flockId: 'FL1' },
      { lineId: 'L3', quantity: 2 },
    ],
  };
  const facts = (o = order()) => ({
    caller,
    now,
    order: o,
    applied: decideReceivedQuantities(o, receiptBody),
    orderedDate: '2026-03-01',
    today: '2026-03-10',
    targets,
  });

  it('refuses a draft (409) before the quantities (400), and a date after the farm’s today; an earlier one is taken, before the placement too', () => {
    expect(() => decideReceivedQuantities(order({ status: 'draft' }), { date: '2026-03-09', lines: [{ lineId: 'X', quantity: 1 }] })).toThrow(Conflict);
    expect(() => decideReceivedQuantities(order(), { date: '2026-03-09', lines: [{ lineId: 'L1', quantity: 1001 }] })).toThrow(ValidationFailed);
    expect(() => judgeReceiptDate('2026-02-28', '2026-03-10')).not.toThrow();
    expect(() => judgeReceiptDate('2026-03-12', '2026-03-10')).toThrow(refusing(/after the farm's today \(2026-03-10\)/));
    expect(() => judgeReceiptDate('2026-03-11', '2026-03-10')).toThrow(ValidationFailed);
    expect(() => judgeReceiptDate('2026-03-10', '2026-03-10')).not.toThrow();
  });

  it('reads each named flock once, only for lines that write a movement', () => {
    expect(receiptReads(order(), { date: '2026-03-09', lines: [...receiptBody.lines, { lineId: 'L3', quantity: 1, flockId: 'FL9' }] })).toEqual(['FL1']);
  });

  it('writes a movement per stock line on the flock active cycle, the receipt, the ledger changes and the chicks placed', () => {
    const d = decideReceipt(receiptBody, facts());
    expect(d.movements.map((m) => [m.type, m.cycleId, m.fields.receiptId])).toEqual([
      ['feed_delivery', 'C1', d.receipt.id],
      ['bird_inflow', 'C1', d.receipt.id],
    ]);
    expect(d.movements[0]!.fields).toMatchObject({ orderedDate: '2026-03-01', orderedQuantityKg: 1000, supplierId: 'S1', orderId: 'O1' });
    expect(d.receipt.lines.map((l) => l.movementId)).toEqual([d.movements[0]!.id, d.movements[1]!.id, null]);
    expect(d.receipt.deliveries).toEqual([expect.objectContaining({ feedType: 'starter', quantityKg: 400, supplierId: 'S1' })]);
    expect(d.change.fields).toMatchObject({ status: 'partially_received' });
    expect(d.change.next.version).toBe(3);
    expect(d.groups).toHaveLength(1);
    expect(d.placed).toEqual([{ cycle, birds: 500 }]);
    expect(d.flocks).toEqual(['FL1']);
    expect(d.audit[0]!.changes).toMatchObject({ receiptId: d.receipt.id, status: { from: 'ordered', to: 'partially_received' } });
    expect(d.changes).toEqual([{ type: 'purchase_order', id: 'O1', op: 'upsert', version: 3, farmIds: ['F1'] }]);
  });

  it('takes a receipt dated before the order was placed, audited as back-dated; its deliveries then carry no order date', () => {
    const early = { ...receiptBody, date: '2026-02-27' };
    const d = decideReceipt(early, { ...facts(), applied: decideReceivedQuantities(order(), early) });
    expect(d.audit[0]!.changes).toMatchObject({ backdated: { date: '2026-02-27', enteredOn: '2026-03-10' } });
    expect(d.movements[0]!.fields).not.toHaveProperty('orderedDate');
    expect(d.receipt.deliveries[0]).toMatchObject({ date: '2026-02-27', orderedDate: null, expectedDate: '2026-03-12' });
    // placed after its expected day: the day it was placed is not the day it was ordered
    const late = order({ expectedDate: '2026-02-28' });
    expect(decideReceipt(receiptBody, { ...facts(late), order: late }).movements[0]!.fields).not.toHaveProperty('orderedDate');
    // entered the day it arrived: nothing back-dated
    const sameDay = { ...receiptBody, date: '2026-03-10' };
    expect(decideReceipt(sameDay, { ...facts(), applied: decideReceivedQuantities(order(), sameDay) }).audit[0]!.changes).not.toHaveProperty('backdated');
  });

  it('collects line problems, but a flock of another farm is a 404 and one without an active cycle a 400 at once', () => {
    const missing = {
      date: '2026-03-09',
      lines: [
        { lineId: 'L2', quantity: 1 },
        { lineId: 'L3', quantity: 1, flockId: 'FL1' },
      ],
    };
    const o = order();
    expect(() => decideReceipt(missing, { ...facts(), applied: decideReceivedQuantities(o, missing) })).toThrow(
      expect.objectContaining({ details: [expect.objectContaining({ field: 'lines.0.flockId' }), expect.objectContaining({ field: 'lines.1.flockId' })] }),
    );
    const other = new Map([['FL1', { flock: { ...flock, farmId: 'F2' }, cycle }]]);
    expect(() => decideReceipt(receiptBody, { ...facts(), caller: { ...caller, farmIds: ['F1', 'F2'] }, targets: other })).toThrow(NotFound);
    const idle = new Map([['FL1', { flock: { ...flock, activeCycleId: null }, cycle: undefined }]]);
    expect(() => decideReceipt(receiptBody, { ...facts(), targets: idle })).toThrow(refusing(/has no active cycle/));
  });

  it('a feed line without a flock books the delivery on the farm (its house bin of the farm), one stock write for all lines', () => {
    const body = {
      date: '2026-03-09',
      lines: [
        { lineId: 'L1', quantity: 300, houseId: 'H1' },
        { lineId: 'L4', quantity: 100, flockId: 'FL1' },
      ],
    };
    const two = order();
    two.lines.push({ ...two.lines[0]!, id: 'L4' });
    const houses = new Map([['H1', { farmId: 'F1' }]]);
    const d = decideReceipt(body, { ...facts(two), applied: decideReceivedQuantities(two, body), houses });
    expect(d.farmMovements.map((m) => [m.type, m.cycleId, m.farmId, m.fields.houseId, m.fields.receiptId])).toEqual([
      ['feed_delivery', null, 'F1', 'H1', d.receipt.id],
    ]);
    expect(d.movements.map((m) => m.cycleId)).toEqual(['C1']);
    expect(d.receipt.lines.map((l) => [l.flockId, l.movementId])).toEqual([
      [null, d.farmMovements[0]!.id],
      ['FL1', d.movements[0]!.id],
    ]);
    expect(d.farmGroup).toEqual({ farmId: 'F1', changes: [{ target: { kind: 'feed', feedType: 'starter' }, amounts: { kg: 400, 'kg@2026-03-09': 400 } }] });
    expect(d.receipt.deliveries).toHaveLength(2);
    expect(() => decideReceipt(body, { ...facts(two), applied: decideReceivedQuantities(two, body), houses: new Map() })).toThrow('House H1 not found');
    // a date before the cycle's start is the receipt's date
    const early = { date: '2026-01-20', lines: [{ lineId: 'L1', quantity: 100, flockId: 'FL1' }] };
    expect(() => decideReceipt(early, { ...facts(), applied: decideReceivedQuantities(order(), early) })).toThrow(
      expect.objectContaining({ details: [expect.objectContaining({ field: 'date' })] }),
    );
  });
});

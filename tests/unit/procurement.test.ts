/** Procurement rules (pure): the order lifecycle, receipts against ordered quantities, fill rate, reorder arithmetic. */
import { describe, expect, it } from 'vitest';
import { applyReceipt, lineProblems, reorder, transition } from '../../shared/domain/procurement/orders.js';
import { fillRate, supplierFill } from '../../shared/domain/procurement/fill-rate.js';

const line = (id: string, quantity: number, receivedQuantity = 0, itemKind: 'feed' | 'chicks' = 'feed') => ({ id, itemKind, quantity, receivedQuantity });

describe('procurement rules', () => {
  it('moves draft → ordered, cancels until fully received, refuses the rest naming the status', () => {
    expect(transition('draft', 'place')).toEqual({ to: 'ordered' });
    expect(transition('partially_received', 'cancel')).toEqual({ to: 'cancelled' });
    expect(transition('received', 'cancel')).toEqual({ refused: expect.stringContaining('received cannot be cancelled') });
    expect(transition('ordered', 'place')).toHaveProperty('refused');
  });

  it('adds receipts to lines; partially received until every line has its quantity; over-delivery only when allowed', () => {
    const lines = [line('a', 1000), line('b', 200)];
    const first = applyReceipt(lines, [{ lineId: 'a', quantity: 600 }], false);
    expect(first).toMatchObject({ status: 'partially_received', lines: [{ receivedQuantity: 600 }, { receivedQuantity: 0 }] });
    expect(applyReceipt([line('a', 1000, 600)], [{ lineId: 'a', quantity: 400 }], false)).toMatchObject({ status: 'received' });
    expect(applyReceipt([line('a', 1000, 600)], [{ lineId: 'a', quantity: 401 }], false)).toEqual({
      problems: [{ field: 'lines.0.quantity', message: expect.stringContaining('400 outstanding') }],
    });
    expect(applyReceipt([line('a', 1000, 600)], [{ lineId: 'a', quantity: 401 }], true)).toMatchObject({ status: 'received' });
    expect(
      applyReceipt(
        lines,
        [
          { lineId: 'x', quantity: 1 },
          { lineId: 'a', quantity: 1 },
          { lineId: 'a', quantity: 1 },
        ],
        false,
      ),
    ).toEqual({
      problems: [
        { field: 'lines.0.lineId', message: 'no line x in this order' },
        { field: 'lines.2.lineId', message: 'is named twice; one entry per line' },
      ],
    });
    expect(applyReceipt([line('c', 500, 0, 'chicks')], [{ lineId: 'c', quantity: 0.5 }], false)).toHaveProperty('problems');
  });

  it('checks lines against the supplier’s kinds and units', () => {
    expect(lineProblems([{ itemKind: 'feed', feedType: 'starter', quantity: 1, unit: 'kg', unitPrice: 1 }], ['feed'])).toEqual([]);
    expect(lineProblems([{ itemKind: 'feed', quantity: 1, unit: 'birds', unitPrice: 1 }], ['chicks']).map((p) => p.field)).toEqual([
      'lines.0.itemKind',
      'lines.0.unit',
      'lines.0.feedType',
    ]);
  });

  it('fill rate caps over-delivery per line', () => {
    expect(fillRate([line('a', 1000, 1200), line('b', 1000, 500)])).toEqual({ orderedKg: 2000, receivedKg: 1500, pct: 75 });
    expect(fillRate([]).pct).toBeNull();
  });

  it('fill rate counts closed lines only: fully received, of a cancelled order, or past due on its farm’s calendar', () => {
    type Status = 'ordered' | 'partially_received' | 'received' | 'cancelled';
    const order = (status: Status, expectedDate: string, lines: ReturnType<typeof line>[], farmId = 'F1') => ({ farmId, status, expectedDate, lines });
    const todayOf = (farmId: string) => (farmId === 'F2' ? '2026-03-11' : '2026-03-10');
    // an order half received so far and due in two days is not short: nothing is closed yet, and the figure says why
    expect(supplierFill([order('partially_received', '2026-03-12', [line('a', 1000, 500)])], todayOf, 'no feed receipt')).toEqual({
      pct: { value: null, unit: '%', reason: 'no closed feed line yet: 1 still being delivered (left out)' },
      fill: { orderedKg: 0, receivedKg: 0, lines: 0, openLines: 1 },
    });
    const orders = [
      order('partially_received', '2026-03-10', [line('due-today', 1000, 500)]),
      order('partially_received', '2026-03-09', [line('past-due', 1000, 500)]),
      order('cancelled', '2026-03-20', [line('cancelled', 1000, 250)]),
      order('partially_received', '2026-03-20', [line('full', 500, 500), line('open', 500, 0), line('chicks', 10, 0, 'chicks')]),
      // due on the 10th: past due on a farm whose today is already the 11th
      order('partially_received', '2026-03-10', [line('past-due-there', 500, 250)], 'F2'),
    ];
    expect(supplierFill(orders, todayOf, 'no feed receipt')).toEqual({
      pct: { value: 50, unit: '%', assumptions: ['2 feed lines still being delivered left out'] },
      fill: { orderedKg: 3000, receivedKg: 1500, lines: 4, openLines: 2 },
    });
    expect(supplierFill([], todayOf, 'no feed receipt').pct).toEqual({ value: null, unit: '%', reason: 'no feed receipt' });
  });

  it('reorders enough for the cover after the lead time, rounded up to 100 kg', () => {
    expect(reorder({ stockKg: 200, dailyKg: 100, leadDays: 3, coverDays: 14 })).toEqual({ quantityKg: 1400, daysOfStock: 2 });
    expect(reorder({ stockKg: 2000, dailyKg: 100, leadDays: 3, coverDays: 14 })).toEqual({ quantityKg: 0, daysOfStock: 20 });
    expect(reorder({ stockKg: 500, dailyKg: 0, leadDays: 3, coverDays: 14 })).toEqual({ quantityKg: 0, daysOfStock: null });
  });
});

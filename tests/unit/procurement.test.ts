/** Procurement rules (pure): the order lifecycle, receipts against ordered quantities, fill rate, reorder arithmetic. */
import { describe, expect, it } from 'vitest';
import { applyReceipt, fillRate, lineProblems, reorder, transition } from '../../shared/domain/procurement/orders.js';

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

  it('reorders enough for the cover after the lead time, rounded up to 100 kg', () => {
    expect(reorder({ stockKg: 200, dailyKg: 100, leadDays: 3, coverDays: 14 })).toEqual({ quantityKg: 1400, daysOfStock: 2 });
    expect(reorder({ stockKg: 2000, dailyKg: 100, leadDays: 3, coverDays: 14 })).toEqual({ quantityKg: 0, daysOfStock: 20 });
    expect(reorder({ stockKg: 500, dailyKg: 0, leadDays: 3, coverDays: 14 })).toEqual({ quantityKg: 0, daysOfStock: null });
  });
});

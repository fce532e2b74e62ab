/** A cycle's egg lots rebuilt from its egg history, without a database (shared/domain/eggs/lot-history.ts). */
import { describe, expect, it } from 'vitest';
import { decideLotBackfill, lotDifferences, lotsFromMovements, type EggHistoryMovement } from '../../shared/domain/eggs/lot-history.js';

let n = 0;
const m = (type: string, date: string, fields: Record<string, unknown>): EggHistoryMovement => ({
  id: `M${String(++n).padStart(3, '0')}`,
  type,
  date,
  createdAt: `2026-01-01T00:00:${String(n).padStart(2, '0')}Z`,
  fields,
});

describe('lotsFromMovements', () => {
  it('collections add to their day (grades kept), older draws take the oldest lots of their kind laid by their date', () => {
    const sale = m('egg_sale', '2026-03-04', { quantity: 700 });
    const graded = m('egg_loss', '2026-03-04', { quantity: 50, grade: 'L' });
    const h = lotsFromMovements([
      m('egg_collection', '2026-03-01', { totalEggs: 500, grades: { L: 100 } }),
      m('egg_collection', '2026-03-02', { totalEggs: 600 }),
      m('egg_collection', '2026-03-05', { totalEggs: 900 }),
      sale,
      graded,
      m('medication', '2026-03-01', { product: 'x' }),
    ]);
    expect(h.lots).toEqual([
      { laidOn: '2026-03-01', count: 50, laid: 500, ungraded: 0, graded: { L: 50 } },
      { laidOn: '2026-03-02', count: 300, laid: 600, ungraded: 300, graded: {} },
      { laidOn: '2026-03-05', count: 900, laid: 900, ungraded: 900, graded: {} },
    ]);
    expect(h.assigned.get(sale.id)).toEqual([
      { laidOn: '2026-03-01', quantity: 400 },
      { laidOn: '2026-03-02', quantity: 300 },
    ]);
    expect(h.assigned.get(graded.id)).toEqual([{ laidOn: '2026-03-01', quantity: 50 }]);
    expect(h.shortfall).toBe(0);
  });

  it('recorded draws take their lots first; transfers in add to their recorded laying days (or their date), as their grade', () => {
    const older = m('egg_transfer_in', '2026-03-03', { quantity: 200 });
    const h = lotsFromMovements([
      m('egg_collection', '2026-03-01', { totalEggs: 300 }),
      m('egg_sale', '2026-03-06', { quantity: 100, fromLots: [{ laidOn: '2026-03-01', quantity: 100 }] }),
      m('egg_transfer_in', '2026-03-04', { quantity: 80, grade: 'M', fromLots: [{ laidOn: '2026-02-27', quantity: 80 }] }),
      older,
    ]);
    expect(h.lots.map((l) => [l.laidOn, l.count, l.ungraded, l.graded])).toEqual([
      ['2026-02-27', 80, 0, { M: 80 }],
      ['2026-03-01', 200, 200, {}],
      ['2026-03-03', 200, 200, {}],
    ]);
    expect(h.assigned.get(older.id)).toEqual([{ laidOn: '2026-03-03', quantity: 200 }]);
  });

  it('an older draw short of eggs by its date takes later lots; what no lot holds is the shortfall, recorded on no movement', () => {
    const early = m('egg_sale', '2026-03-01', { quantity: 100 });
    const over = m('egg_sale', '2026-03-09', { quantity: 500 });
    const h = lotsFromMovements([m('egg_collection', '2026-03-02', { totalEggs: 300 }), early, over]);
    expect(h.assigned.get(early.id)).toEqual([{ laidOn: '2026-03-02', quantity: 100 }]);
    expect(h.assigned.has(over.id)).toBe(false);
    expect(h.shortfall).toBe(300);
    expect(h.lots[0]!.count).toBe(0);
  });
});

describe('lotDifferences and decideLotBackfill', () => {
  it('writes what the stored lots lack, nothing for a lot in step, and audits the cycle only when it changes', () => {
    const movements = [m('egg_collection', '2026-03-01', { totalEggs: 300 }), m('egg_collection', '2026-03-02', { totalEggs: 100, grades: { S: 40 } })];
    const inStep = { laidOn: '2026-03-02', count: 100, laid: 100, ungraded: 60, graded: { S: 40 } };
    const d = decideLotBackfill('C1', movements, [inStep]);
    expect(d.differences).toEqual([{ laidOn: '2026-03-01', stored: undefined, add: { count: 300, laid: 300, ungraded: 300 } }]);
    expect(d.onHand).toBe(400);
    expect(d.audit).toEqual([
      expect.objectContaining({
        action: 'egg_lots.backfill',
        targetType: 'cycle',
        targetId: 'C1',
        changes: expect.objectContaining({ lots: { from: null, to: ['2026-03-01'] } }),
      }),
    ]);
    const again = decideLotBackfill('C1', movements, [{ laidOn: '2026-03-01', count: 300, laid: 300, ungraded: 300, graded: {} }, inStep]);
    expect(again.differences).toEqual([]);
    expect(again.audit).toEqual([]);
    expect(lotDifferences([inStep], [{ ...inStep, count: 90, ungraded: 50 }])).toEqual([
      { laidOn: '2026-03-02', stored: { ...inStep, count: 90, ungraded: 50 }, add: { count: 10, ungraded: 10 } },
    ]);
  });
});

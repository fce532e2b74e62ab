import { describe, expect, it } from 'vitest';
import { effectsOf, netChanges } from '../../shared/domain/ledger.js';
import { balancesByDate, datedDecreases, shortfallCaused, shortfallsOf, shortfallWarnings } from '../../shared/domain/stock-dates.js';

const ref = { flockId: 'f1', cycleId: 'c1', farmId: 'farm1' };
const feedChange = (...movements: Parameters<typeof effectsOf>[0][]) =>
  netChanges(movements.flatMap((m) => effectsOf(m, 1, 'starter'))).find((c) => c.target.kind === 'feed')!;
/** A stock item after the given movements, as the ledger's ADDs leave it. */
const itemAfter = (...movements: Parameters<typeof effectsOf>[0][]) => feedChange(...movements).amounts as Record<string, unknown>;

describe('the balance of a farm stock at every date', () => {
  it('reads the balance at each past date from the balance now and the dated changes', () => {
    const dated = new Map([
      ['2026-11-20', 100],
      ['2026-11-22', -80],
      ['2026-11-27', 50],
    ]);
    expect(balancesByDate(70, dated)).toEqual([
      { date: '2026-11-20', balance: 100 },
      { date: '2026-11-22', balance: 20 },
      { date: '2026-11-27', balance: 70 },
    ]);
    // stock booked before per-date counters existed is an opening balance before the first date
    expect(balancesByDate(570, dated)[0]).toEqual({ date: '2026-11-20', balance: 600 });
  });

  it('a delivery of 100 kg dated the 27th does not cover 80 kg consumed on the 22nd: short from the 22nd until the 27th', () => {
    const stock = itemAfter({ type: 'feed_delivery', date: '2026-11-27', feedType: 'starter', quantityKg: 100 });
    const consumption = feedChange({ type: 'feed_consumption', date: '2026-11-22', quantityKg: 80 });
    expect(shortfallCaused({ balance: 'kg', current: stock, amounts: consumption.amounts })).toEqual({ from: '2026-11-22', until: '2026-11-27', lowest: -80 });
    const after = { kg: 20, 'kg@2026-11-27': 100, 'kg@2026-11-22': -80 };
    expect(
      shortfallsOf(
        20,
        new Map(
          Object.entries(after)
            .filter(([k]) => k.includes('@'))
            .map(([k, v]) => [k.slice(3), v]),
        ),
      ),
    ).toEqual([{ from: '2026-11-22', until: '2026-11-27', lowest: -80 }]);
  });

  it('a consumption the deliveries dated before it cover, a delivery, or a consumption dated today, leaves no shortfall', () => {
    const stock = itemAfter({ type: 'feed_delivery', date: '2026-11-20', feedType: 'starter', quantityKg: 100 });
    const covered = feedChange({ type: 'feed_consumption', date: '2026-11-22', quantityKg: 80 });
    expect(shortfallCaused({ balance: 'kg', current: stock, amounts: covered.amounts })).toBeNull();
    const delivery = feedChange({ type: 'feed_delivery', date: '2026-11-01', feedType: 'starter', quantityKg: 5 });
    expect(shortfallCaused({ balance: 'kg', current: stock, amounts: delivery.amounts })).toBeNull();
    // only a decrease dated before today needs the stock read: a delivery never, a consumption dated today never
    expect(datedDecreases([{ ref, changes: [delivery] }], '2026-11-27')).toEqual([]);
    const today = feedChange({ type: 'feed_consumption', date: '2026-11-27', quantityKg: 80 });
    expect(datedDecreases([{ ref, changes: [today] }], '2026-11-27')).toEqual([]);
    expect(datedDecreases([{ ref, changes: [today] }], '2026-11-28')).toEqual([{ farmId: 'farm1', target: today.target, change: today }]);
  });

  it('a shortfall that was already there is not warned again unless the entry deepens it', () => {
    const short = { kg: 20, 'kg@2026-11-27': 100, 'kg@2026-11-22': -80 };
    const later = feedChange({ type: 'feed_consumption', date: '2026-11-28', quantityKg: 10 });
    expect(shortfallCaused({ balance: 'kg', current: short, amounts: later.amounts })).toBeNull();
    const deeper = feedChange({ type: 'feed_consumption', date: '2026-11-23', quantityKg: 10 });
    expect(shortfallCaused({ balance: 'kg', current: short, amounts: deeper.amounts })).toEqual({ from: '2026-11-22', until: '2026-11-27', lowest: -90 });
  });

  it('moving a consumption to an earlier date, before the delivery, is a decrease at the new date', () => {
    const stock = itemAfter(
      { type: 'feed_delivery', date: '2026-11-20', feedType: 'starter', quantityKg: 100 },
      { type: 'feed_consumption', date: '2026-11-22', quantityKg: 80 },
    );
    const moved = netChanges([
      ...effectsOf({ type: 'feed_consumption', date: '2026-11-22', quantityKg: 80 }, -1, 'starter'),
      ...effectsOf({ type: 'feed_consumption', date: '2026-11-18', quantityKg: 80 }, 1, 'starter'),
    ]).find((c) => c.target.kind === 'feed')!;
    // the balance now is unchanged; what was taken out moves from the 22nd to the 18th
    expect(moved.amounts).toEqual({ 'kg@2026-11-22': 80, 'kgOut@2026-11-22': -80, 'kg@2026-11-18': -80, 'kgOut@2026-11-18': 80 });
    expect(shortfallCaused({ balance: 'kg', current: stock, amounts: moved.amounts })).toEqual({ from: '2026-11-18', until: '2026-11-20', lowest: -80 });
  });

  it('the warning names the stock, the dates and the kilos, and what to do', () => {
    const stock = itemAfter({ type: 'feed_delivery', date: '2026-11-27', feedType: 'starter', quantityKg: 100 });
    const change = feedChange({ type: 'feed_consumption', date: '2026-11-22', quantityKg: 80 });
    const [warning] = shortfallWarnings(datedDecreases([{ ref, changes: [change] }], '2026-11-27'), () => stock);
    expect(warning).toMatchObject({
      code: 'stock_short_at_date',
      stock: 'feed',
      feedType: 'starter',
      farmId: 'farm1',
      from: '2026-11-22',
      until: '2026-11-27',
      lowest: -80,
    });
    expect(warning!.message).toBe(
      'Feed "starter" would have been 80 kg short from 2026-11-22 until 2026-11-27: record the delivery dated on or before 2026-11-22 that covered it, or correct this entry\'s date',
    );
  });
});

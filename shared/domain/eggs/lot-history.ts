/**
 * A cycle's egg lots rebuilt from its egg history, without I/O: for eggs recorded before lots existed
 * (a cycle restored from an export without `egg_lot` records, or live data older than the lots), the
 * lots are what the cycle's movements say they are. The lots of movements recorded since are the same
 * whichever way they are read (collections add to their day, draws take the lots they recorded), so the
 * difference between the rebuilt lots and the stored ones is exactly what the older movements never wrote.
 */
import { drawsEggs, lotBalanceOf, type EggLot, type LotDraw } from './lots.js';

/** A lot as rebuilt: what it holds (as an `EggLot`) and the eggs laid on its day in the cycle. */
export interface LotBalance extends EggLot {
  laid: number;
}

/** What the rebuild reads of a movement: the stored movement's type, date, order and fields. */
export interface EggHistoryMovement {
  id: string;
  type: string;
  date: string;
  createdAt: string;
  fields: Record<string, unknown>;
}

export interface LotHistory {
  /** Every laying day the history names, oldest first (lots emptied since included, at zero). */
  lots: LotBalance[];
  /** The lots given to the movements that recorded none (older sales, losses and transfers), by movement id. */
  assigned: Map<string, LotDraw[]>;
  /** Eggs the history takes out that no lot held (eggs of another cycle sold through this one before lots): left out. */
  shortfall: number;
}

const eggTypes = new Set(['egg_collection', 'egg_transfer_in', 'egg_sale', 'egg_loss', 'egg_transfer_out']);
const byDate = (a: EggHistoryMovement, b: EggHistoryMovement) =>
  a.date.localeCompare(b.date) || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);
const recordedLots = (m: EggHistoryMovement) => m.fields.fromLots as LotDraw[] | undefined;
const gradeOf = (m: EggHistoryMovement) => (typeof m.fields.grade === 'string' && m.fields.grade ? m.fields.grade : undefined);

/** Whether a stored movement is one the egg lots follow. */
export const changesEggLots = (type: string): boolean => eggTypes.has(type);

/**
 * The lots a cycle's egg movements make: a collection adds its eggs to the lot of its day (its graded
 * eggs per grade, the rest ungraded); a transfer in adds them to the lots it recorded (the sender's
 * laying days) or, recorded before lots, to the lot of its date, as its grade or ungraded; a sale, loss
 * or transfer out takes the lots it recorded. Those that recorded none are taken afterwards, in date
 * order, from the oldest lots of their kind (their grade, else ungraded) laid on or before their date,
 * as the default draw does, then from the oldest of that kind on hand; what no lot holds is the shortfall.
 * An edited or corrected movement counts as it stands (the history holds it once, as it is now).
 */
export function lotsFromMovements(movements: readonly EggHistoryMovement[]): LotHistory {
  const lots = new Map<string, LotBalance>();
  const lot = (laidOn: string) => {
    const l = lots.get(laidOn) ?? { laidOn, count: 0, laid: 0, ungraded: 0, graded: {} };
    lots.set(laidOn, l);
    return l;
  };
  const add = (l: LotBalance, grade: string | undefined, n: number) => {
    l.count += n;
    if (grade) l.graded[grade] = (l.graded[grade] ?? 0) + n;
    else l.ungraded += n;
  };
  const held = (l: LotBalance, grade: string | undefined) => (grade ? (l.graded[grade] ?? 0) : l.ungraded);
  let shortfall = 0;
  const take = (l: LotBalance, grade: string | undefined, wanted: number) => {
    const n = Math.min(wanted, held(l, grade));
    add(l, grade, -n);
    return n;
  };
  const history = movements.filter((m) => changesEggLots(m.type)).sort(byDate);
  const later: EggHistoryMovement[] = [];
  const assigned = new Map<string, LotDraw[]>();
  for (const m of history) {
    const quantity = Number(m.type === 'egg_collection' ? m.fields.totalEggs : m.fields.quantity) || 0;
    if (m.type === 'egg_collection') {
      const l = lot(m.date);
      l.laid += quantity;
      const grades = Object.entries((m.fields.grades ?? {}) as Record<string, number>).filter(([, n]) => n > 0);
      for (const [grade, n] of grades) add(l, grade, n);
      add(l, undefined, quantity - grades.reduce((a, [, n]) => a + n, 0));
    } else if (m.type === 'egg_transfer_in') {
      const draws = recordedLots(m) ?? [{ laidOn: m.date, quantity }];
      if (!recordedLots(m)) assigned.set(m.id, draws);
      for (const d of draws) add(lot(d.laidOn), gradeOf(m), d.quantity);
    } else if (recordedLots(m)) {
      for (const d of recordedLots(m)!) shortfall += d.quantity - take(lot(d.laidOn), gradeOf(m), d.quantity);
    } else later.push(m);
  }
  for (const m of later) {
    const grade = gradeOf(m);
    const oldest = [...lots.values()].sort((a, b) => a.laidOn.localeCompare(b.laidOn));
    const draws = new Map<string, number>();
    let left = Number(m.fields.quantity) || 0;
    for (const l of [...oldest.filter((l) => l.laidOn <= m.date), ...oldest.filter((l) => l.laidOn > m.date)]) {
      if (left === 0) break;
      const n = take(l, grade, left);
      if (n) draws.set(l.laidOn, (draws.get(l.laidOn) ?? 0) + n);
      left -= n;
    }
    shortfall += left;
    // a draw no lot could cover in full records none (its fromLots would not add up to its quantity)
    if (left === 0 && draws.size)
      assigned.set(
        m.id,
        [...draws].map(([laidOn, quantity]) => ({ laidOn, quantity })).sort((a, b) => a.laidOn.localeCompare(b.laidOn)),
      );
  }
  return { lots: [...lots.values()].sort((a, b) => a.laidOn.localeCompare(b.laidOn)), assigned, shortfall };
}

/** The eggs a cycle holds, by its lots. */
export const eggsInLots = (lots: readonly EggLot[]): number => lots.reduce((a, l) => a + l.count, 0);

/** One lot that differs from its history: the stored lot (none: not stored) and what to add to each balance. */
export interface LotDifference {
  laidOn: string;
  stored: LotBalance | undefined;
  add: Record<string, number>;
}

/** The balances of a lot, by attribute name (`count`, `laid`, `ungraded`, `graded:<grade>`). */
export function lotAttributes(l: LotBalance): Record<string, number> {
  const out: Record<string, number> = { count: l.count, laid: l.laid, ungraded: l.ungraded };
  for (const [grade, n] of Object.entries(l.graded)) out[lotBalanceOf(grade)] = n;
  return out;
}

/** The lots whose stored balances differ from the history's, with what brings each to it (stored lots the history does not name are left alone). */
export function lotDifferences(history: readonly LotBalance[], stored: readonly LotBalance[]): LotDifference[] {
  const storedOn = new Map(stored.map((l) => [l.laidOn, l]));
  const out: LotDifference[] = [];
  for (const h of history) {
    const s = storedOn.get(h.laidOn);
    const want = lotAttributes(h);
    const have = s ? lotAttributes(s) : {};
    const add: Record<string, number> = {};
    for (const k of new Set([...Object.keys(want), ...Object.keys(have)])) {
      const d = (want[k] ?? 0) - (have[k] ?? 0);
      if (d !== 0) add[k] = d;
    }
    if (Object.keys(add).length) out.push({ laidOn: h.laidOn, stored: s, add });
  }
  return out;
}

/** The draws a movement that recorded none is given by the rebuild, as the fields it keeps (`fromLots`). */
export function withAssignedLots(m: EggHistoryMovement, draws: readonly LotDraw[]): Record<string, unknown> {
  return drawsEggs(m.type) || m.type === 'egg_transfer_in' ? { ...m.fields, fromLots: draws } : m.fields;
}

/** What bringing a cycle's lots to its egg history writes: the lots that differ, the movements that recorded no lots, the audit. */
export function decideLotBackfill<M extends EggHistoryMovement>(cycleId: string, movements: readonly M[], stored: readonly LotBalance[]) {
  const history = lotsFromMovements(movements);
  const differences = lotDifferences(history.lots, stored);
  const recorded = movements.flatMap((m) => {
    const draws = history.assigned.get(m.id);
    return draws ? [{ movement: m, fields: withAssignedLots(m, draws) }] : [];
  });
  const changed = differences.length + recorded.length > 0;
  return {
    lots: history.lots,
    differences,
    recorded,
    onHand: eggsInLots(history.lots),
    shortfall: history.shortfall,
    audit: changed
      ? [
          {
            action: 'egg_lots.backfill',
            targetType: 'cycle',
            targetId: cycleId,
            changes: { lots: { from: null, to: differences.map((d) => d.laidOn) }, movements: { from: null, to: recorded.map((r) => r.movement.id) } },
          },
        ]
      : [],
  };
}

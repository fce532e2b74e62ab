/**
 * Egg lots, without I/O. The eggs a cycle's hens lay on one day are one lot of that cycle: collections
 * add to it, and a sale, loss or transfer out takes eggs from named lots or, by default, from the oldest
 * lots on hand first. So every egg that leaves carries its origin (the laying cycle and the laying day),
 * a cycle that laid nothing has nothing to sell, and a withdrawal period is judged on the days the eggs
 * were laid, not on the day they are sold (./../compliance/withdrawals.ts).
 */
import { Conflict, ValidationFailed } from '../../errors.js';

/** A lot as read: its laying day and the eggs of it still on hand, in all, ungraded and per grade. */
export interface EggLot {
  laidOn: string;
  count: number;
  ungraded: number;
  graded: Record<string, number>;
}

/** The eggs of a lot a movement may take: those of its grade, or the ungraded ones. */
const availableIn = (lot: EggLot, grade: string | undefined) => (grade ? (lot.graded[grade] ?? 0) : lot.ungraded);
const kindOf = (grade: string | undefined) => (grade ? `eggs of grade ${grade}` : 'ungraded eggs');

/** What one movement takes from (or, a transfer in, adds to) one lot. */
export interface LotDraw {
  laidOn: string;
  quantity: number;
}

/** Eggs of one grade or size (`graded:L`, no dot: a condition reads a dot as a map path): on a lot a balance of its own, in the farm's stock a count. */
export type GradedAttribute = `graded:${string}`;
const GRADED = 'graded:';
/** An attribute of eggs of one grade. */
export const isGraded = (attribute: string): boolean => attribute.startsWith(GRADED);
/** The balance of a lot a draw takes from: the eggs of its grade, or the ungraded ones. */
export const lotBalanceOf = (grade: string | undefined): 'ungraded' | GradedAttribute => (grade ? `${GRADED}${grade}` : 'ungraded');
/** The eggs per grade an item holds (its `graded:<grade>` attributes: a lot's or the farm's egg stock), by grade, those at zero left out. */
export function gradesOf(item: Record<string, unknown>): Record<string, number> {
  const grades = Object.entries(item).flatMap(([k, n]) => (k.startsWith(GRADED) && Number(n) > 0 ? [[k.slice(GRADED.length), Number(n)] as const] : []));
  return Object.fromEntries(grades.sort(([a], [b]) => a.localeCompare(b)));
}

/** Movement types that take eggs out of the cycle's lots. */
export const EGG_DRAWS = ['egg_sale', 'egg_loss', 'egg_transfer_out'] as const;
export type EggDrawType = (typeof EGG_DRAWS)[number];
export const drawsEggs = (type: string): type is EggDrawType => (EGG_DRAWS as readonly string[]).includes(type);

/** The most lots one movement may take from (a transaction holds at most 100 writes). */
export const MAX_LOTS_PER_MOVEMENT = 60;

const WHAT: Record<EggDrawType, string> = { egg_sale: 'sell', egg_loss: 'record as lost', egg_transfer_out: 'send' };

/**
 * The lots a movement of `quantity` eggs dated `date` takes from: the lots it names (each must hold
 * enough), else the oldest on hand laid on or before `date` first. Refuses (409) what the cycle does not
 * hold, naming what it does: a cycle that laid nothing (or whose eggs are gone) sells nothing.
 */
export function drawFromLots(
  m: { type: EggDrawType; date: string; quantity: number; grade?: string | undefined; fromLots?: readonly LotDraw[] | undefined },
  cycleId: string,
  onHand: readonly EggLot[],
): LotDraw[] {
  const lots = onHand.filter((l) => l.count > 0 && l.laidOn <= m.date).sort((a, b) => a.laidOn.localeCompare(b.laidOn));
  if (m.fromLots) return namedDraws(m, cycleId, lots);
  const all = lots.reduce((a, l) => a + l.count, 0);
  if (all === 0)
    throw new Conflict(
      `Cycle ${cycleId} has no eggs on hand laid on or before ${m.date}: eggs come from the lots its hens laid (collected, not yet sold, lost or sent away), and it holds none`,
    );
  const held = lots.reduce((a, l) => a + availableIn(l, m.grade), 0);
  if (held < m.quantity)
    throw new Conflict(
      `Cycle ${cycleId} holds ${held} ${kindOf(m.grade)} laid on or before ${m.date}; cannot ${WHAT[m.type]} ${m.quantity}${otherEggs(lots, m.grade)}`,
    );
  const out: LotDraw[] = [];
  let left = m.quantity;
  for (const lot of lots) {
    if (left === 0) break;
    const take = Math.min(left, availableIn(lot, m.grade));
    if (take === 0) continue;
    out.push({ laidOn: lot.laidOn, quantity: take });
    left -= take;
  }
  if (out.length > MAX_LOTS_PER_MOVEMENT)
    throw new Conflict(
      `The oldest ${m.quantity} eggs on hand span ${out.length} laying days, more than ${MAX_LOTS_PER_MOVEMENT} in one movement: split it, or name the lots in fromLots`,
    );
  return out;
}

/** What else the lots hold, when a draw falls short: the grades on hand (a sale of graded eggs names its grade). */
function otherEggs(lots: readonly EggLot[], grade: string | undefined): string {
  const totals = new Map<string, number>();
  for (const l of lots) {
    if (grade && l.ungraded > 0) totals.set('ungraded', (totals.get('ungraded') ?? 0) + l.ungraded);
    for (const [g, n] of Object.entries(l.graded)) if (g !== grade && n > 0) totals.set(g, (totals.get(g) ?? 0) + n);
  }
  if (!totals.size) return '';
  return ` (it also holds ${[...totals]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([g, n]) => `${g} ${n}`)
    .join(', ')}: name the grade in \`grade\`, or none for ungraded eggs)`;
}

function namedDraws(
  m: { type: EggDrawType; date: string; quantity: number; grade?: string | undefined; fromLots?: readonly LotDraw[] | undefined },
  cycleId: string,
  lots: readonly EggLot[],
) {
  const named = m.fromLots ?? [];
  const problems = [];
  const total = named.reduce((a, d) => a + d.quantity, 0);
  if (total !== m.quantity) problems.push({ field: 'fromLots', message: `add up to ${total} eggs; quantity is ${m.quantity}` });
  const days = named.map((d) => d.laidOn);
  if (new Set(days).size !== days.length) problems.push({ field: 'fromLots', message: 'names a laying day twice' });
  named.forEach((d, i) => {
    if (d.laidOn > m.date) problems.push({ field: `fromLots.${i}.laidOn`, message: `must not be after the movement's date ${m.date}` });
  });
  if (problems.length) throw new ValidationFailed(problems);
  for (const d of named) {
    const lot = lots.find((l) => l.laidOn === d.laidOn);
    const held = lot ? availableIn(lot, m.grade) : 0;
    if (held < d.quantity)
      throw new Conflict(`Cycle ${cycleId} holds ${held} ${kindOf(m.grade)} laid on ${d.laidOn}; cannot ${WHAT[m.type]} ${d.quantity} of them`);
  }
  return named.map((d) => ({ laidOn: d.laidOn, quantity: d.quantity })).sort((a, b) => a.laidOn.localeCompare(b.laidOn));
}

/** The lots on hand once a movement's own draws (of its grade, or ungraded) are given back: an edit re-draws from them. */
export function withDrawsReturned(onHand: readonly EggLot[], draws: readonly LotDraw[] | undefined, grade: string | undefined): EggLot[] {
  const out = new Map(onHand.map((l) => [l.laidOn, { ...l, graded: { ...l.graded } }]));
  for (const d of draws ?? []) {
    const lot = out.get(d.laidOn) ?? { laidOn: d.laidOn, count: 0, ungraded: 0, graded: {} };
    lot.count += d.quantity;
    if (grade) lot.graded[grade] = (lot.graded[grade] ?? 0) + d.quantity;
    else lot.ungraded += d.quantity;
    out.set(d.laidOn, lot);
  }
  return [...out.values()];
}

/** The laying days a movement's draws span, first and last (none: it drew from no lot). */
export function layingSpan(draws: readonly LotDraw[] | undefined): { from: string; to: string } | undefined {
  if (!draws?.length) return undefined;
  const days = draws.map((d) => d.laidOn).sort();
  return { from: days[0]!, to: days[days.length - 1]! };
}

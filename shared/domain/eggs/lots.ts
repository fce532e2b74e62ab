/**
 * Egg lots, without I/O. The eggs a cycle's hens lay on one day are one lot of that cycle: collections
 * add to it, and a sale, loss or transfer out takes eggs from named lots or, by default, from the oldest
 * lots on hand first. So every egg that leaves carries its origin (the laying cycle and the laying day),
 * a cycle that laid nothing has nothing to sell, and a withdrawal period is judged on the days the eggs
 * were laid, not on the day they are sold (./../compliance/withdrawals.ts).
 */
import { Conflict, ValidationFailed } from '../../errors.js';

/** A lot as read: its laying day and the eggs of it still on hand. */
export interface EggLot {
  laidOn: string;
  count: number;
}

/** What one movement takes from (or, a transfer in, adds to) one lot. */
export interface LotDraw {
  laidOn: string;
  quantity: number;
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
  m: { type: EggDrawType; date: string; quantity: number; fromLots?: readonly LotDraw[] | undefined },
  cycleId: string,
  onHand: readonly EggLot[],
): LotDraw[] {
  const lots = onHand.filter((l) => l.count > 0 && l.laidOn <= m.date).sort((a, b) => a.laidOn.localeCompare(b.laidOn));
  if (m.fromLots) return namedDraws(m, cycleId, lots);
  const held = lots.reduce((a, l) => a + l.count, 0);
  if (held < m.quantity)
    throw new Conflict(
      held === 0
        ? `Cycle ${cycleId} has no eggs on hand laid on or before ${m.date}: eggs come from the lots its hens laid (collected, not yet sold, lost or sent away), and it holds none`
        : `Cycle ${cycleId} holds ${held} eggs laid on or before ${m.date}; cannot ${WHAT[m.type]} ${m.quantity}`,
    );
  const out: LotDraw[] = [];
  let left = m.quantity;
  for (const lot of lots) {
    if (left === 0) break;
    const take = Math.min(left, lot.count);
    out.push({ laidOn: lot.laidOn, quantity: take });
    left -= take;
  }
  if (out.length > MAX_LOTS_PER_MOVEMENT)
    throw new Conflict(
      `The oldest ${m.quantity} eggs on hand span ${out.length} laying days, more than ${MAX_LOTS_PER_MOVEMENT} in one movement: split it, or name the lots in fromLots`,
    );
  return out;
}

function namedDraws(
  m: { type: EggDrawType; date: string; quantity: number; fromLots?: readonly LotDraw[] | undefined },
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
    const held = lots.find((l) => l.laidOn === d.laidOn)?.count ?? 0;
    if (held < d.quantity) throw new Conflict(`Cycle ${cycleId} holds ${held} eggs laid on ${d.laidOn}; cannot ${WHAT[m.type]} ${d.quantity} of them`);
  }
  return named.map((d) => ({ laidOn: d.laidOn, quantity: d.quantity })).sort((a, b) => a.laidOn.localeCompare(b.laidOn));
}

/** The lots on hand once a movement's own draws are given back (an edit re-draws from them). */
export function withDrawsReturned(onHand: readonly EggLot[], draws: readonly LotDraw[] | undefined): EggLot[] {
  const out = new Map(onHand.map((l) => [l.laidOn, l.count]));
  for (const d of draws ?? []) out.set(d.laidOn, (out.get(d.laidOn) ?? 0) + d.quantity);
  return [...out].map(([laidOn, count]) => ({ laidOn, count }));
}

/** The laying days a movement's draws span, first and last (none: it drew from no lot). */
export function layingSpan(draws: readonly LotDraw[] | undefined): { from: string; to: string } | undefined {
  if (!draws?.length) return undefined;
  const days = draws.map((d) => d.laidOn).sort();
  return { from: days[0]!, to: days[days.length - 1]! };
}

/**
 * The cycle summary (the interface contract's "cycle summary with aggregate data") from the running
 * counters kept on the cycle record, so it costs one read however many movements the cycle has. KPI
 * formulas: docs/domain.md.
 */
import { BIRD_FLOW_COUNTERS, recordOf } from './counters.js';

/** The running counters kept on the cycle record (the ledger adds to them: ./ledger.ts), named once. */
export const CYCLE_COUNTERS = [
  ...BIRD_FLOW_COUNTERS,
  'alive',
  'feedDeliveredKg',
  'feedConsumedKg',
  'eggsCollected',
  'eggsCracked',
  'eggsDirty',
  'eggsSold',
  'eggsLost',
  'waterLiters',
  'medications',
  'vaccinations',
  'movementCount',
] as const;
export type CycleCounter = (typeof CYCLE_COUNTERS)[number];
export type CycleCounters = Record<CycleCounter, number>;

export const ZERO_COUNTERS: CycleCounters = recordOf(CYCLE_COUNTERS, () => 0);

const DAY = 86_400_000;
const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Whole days from `from` to `to` (calendar dates or timestamps). */
export function daysBetween(from: string, to: string): number {
  return Math.floor((Date.parse(to.slice(0, 10)) - Date.parse(from.slice(0, 10))) / DAY);
}

export function cycleKpis(c: CycleCounters, latestWeight: { grams: number } | null) {
  const housed = c.placed + c.transferredIn;
  const notes: string[] = [];
  if (housed === 0) notes.push('mortality and livability need birds placed');
  let fcr: number | null = null;
  if (!latestWeight) notes.push('FCR needs a weighing');
  else if (c.alive === 0) notes.push('FCR needs live birds');
  else if (c.feedConsumedKg === 0) notes.push('FCR needs feed consumed');
  else fcr = round(c.feedConsumedKg / ((c.alive * latestWeight.grams) / 1000), 3);
  return {
    // Deaths ÷ placed × 100 (culls, sales and transfers are kept apart); birds transferred in count as placed (docs/domain.md).
    mortalityPct: housed ? round((c.deaths / housed) * 100, 2) : null,
    // Birds alive or shipped (sold, transferred out) ÷ placed × 100.
    livabilityPct: housed ? round(((c.alive + c.sold + c.transferredOut) / housed) * 100, 2) : null,
    fcr,
    notes,
  };
}

export function ageDays(hatchDate: string | null, startDate: string, endDate: string | null, today: Date): number {
  const until = endDate ?? today.toISOString().slice(0, 10);
  return Math.max(0, daysBetween(hatchDate ?? startDate, until));
}

/**
 * The cycle summary (the interface contract's "cycle summary with aggregate data") from the running
 * counters kept on the cycle record, so it costs one read however many movements the cycle has. Its
 * KPIs are the flock analytics' Figures (./flock-analytics.ts `headlineKpis`); formulas: docs/domain.md.
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

/** Whole days from `from` to `to` (calendar dates or timestamps). */
export function daysBetween(from: string, to: string): number {
  return Math.floor((Date.parse(to.slice(0, 10)) - Date.parse(from.slice(0, 10))) / DAY);
}

export function ageDays(hatchDate: string | null, startDate: string, endDate: string | null, today: Date): number {
  const until = endDate ?? today.toISOString().slice(0, 10);
  return Math.max(0, daysBetween(hatchDate ?? startDate, until));
}

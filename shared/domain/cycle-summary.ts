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

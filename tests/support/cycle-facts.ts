/** The facts of an active cycle for the pure analytics tests. */
import type { CycleFacts } from '../../shared/domain/analytics/inputs.js';

/** An active layer cycle of no breed, hatched and started on `start`, with `facts` over it. */
export const cycleFactsOf = (start: string, facts: Partial<CycleFacts> = {}): CycleFacts => ({
  cycleId: 'c',
  flockId: 'f',
  birdType: 'layer',
  breed: null,
  hatchDate: start,
  startDate: start,
  endDate: null,
  status: 'active',
  targetAgeDays: null,
  targetWeightGrams: null,
  houseAreaM2: null,
  ...facts,
});

/** An active Ross 308 broiler cycle hatched and started on `start`. */
export const rossBroilerCycle = (start: string, facts: Partial<CycleFacts> = {}): CycleFacts =>
  cycleFactsOf(start, { birdType: 'broiler', breed: 'Ross 308', ...facts });

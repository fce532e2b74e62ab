/** The facts of an active Ross 308 broiler cycle for the pure analytics tests: hatched and started on `start`. */
import type { CycleFacts } from '../../shared/domain/analytics/inputs.js';

export const rossBroilerCycle = (start: string, facts: Partial<CycleFacts> = {}): CycleFacts => ({
  cycleId: 'c',
  flockId: 'f',
  birdType: 'broiler',
  breed: 'Ross 308',
  hatchDate: start,
  startDate: start,
  endDate: null,
  status: 'active',
  targetAgeDays: null,
  targetWeightGrams: null,
  houseAreaM2: null,
  ...facts,
});

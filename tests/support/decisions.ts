import { ZERO_COUNTERS } from '../../shared/domain/cycle-summary.js';
import type { CycleRecord } from '../../shared/domain/flocks/records.js';
import { Invalid } from '../../shared/errors.js';

/** The field problems a pure decision names when it refuses its input (it throws anything else on). */
export function detailsOf(decide: () => unknown) {
  try {
    decide();
  } catch (err) {
    if (err instanceof Invalid) return err.details;
    throw err;
  }
  throw new Error('not refused');
}

/** An active broiler cycle of flock fl1 on farm f1, hatched 2026-03-01 and started the day after, without birds yet. */
export const aCycle = (overrides: Partial<CycleRecord> = {}): CycleRecord => ({
  ...ZERO_COUNTERS,
  id: 'c1',
  flockId: 'fl1',
  farmId: 'f1',
  birdType: 'broiler',
  hatchDate: '2026-03-01',
  name: null,
  status: 'active',
  startDate: '2026-03-02',
  endDate: null,
  closedAt: null,
  targetAgeDays: null,
  targetWeightGrams: null,
  notes: null,
  latestWeight: null,
  createdAt: '2026-03-02T00:00:00.000Z',
  updatedAt: '2026-03-02T00:00:00.000Z',
  version: 3,
  ...overrides,
});

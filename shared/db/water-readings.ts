import type { Write } from './commit.js';
import { absent, any, isNew, sizeBelow } from './conditions.js';
import { dayRollupKey, waterReadingKey } from './keys.js';
import type { WaterReadingRecord } from '../domain/analytics/records.js';
import { Conflict } from '../errors.js';

/**
 * Drinking-water readings: the reading itself and its pH appended to the day's rollup (`waterPh`), in one
 * transaction with a check that the cycle is still active. Analytics read the pH values from the rollups,
 * never the raw readings. A day keeps at most MAX_READINGS_PER_DAY values (one every 5 minutes).
 */
export const MAX_READINGS_PER_DAY = 288;

/** The reading (new) and its pH appended to the day's rollup, which keeps at most MAX_READINGS_PER_DAY. */
export function waterReadingWrites(r: WaterReadingRecord): Write[] {
  return [
    { put: { ...waterReadingKey(r.cycleId, r.date, r.id), type: 'WaterReading', ...r }, when: isNew() },
    {
      update: dayRollupKey(r.cycleId, r.date),
      set: { entity: 'DayRollup', cycleId: r.cycleId, flockId: r.flockId, date: r.date, updatedAt: r.createdAt },
      append: { waterPh: [r.pH] },
      when: any(absent('waterPh'), sizeBelow('waterPh', MAX_READINGS_PER_DAY)),
      failed: () => new Conflict(`${r.date} already has ${MAX_READINGS_PER_DAY} water readings; that is the most one day keeps`),
    },
  ];
}

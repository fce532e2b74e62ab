import { tableName, transact, type TransactItem } from './client.js';
import { dayRollupKey, waterReadingKey } from './keys.js';
import { cycleOpenCheck } from './weights.js';
import { Conflict, type AppError } from '../errors.js';

/**
 * Drinking-water readings: the reading itself and its pH appended to the day's rollup (`waterPh`), in one
 * transaction with a check that the cycle is still active. Analytics read the pH values from the rollups,
 * never the raw readings. A day keeps at most MAX_READINGS_PER_DAY values (one every 5 minutes).
 */
export const MAX_READINGS_PER_DAY = 288;

export interface WaterReadingRecord {
  id: string;
  flockId: string;
  cycleId: string;
  farmId: string;
  date: string;
  pH: number;
  temperatureC: number | null;
  tdsPpm: number | null;
  chlorinePpm: number | null;
  orpMv: number | null;
  hardnessPpm: number | null;
  source: string | null;
  notes: string | null;
  createdAt: string;
  createdBy: string;
}

export async function writeWaterReading(r: WaterReadingRecord, extra: TransactItem[], onExtraFailed: () => AppError): Promise<void> {
  const T = tableName();
  const items: TransactItem[] = [
    {
      Put: { TableName: T, Item: { ...waterReadingKey(r.cycleId, r.date, r.id), type: 'WaterReading', ...r }, ConditionExpression: 'attribute_not_exists(PK)' },
    },
    {
      Update: {
        TableName: T,
        Key: dayRollupKey(r.cycleId, r.date),
        UpdateExpression:
          'SET waterPh = list_append(if_not_exists(waterPh, :empty), :ph), entity = :entity, cycleId = :cycleId, flockId = :flockId, #date = :date, updatedAt = :now',
        ConditionExpression: 'attribute_not_exists(waterPh) OR size(waterPh) < :max',
        ExpressionAttributeNames: { '#date': 'date' },
        ExpressionAttributeValues: {
          ':empty': [],
          ':ph': [r.pH],
          ':entity': 'DayRollup',
          ':cycleId': r.cycleId,
          ':flockId': r.flockId,
          ':date': r.date,
          ':now': r.createdAt,
          ':max': MAX_READINGS_PER_DAY,
        },
      },
    },
    cycleOpenCheck({ flockId: r.flockId, id: r.cycleId }),
    ...extra,
  ];
  await transact(items, (index) => {
    if (index === 1) return new Conflict(`${r.date} already has ${MAX_READINGS_PER_DAY} water readings; that is the most one day keeps`);
    if (index === 2) return new Conflict(`Cycle ${r.cycleId} is closed; it takes no new readings`);
    return index > 2 ? onExtraFailed() : new Conflict('The reading was written concurrently; retry');
  });
}

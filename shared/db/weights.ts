import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { WeightRecord } from '../domain/flocks/records.js';
import type { DayAggregate } from '../domain/weights.js';
import type { AppError } from '../errors.js';
import { batchGet, db, tableName } from './client.js';
import type { Write } from './commit.js';
import { absent, all, any, eq, isNew, le } from './conditions.js';
import { cycleFromItem } from './cycles.js';
import type { CycleRecord } from '../domain/flocks/records.js';
import { deviceFromItem } from './devices.js';
import type { DeviceRecord } from '../domain/iot/records.js';
import { flockFromItem } from './flocks.js';
import type { FlockRecord } from '../domain/flocks/records.js';
import { pick } from './items.js';
import { CYCLE_SK_PREFIX, cycleKey, cyclePartition, deviceKey, flockKey, WEIGHT_SK_PREFIX, weightKey } from './keys.js';
import { queryPage } from './pagination.js';

/**
 * Weighing sessions of a cycle: `CYCLE#<cycleId>` / `WEIGHT#<date>#<method>#<id>`, so one Query of the
 * cycle's partition returns them in date order. Manual samples are one item each (id = ULID, with the
 * individual weights when sent); an automatic scale keeps one item per device and day (id = device id)
 * holding the running aggregate that later batches merge into (`day`: count, Σx, Σx², histogram).
 */

/** What a list returns: everything but the bulky inputs (samples, histogram). */
const LISTED: readonly (keyof WeightRecord)[] = [
  'id',
  'cycleId',
  'flockId',
  'farmId',
  'date',
  'method',
  'deviceId',
  'houseId',
  'grams',
  'sampleSize',
  'sd',
  'cv',
  'uniformityPct',
  'notes',
  'createdAt',
  'createdBy',
  'updatedAt',
  'version',
];

export function weightFromItem(item: Record<string, unknown> | undefined): WeightRecord | undefined {
  if (!item) return undefined;
  const record = pick<WeightRecord>(item, LISTED, null);
  if (item.samples) record.samples = item.samples as number[];
  if (item.day) record.day = item.day as DayAggregate;
  return record;
}

export const weightKeyOf = (r: Pick<WeightRecord, 'cycleId' | 'date' | 'method' | 'id'>) => weightKey(r.cycleId, r.date, r.method, r.id);

/**
 * The writes of weighings: a session, new (`read` undefined: it must not exist) or replacing the version
 * read; the cycle's latest weight (read by the summary's FCR), set if the cycle is still open and the
 * latest weighing it holds is not newer (a concurrent newer weighing or a close fails it). `failed`: the
 * error either condition failing means.
 */
export const weightWrites = {
  session: (r: WeightRecord, read: number | undefined, failed: () => AppError): Write => ({
    put: { ...weightKeyOf(r), entity: 'Weight', ...r },
    ...(read === undefined ? { when: isNew() } : { version: { read, what: `Weighing ${r.id} of ${r.date}` } }),
    failed,
  }),
  latest: (cycle: Pick<CycleRecord, 'flockId' | 'id'>, latest: { date: string; grams: number }, now: string, failed: () => AppError): Write => ({
    update: cycleKey(cycle.flockId, cycle.id),
    set: { latestWeight: latest, updatedAt: now },
    when: all(eq('status', 'active'), any(absent('latestWeight'), eq('latestWeight', null), le('latestWeight.date', latest.date))),
    failed,
  }),
};

/** The cycle must still be open (a weighing older than the latest one leaves the cycle as it is). */
export const cycleIsOpen = (cycle: Pick<CycleRecord, 'flockId' | 'id'>, failed?: () => AppError): Write => ({
  check: cycleKey(cycle.flockId, cycle.id),
  when: eq('status', 'active'),
  ...(failed ? { failed } : {}),
});

/** A scale batch's state in ONE read: the flock, the cycle and the device's stored sessions of the batch's dates. */
export async function scaleState(
  flockId: string,
  cycleId: string,
  deviceId: string,
  dates: readonly string[],
): Promise<{ flock?: FlockRecord; cycle?: CycleRecord; device?: DeviceRecord; days: Map<string, WeightRecord> }> {
  const sessionKeys = dates.map((d) => weightKey(cycleId, d, 'automatic_scale', deviceId));
  const items = await batchGet([flockKey(flockId), cycleKey(flockId, cycleId), deviceKey(deviceId), ...sessionKeys], { consistent: true });
  const days = new Map<string, WeightRecord>();
  let flock: FlockRecord | undefined;
  let cycle: CycleRecord | undefined;
  let device: DeviceRecord | undefined;
  for (const item of items) {
    const sk = String(item.SK);
    if (item.PK === deviceKey(deviceId).PK && sk === deviceKey(deviceId).SK) device = deviceFromItem(item);
    else if (item.PK === flockKey(flockId).PK && sk === 'META') flock = flockFromItem(item);
    else if (sk.startsWith(CYCLE_SK_PREFIX)) cycle = cycleFromItem(item);
    else if (sk.startsWith(WEIGHT_SK_PREFIX)) {
      const r = weightFromItem(item)!;
      days.set(r.date, r);
    }
  }
  return { flock, cycle, device, days };
}

/** The sessions of a cycle in date order (optionally from/to a date), without samples and histograms. */
/** Whether the cycle has the weighing session `weighingId` on `date` (one consistent Query of that day's weighings). */
export async function hasWeighingOn(cycleId: string, date: string, weighingId: string): Promise<boolean> {
  const res = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
      FilterExpression: 'id = :id',
      ExpressionAttributeValues: { ':pk': cyclePartition(cycleId), ':sk': `${WEIGHT_SK_PREFIX}${date}#`, ':id': weighingId },
      ConsistentRead: true,
    }),
  );
  return (res.Items?.length ?? 0) > 0;
}

export async function listWeights(cycleId: string, opts: { limit: number; cursor?: string; from?: string; to?: string }) {
  const pk = cyclePartition(cycleId);
  const names: Record<string, string> = {};
  const projection = LISTED.map((f, i) => {
    names[`#p${i}`] = f;
    return `#p${i}`;
  }).join(', ');
  const page = await queryPage(
    {
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': pk, ':from': `${WEIGHT_SK_PREFIX}${opts.from ?? ''}`, ':to': `${WEIGHT_SK_PREFIX}${opts.to ?? '9999-12-31'}#~` },
      ExpressionAttributeNames: names,
      ProjectionExpression: projection,
      ConsistentRead: true,
    },
    opts,
  );
  return { items: page.items.map((i) => weightFromItem(i)!), nextCursor: page.nextCursor };
}

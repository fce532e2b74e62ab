import { BatchWriteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulidx';
import { BATCH_BACKOFF, batchGet, db, tableName, transact, type TransactItem } from './client.js';
import { absent, compileCondition, eq, withCondition } from './conditions.js';
import {
  CLIMATE_HOUR_ATTR,
  DAY_ROLLUP_SK_PREFIX,
  HOUR_ROLLUP_SK_PREFIX,
  breachKey,
  dayRollupKey,
  deviceDayKey,
  devicePartition,
  hourClaimsKey,
  hourRollupKey,
  rawReadingsKey,
  rawReadingsPartition,
} from './keys.js';
import { Conflict } from '../errors.js';
import type { BucketStats } from '../domain/iot/rollups.js';
import type { ClimateHour } from '../domain/iot/house-days.js';
import type { Breach } from '../domain/iot/climate.js';
import type { SensorMetric } from '../../schemas/vocabulary.js';
import { isoDate, isoHour } from '../platform/calendar.js';
import { pause } from '../platform/retry.js';

/**
 * A device's readings (docs/data-model.md, "Sensors"):
 * - hourly and daily rollups in the device's partition (`HOUR#<yyyy-mm-ddThh>`, `DAY#<yyyy-mm-dd>`: per
 *   metric count, sum, min, max, first, last), kept;
 * - next to each hour, `SEEN#<hour>`: the readings that hour has counted (ms offsets in a number set)
 *   and a version. Every batch reads the claims and rollups it touches, and writes them back in ONE
 *   transaction conditional on those versions: a reading is counted once however many writers race;
 * - raw readings, one partition per device and UTC day (`READINGS#<deviceId>#<day>`), packed per batch
 *   and hour (SK = the pack's first reading time), with a TTL, written with BatchWriteItem by the writer
 *   whose transaction counted them.
 */

export interface HourState {
  hour: string;
  /** Readings already counted (ms since the start of the hour). */
  seen: Set<number>;
  /** 0 when the hour has nothing yet. */
  version: number;
  /**
   * The version the hourly rollup carries (the claims' version it was written with). A BatchGetItem is not
   * a snapshot: it can see a concurrent transaction's claims but not yet its rollup, so the rollup is
   * conditional on its own version too.
   */
  rollupVersion: number;
  /** When the hour last counted readings (ISO), or null. */
  claimedAt: string | null;
  stats: BucketStats;
}

export interface DayState {
  day: string;
  version: number;
  stats: BucketStats;
}

/** The claims and rollups of these hours and days, in one strongly consistent BatchGetItem. */
export async function readBuckets(deviceId: string, hours: readonly string[], days: readonly string[]): Promise<{ hours: HourState[]; days: DayState[] }> {
  const keys = [...hours.flatMap((h) => [hourClaimsKey(deviceId, h), hourRollupKey(deviceId, h)]), ...days.map((d) => deviceDayKey(deviceId, d))];
  const found = new Map((await batchGet(keys, { consistent: true })).map((i) => [i.SK as string, i]));
  return {
    hours: hours.map((hour) => {
      const claims = found.get(hourClaimsKey(deviceId, hour).SK);
      const rollup = found.get(hourRollupKey(deviceId, hour).SK);
      return {
        hour,
        seen: new Set((claims?.seen as Set<number> | undefined) ?? []),
        version: (claims?.version as number | undefined) ?? 0,
        rollupVersion: (rollup?.version as number | undefined) ?? 0,
        claimedAt: (claims?.updatedAt as string | undefined) ?? null,
        stats: (rollup?.stats as BucketStats | undefined) ?? {},
      };
    }),
    days: days.map((day) => {
      const item = found.get(deviceDayKey(deviceId, day).SK);
      return { day, version: (item?.version as number | undefined) ?? 0, stats: (item?.stats as BucketStats | undefined) ?? {} };
    }),
  };
}

/** Another writer changed the hours or days this batch read: read again and retry. */
export class BucketsChanged extends Conflict {
  constructor() {
    super('The device’s rollups were changed concurrently');
  }
}

/** What one batch's transaction writes: new claims and rollups of its hours, its days, and the sensor figures of the house's cycle days. */
export interface BucketWrite {
  hours: Array<{ hour: string; readVersion: number; readRollupVersion: number; newOffsets: number[]; stats: BucketStats }>;
  days: Array<{ day: string; readVersion: number; stats: BucketStats }>;
  /**
   * The day's water and feed from this device, on the cycle's day rollup (`sensorWaterLiters.<deviceId>`,
   * `sensorFeedKg.<deviceId>`), and the climate hours it counted that UTC day (`sensorClimate.<deviceId>.<HH>`:
   * the hour's count and sum per climate metric, set whole from the hour's new rollup).
   */
  cycleDays: Array<{ cycleId: string; date: string; waterLiters?: number; feedKg?: number; climateHours?: Record<string, ClimateHour> }>;
}

/** Still at the version read: absent when that was 0 (nothing yet). */
const stillAt = (readVersion: number) => (readVersion === 0 ? absent('version') : eq('version', readVersion));

/** A rollup written whole, as `version`, if it is still at the version read (absent when 0). */
function rollupPut(item: Record<string, unknown>, readVersion: number, version: number, now: string): TransactItem {
  return { Put: { TableName: tableName(), Item: { ...item, version, updatedAt: now }, ...compileCondition(stillAt(readVersion)) } };
}

/**
 * Commits a batch in ONE TransactWriteItems (≤ 100 items: the caller chunks by hours), every claim and
 * day conditional on the version read. A lost race throws BucketsChanged (nothing written).
 */
export async function commitBuckets(deviceId: string, w: BucketWrite, now: string): Promise<void> {
  const T = tableName();
  const items: TransactItem[] = [];
  for (const h of w.hours) {
    items.push({
      Update: withCondition(
        {
          TableName: T,
          Key: hourClaimsKey(deviceId, h.hour),
          UpdateExpression: 'SET #version = :next, #type = :type, updatedAt = :now ADD seen :offsets',
          ExpressionAttributeNames: { '#version': 'version', '#type': 'type' },
          ExpressionAttributeValues: { ':next': h.readVersion + 1, ':type': 'SensorClaims', ':offsets': new Set(h.newOffsets), ':now': now },
        },
        stillAt(h.readVersion),
      ),
    });
    // The hour's rollup is only ever written in a transaction with its claims, conditional on the version read.
    items.push(
      rollupPut(
        { ...hourRollupKey(deviceId, h.hour), type: 'SensorHour', deviceId, hour: h.hour, stats: h.stats },
        h.readRollupVersion,
        h.readVersion + 1,
        now,
      ),
    );
  }
  for (const d of w.days) {
    items.push(rollupPut({ ...deviceDayKey(deviceId, d.day), type: 'SensorDay', deviceId, day: d.day, stats: d.stats }, d.readVersion, d.readVersion + 1, now));
  }
  for (const c of w.cycleDays) {
    const sets: string[] = [];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    if (c.waterLiters !== undefined) {
      sets.push('#w = :w');
      names['#w'] = `sensorWaterLiters.${deviceId}`;
      values[':w'] = c.waterLiters;
    }
    if (c.feedKg !== undefined) {
      sets.push('#f = :f');
      names['#f'] = `sensorFeedKg.${deviceId}`;
      values[':f'] = c.feedKg;
    }
    for (const [i, [hour, climate]] of Object.entries(c.climateHours ?? {}).entries()) {
      sets.push(`#c${i} = :c${i}`);
      names[`#c${i}`] = `${CLIMATE_HOUR_ATTR}.${deviceId}.${hour}`;
      values[`:c${i}`] = climate;
    }
    if (sets.length === 0) continue;
    items.push({
      Update: {
        TableName: T,
        Key: dayRollupKey(c.cycleId, c.date),
        UpdateExpression: `SET ${sets.join(', ')}, #date = if_not_exists(#date, :date)`,
        ExpressionAttributeNames: { ...names, '#date': 'date' },
        ExpressionAttributeValues: { ...values, ':date': c.date },
      },
    });
  }
  if (items.length > 100) throw new Error(`a sensor batch transaction of ${items.length} items (the caller chunks to ≤ 100)`);
  await transact(items, () => new BucketsChanged());
}

/** Readings in one raw item at most (≈ 50 KB for 9-metric frames, well under DynamoDB's 400 KB). */
export const RAW_PACK_MAX = 200;

type RawReading = { tsMs: number; metrics: Partial<Record<SensorMetric, number>> };

/**
 * Raw readings, packed: one item per batch, UTC hour and at most RAW_PACK_MAX readings (SK = the pack's
 * first reading time + a ULID), in the device's partition of that UTC day. A frame a message (the IoT
 * rule) is one item of one reading; a batch of 500 one-minute frames is 9. Written 25 items per
 * BatchWriteItem (the calls in parallel, unprocessed items retried). Each item expires `ttlDays` after its
 * newest reading was measured (the same retention ingestion accepts readings for).
 */
export async function putRawReadings(deviceId: string, readings: readonly RawReading[], opts: { receivedAt: string; ttlDays: number }): Promise<void> {
  const T = tableName();
  const byHour = new Map<string, RawReading[]>();
  for (const r of [...readings].sort((a, b) => a.tsMs - b.tsMs)) {
    const hour = isoHour(r.tsMs);
    const list = byHour.get(hour);
    if (list) list.push(r);
    else byHour.set(hour, [r]);
  }
  const requests: Record<string, unknown>[] = [];
  for (const list of byHour.values()) {
    for (let i = 0; i < list.length; i += RAW_PACK_MAX) {
      const pack = list.slice(i, i + RAW_PACK_MAX);
      const first = new Date(pack[0]!.tsMs).toISOString();
      const newest = pack[pack.length - 1]!.tsMs;
      requests.push({
        PutRequest: {
          Item: {
            ...rawReadingsKey(deviceId, first.slice(0, 10), `${first}#${ulid()}`),
            type: 'SensorReadings',
            readings: pack.map((r) => ({ ts: new Date(r.tsMs).toISOString(), metrics: r.metrics })),
            receivedAt: opts.receivedAt,
            expiresAt: Math.floor(newest / 1000) + opts.ttlDays * 86_400,
          },
        },
      });
    }
  }
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < requests.length; i += 25) chunks.push(requests.slice(i, i + 25));
  await Promise.all(
    chunks.map(async (chunk) => {
      let pending = chunk;
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt === 6) throw new Error('BatchWriteItem left raw readings unprocessed after 6 attempts');
        if (attempt > 0) await pause(attempt, BATCH_BACKOFF);
        const res = await db().send(new BatchWriteCommand({ RequestItems: { [T]: pending as never } }));
        pending = (res.UnprocessedItems?.[T] as Record<string, unknown>[] | undefined) ?? [];
      }
    }),
  );
}

/** The raw packs of one UTC day partition whose readings may fall in [fromIso, toIso) (packs never span hours). */
async function rawPacks(deviceId: string, day: string, fromIso: string, toIso: string): Promise<Array<{ ts: string; metrics: Record<string, number> }>> {
  const out: Array<{ ts: string; metrics: Record<string, number> }> = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        // a pack that starts before the hour of `from` holds only readings of an earlier hour
        ExpressionAttributeValues: { ':pk': rawReadingsPartition(deviceId, day), ':from': fromIso.slice(0, 13), ':to': toIso },
        ExpressionAttributeNames: { '#readings': 'readings' },
        ProjectionExpression: '#readings',
        ExclusiveStartKey: start,
      }),
    );
    for (const item of res.Items ?? []) out.push(...(item.readings as Array<{ ts: string; metrics: Record<string, number> }>));
    start = res.LastEvaluatedKey;
  } while (start);
  return out;
}

/**
 * Raw readings of one UTC day in [fromIso, toIso), oldest first, each time once. (A reading can sit in two
 * packs: a repeat that restores raw readings it finds missing may race the first writer's own raw write.)
 */
export async function rawReadingsOfDay(
  deviceId: string,
  day: string,
  fromIso: string,
  toIso: string,
): Promise<Array<{ ts: string; metrics: Record<string, number> }>> {
  const byTime = new Map<string, { ts: string; metrics: Record<string, number> }>();
  for (const r of await rawPacks(deviceId, day, fromIso, toIso)) if (r.ts >= fromIso && r.ts < toIso && !byTime.has(r.ts)) byTime.set(r.ts, r);
  return [...byTime.values()].sort((a, b) => a.ts.localeCompare(b.ts));
}

/** Which of these reading times are stored raw (a repeat of counted readings restores any the first writer could not write). */
export async function storedRawTimes(deviceId: string, tsMs: readonly number[]): Promise<Set<number>> {
  const byDay = new Map<string, number[]>();
  for (const ms of tsMs) {
    const day = isoDate(ms);
    const list = byDay.get(day);
    if (list) list.push(ms);
    else byDay.set(day, [ms]);
  }
  const found = await Promise.all(
    [...byDay].map(([day, list]) => rawPacks(deviceId, day, new Date(Math.min(...list)).toISOString(), new Date(Math.max(...list) + 1).toISOString())),
  );
  return new Set(found.flat().map((r) => Date.parse(r.ts)));
}

/**
 * Hourly or daily rollups from `fromKey` to `toKey` (bucket names, inclusive), oldest first: one Query per
 * MB (a week of hours is one). `metrics` projects only those metrics' stats (a cycle's worth of hours for
 * two gases stays a few Queries).
 */
export async function rollupsBetween(
  deviceId: string,
  resolution: 'hour' | 'day',
  fromKey: string,
  toKey: string,
  opts: { metrics?: readonly SensorMetric[] } = {},
): Promise<Array<{ bucket: string; stats: BucketStats }>> {
  const prefix = resolution === 'hour' ? HOUR_ROLLUP_SK_PREFIX : DAY_ROLLUP_SK_PREFIX;
  const out: Array<{ bucket: string; stats: BucketStats }> = [];
  const metrics = opts.metrics ?? [];
  const names: Record<string, string> = { '#stats': 'stats', ...Object.fromEntries(metrics.map((m, i) => [`#m${i}`, m])) };
  const projection = metrics.length ? ['SK', ...metrics.map((_, i) => `#stats.#m${i}`)].join(', ') : 'SK, #stats';
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': devicePartition(deviceId), ':from': `${prefix}${fromKey}`, ':to': `${prefix}${toKey}` },
        ExpressionAttributeNames: names,
        ProjectionExpression: projection,
        ExclusiveStartKey: start,
      }),
    );
    for (const i of res.Items ?? []) out.push({ bucket: (i.SK as string).slice(prefix.length), stats: (i.stats as BucketStats | undefined) ?? {} });
    start = res.LastEvaluatedKey;
  } while (start);
  return out;
}

/**
 * Threshold breaches, one item per device, metric and UTC hour: how many readings broke the range, the first
 * and last of them, the worst value seen by a batch. The hand-over to rules and anomalies: they Query a
 * farm's partition (`BREACHES#<farmId>`) by hour. Counts are ADDed, so concurrent batches add up.
 */
export async function recordBreaches(farmId: string, houseId: string, deviceId: string, breaches: readonly Breach[], now: string): Promise<void> {
  const groups = new Map<string, Breach[]>();
  for (const b of breaches) {
    const key = `${isoHour(b.tsMs)}|${b.metric}|${b.direction}`;
    const list = groups.get(key);
    if (list) list.push(b);
    else groups.set(key, [b]);
  }
  await Promise.all(
    [...groups].map(([key, list]) => {
      const [hour, metric, direction] = key.split('|') as [string, string, 'low' | 'high'];
      const worst = list.reduce((a, b) => (direction === 'high' ? (b.value > a.value ? b : a) : b.value < a.value ? b : a));
      const first = list[0]!;
      const last = list[list.length - 1]!;
      return db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: breachKey(farmId, hour, deviceId, metric),
          UpdateExpression:
            'SET #type = :type, houseId = :house, deviceId = :device, metric = :metric, direction = :dir, expected = :range, ' +
            'firstAt = if_not_exists(firstAt, :first), lastAt = :last, worstInLastBatch = :worst, updatedAt = :now ADD readings :n',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: {
            ':type': 'SensorBreach',
            ':house': houseId,
            ':device': deviceId,
            ':metric': metric,
            ':dir': direction,
            ':range': worst.range,
            ':first': new Date(first.tsMs).toISOString(),
            ':last': new Date(last.tsMs).toISOString(),
            ':worst': worst.value,
            ':now': now,
            ':n': list.length,
          },
        }),
      );
    }),
  );
}

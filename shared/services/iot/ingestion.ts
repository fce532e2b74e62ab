import { getDevice, recordLastSeen } from '../../db/devices.js';
import type { DeviceRecord } from '../../domain/iot/records.js';
import { commitBuckets, putRawReadings, storedRawTimes, readBuckets, recordBreaches, type BucketWrite, type DayState } from '../../db/sensor-readings.js';
import { systemCaller } from '../../domain/caller.js';
import { commandContext } from '../../domain/command.js';
import { breachesOf } from '../../domain/iot/climate.js';
import { lastSeenOf, minuteOf, movesLastSeen, nextStatusChangeAt } from '../../domain/iot/device-health.js';
import { feedKgOfDay, feedsHouseFigures, waterLitersOfDay } from '../../domain/iot/house-figures.js';
import { climateHourOf, feedsHouseClimate } from '../../domain/iot/house-days.js';
import { screenReadings, type Candidate, type Frame, type Rejection } from '../../domain/iot/readings.js';
import { addToBucket, counterPoints, refuseBackwardCounters, type BucketStats, type CounterPoint } from '../../domain/iot/rollups.js';
import { AppError, Conflict, Forbidden, NotFound, Unavailable, ValidationFailed } from '../../errors.js';
import { settings } from '../../config/env.js';
import { currentAnalyticsConfig } from '../analytics/config.js';
import { ingestScaleBatch } from '../flocks/weights.js';
import { flockOn, houseFlock, type HouseFlock } from '../flocks/house-flocks.js';
import { alarmsOnSensorHour } from '../new-data.js';
import type { SensorMetric } from '../../../schemas/vocabulary.js';
import type { TelemetryEventBody } from '../../../schemas/iot.js';
import { addDays, isoDate, isoHour } from '../../platform/calendar.js';
import { pause, type RetryPolicy } from '../../platform/retry.js';
import { log } from '../../platform/log.js';

/**
 * Sensor ingestion: ONE use case for the HTTP route (a device key) and the IoT Core rule (a topic),
 * given an authenticated device, its frames and when they arrived. What it does with a batch:
 * 1. screens each reading (time, declared metrics, physical range): rejected per reading, with the reason;
 * 2. per group of hours (≤ 100 items a transaction): reads the hours' claims and rollups and the days
 *    around them, drops readings already counted (duplicates), refuses counters going backwards, and
 *    writes the new claims, hourly and daily rollups and the house cycle's sensor water and feed of
 *    those days (and a climate sensor's hours) in ONE transaction conditional on the versions read (a
 *    lost race re-reads and retries);
 * 3. writes the counted readings raw (BatchWriteItem, TTL `SENSOR_RAW_TTL_DAYS`);
 * 4. moves last seen (at most once a minute), records threshold breaches, and hands bird-scale weighings
 *    to the weights use case (`automatic_scale`).
 */

export interface IngestOutcome {
  accepted: number;
  duplicates: number;
  rejected: Rejection[];
}

/** Transaction items per chunk of hours: 2 per hour (claims + rollup), 1 per day, 1 per cycle day. */
const MAX_TRANSACTION_ITEMS = 100;
/** A chunk that lost a race reads and writes again: 12 tries in all, jittered pauses up to 8 ms, 16 ms, … 88 ms. */
const CHUNK_RETRY: RetryPolicy = { attempts: 12, baseMs: 4, capMs: 88 };
const DAY_MS = 86_400_000;

/** Splits readings (sorted) into groups whose transaction stays within 100 items. */
function chunksOf(candidates: readonly Candidate[], counterDevice: boolean, climateDevice: boolean): Candidate[][] {
  const chunks: Candidate[][] = [];
  let current: Candidate[] = [];
  let hours = new Set<string>();
  let days = new Set<string>();
  for (const c of candidates) {
    const h = isoHour(c.tsMs);
    const d = isoDate(c.tsMs);
    const nextHours = hours.has(h) ? hours.size : hours.size + 1;
    const nextDays = days.has(d) ? days.size : days.size + 1;
    // a counter device also writes the day after each day (its figure depends on the day before) on the cycle;
    // a climate sensor writes its hours on the cycle's day
    const items = 2 * nextHours + nextDays * (counterDevice ? 3 : climateDevice ? 2 : 1);
    if (current.length > 0 && items > MAX_TRANSACTION_ITEMS) {
      chunks.push(current);
      current = [];
      hours = new Set();
      days = new Set();
    }
    current.push(c);
    hours.add(h);
    days.add(d);
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

const offsetInHour = (tsMs: number) => tsMs % 3_600_000;

interface ChunkResult {
  counted: Candidate[];
  duplicates: Candidate[];
  /** Duplicates counted long enough ago that their raw readings must have been written: restored if missing. */
  settledDuplicates: Candidate[];
  rejected: Rejection[];
}

/**
 * A first writer writes its raw readings right after its transaction; a repeat restores raw readings it
 * finds missing only in hours that counted nothing for this long (else it would race that writer and store
 * the readings twice).
 */
const RAW_REPAIR_AFTER_MS = 30_000;

/** One chunk: read, decide, write; retried from the read when another writer got there first. */
async function ingestChunk(device: DeviceRecord, chunk: readonly Candidate[], house: () => Promise<HouseFlock | null>, now: string): Promise<ChunkResult> {
  const counterDevice = feedsHouseFigures(device.metrics);
  const climateDevice = feedsHouseClimate(device.metrics);
  const hours = [...new Set(chunk.map((c) => isoHour(c.tsMs)))];
  const days = [...new Set(chunk.map((c) => isoDate(c.tsMs)))];
  const readDays = counterDevice ? [...new Set(days.flatMap((d) => [addDays(d, -1), d, addDays(d, 1)]))].sort() : days;
  for (let attempt = 1; ; attempt++) {
    const state = await readBuckets(device.id, hours, readDays);
    const seenOf = new Map(state.hours.map((h) => [h.hour, h.seen]));
    const fresh = chunk.filter((c) => !seenOf.get(isoHour(c.tsMs))!.has(offsetInHour(c.tsMs)));
    const freshSet = new Set(fresh);
    const duplicates = chunk.filter((c) => !freshSet.has(c));
    const settledBefore = new Date(Date.parse(now) - RAW_REPAIR_AFTER_MS).toISOString();
    const settled = new Set(state.hours.filter((h) => h.claimedAt !== null && h.claimedAt < settledBefore).map((h) => h.hour));
    const settledDuplicates = duplicates.filter((c) => settled.has(isoHour(c.tsMs)));
    const dayState = new Map<string, DayState>(state.days.map((d) => [d.day, d]));
    const known: Partial<Record<SensorMetric, CounterPoint[]>> = {};
    for (const d of state.days) {
      for (const [metric, points] of Object.entries(counterPoints(d.stats)) as [SensorMetric, CounterPoint[]][])
        known[metric] = [...(known[metric] ?? []), ...points];
    }
    const { kept, rejected } = refuseBackwardCounters(fresh, known);
    if (kept.length === 0) return { counted: [], duplicates, settledDuplicates, rejected };

    const write: BucketWrite = { hours: [], days: [], cycleDays: [] };
    for (const h of state.hours) {
      const mine = kept.filter((c) => isoHour(c.tsMs) === h.hour);
      if (mine.length === 0) continue;
      write.hours.push({
        hour: h.hour,
        readVersion: h.version,
        readRollupVersion: h.rollupVersion,
        newOffsets: mine.map((c) => offsetInHour(c.tsMs)),
        stats: addToBucket(h.stats, mine),
      });
    }
    const newStats = new Map<string, BucketStats>(state.days.map((d) => [d.day, d.stats]));
    for (const day of days) {
      const mine = kept.filter((c) => isoDate(c.tsMs) === day);
      if (mine.length === 0) continue;
      const d = dayState.get(day)!;
      const stats = addToBucket(d.stats, mine);
      newStats.set(day, stats);
      write.days.push({ day, readVersion: d.version, stats });
    }
    if (counterDevice) {
      const flock = await house();
      // a changed day changes its own figure and the next day's (which counts from this day's last reading)
      const touched = [...new Set(write.days.flatMap((d) => [d.day, addDays(d.day, 1)]))].filter(
        (d) => newStats.get(d) && Object.keys(newStats.get(d)!).length > 0,
      );
      const today = now.slice(0, 10);
      for (const day of touched) {
        if (!flock || day < flock.cycle.startDate || day > today) continue;
        const water = waterLitersOfDay(newStats.get(day), newStats.get(addDays(day, -1)));
        const feed = feedKgOfDay(newStats.get(day));
        write.cycleDays.push({
          cycleId: flock.cycle.id,
          date: day,
          ...(water !== null ? { waterLiters: water } : {}),
          ...(feed !== null ? { feedKg: feed } : {}),
        });
      }
    }
    if (climateDevice) keepClimateHours(write, await house(), now.slice(0, 10));
    try {
      await commitBuckets(device.id, write, now);
      return { counted: kept, duplicates, settledDuplicates, rejected };
    } catch (err) {
      // BucketsChanged (a Conflict): a version moved; a plain Conflict: DynamoDB kept cancelling it for a concurrent transaction
      if (!(err instanceof Conflict)) throw err;
      if (attempt >= CHUNK_RETRY.attempts)
        throw new Unavailable('The device’s rollups kept changing under concurrent batches; send the batch again (it is idempotent)', 1);
      await pause(attempt, CHUNK_RETRY);
    }
  }
}

/**
 * The climate hours of the batch, kept on the house flock's cycle day of each hour's UTC date (within the
 * cycle, up to today): what the cycle's analytics (the expected water's temperature) and its daily alarms
 * (the hottest hour) read with the days, without reading the sensors' rollups.
 */
function keepClimateHours(write: BucketWrite, flock: HouseFlock | null, today: string): void {
  if (!flock) return;
  for (const h of write.hours) {
    const climate = climateHourOf(h.stats);
    const date = h.hour.slice(0, 10);
    if (!climate || date < flock.cycle.startDate || date > today) continue;
    let day = write.cycleDays.find((c) => c.cycleId === flock.cycle.id && c.date === date);
    if (!day) {
      day = { cycleId: flock.cycle.id, date };
      write.cycleDays.push(day);
    }
    day.climateHours = { ...day.climateHours, [h.hour.slice(11, 13)]: climate };
  }
}

/** The newest value of each metric: the stored ones, replaced by newer readings. */
function latestValues(device: DeviceRecord, counted: readonly Candidate[]): DeviceRecord['latest'] {
  const latest = { ...device.latest };
  for (const c of counted) {
    const ts = new Date(c.tsMs).toISOString();
    for (const [metric, value] of Object.entries(c.metrics) as [SensorMetric, number][]) {
      const current = latest[metric];
      if (!current || current.ts < ts) latest[metric] = { value, ts };
    }
  }
  return latest;
}

/**
 * Ingests one batch of a device's frames. `receivedAtMs`: when the batch arrived (HTTP: now; IoT Core:
 * the rule's `timestamp()`). Idempotent per device and reading time.
 */
export async function ingestReadings(device: DeviceRecord, frames: readonly Frame[], receivedAtMs: number): Promise<IngestOutcome> {
  const nowMs = Date.now();
  const now = new Date(nowMs).toISOString();
  const ttlDays = settings().sensorRawTtlDays;
  const screened = screenReadings(frames, { declared: device.metrics, receivedAt: receivedAtMs, oldestMs: nowMs - ttlDays * DAY_MS });
  const outcome: IngestOutcome = { accepted: 0, duplicates: screened.duplicates, rejected: [...screened.rejected] };
  if (screened.candidates.length === 0) return outcome;

  let housePromise: Promise<HouseFlock | null> | undefined;
  const house = () => (housePromise ??= houseFlock(device.farmId, device.houseId));
  const configPromise = currentAnalyticsConfig();
  const counterDevice = feedsHouseFigures(device.metrics);

  const counted: Candidate[] = [];
  const storedDuplicates: Candidate[] = [];
  const settledDuplicates: Candidate[] = [];
  for (const chunk of chunksOf(screened.candidates, counterDevice, feedsHouseClimate(device.metrics))) {
    const r = await ingestChunk(device, chunk, house, now);
    counted.push(...r.counted);
    storedDuplicates.push(...r.duplicates);
    settledDuplicates.push(...r.settledDuplicates);
    outcome.rejected.push(...r.rejected);
  }
  outcome.accepted = counted.length;
  outcome.duplicates += storedDuplicates.length;
  outcome.rejected.sort((a, b) => a.index - b.index);

  const writes: Promise<unknown>[] = [];
  if (counted.length > 0) writes.push(putRawReadings(device.id, counted, { receivedAt: new Date(receivedAtMs).toISOString(), ttlDays }));
  if (settledDuplicates.length > 0) writes.push(restoreMissingRaw(device, settledDuplicates, receivedAtMs, ttlDays));

  const seenCandidates = [...counted, ...storedDuplicates];
  if (seenCandidates.length > 0) writes.push(moveLastSeen(device, seenCandidates, counted, receivedAtMs, nowMs, configPromise));
  if (counted.length > 0) writes.push(afterCounting(device, counted, frames, house, configPromise, now));
  await Promise.all(writes);
  // an hour of the house ended for this device: its sensor rules can judge it (once per device and hour)
  if (completesAnHour(device.lastSeen, counted)) await alarmsOnSensorHour({ farmId: device.farmId, houseId: device.houseId });
  return outcome;
}

/** Whether the batch holds a reading of a later UTC hour than the device's last seen: the hour before it is complete. */
function completesAnHour(lastSeen: string | null, counted: readonly Candidate[]): boolean {
  if (counted.length === 0) return false;
  const newest = Math.max(...counted.map((c) => c.tsMs));
  return lastSeen === null || isoHour(newest) > isoHour(Date.parse(lastSeen));
}

/**
 * A repeat of readings already counted normally finds them stored; if the first writer failed between its
 * transaction and its raw write, the repeat (the device's or Lambda's retry, with the same values) fills the gap.
 */
async function restoreMissingRaw(device: DeviceRecord, repeats: readonly Candidate[], receivedAtMs: number, ttlDays: number): Promise<void> {
  const present = await storedRawTimes(
    device.id,
    repeats.map((c) => c.tsMs),
  );
  const missing = repeats.filter((c) => !present.has(c.tsMs));
  if (missing.length > 0) await putRawReadings(device.id, missing, { receivedAt: new Date(receivedAtMs).toISOString(), ttlDays });
}

async function moveLastSeen(
  device: DeviceRecord,
  seen: readonly Candidate[],
  counted: readonly Candidate[],
  receivedAtMs: number,
  nowMs: number,
  config: ReturnType<typeof currentAnalyticsConfig>,
): Promise<void> {
  const newest = Math.max(...seen.map((c) => c.tsMs));
  const lastSeenMs = lastSeenOf(newest, receivedAtMs);
  const storedMs = device.lastSeen ? Date.parse(device.lastSeen) : null;
  if (!movesLastSeen(storedMs, lastSeenMs)) return;
  const { thresholds } = (await config).config;
  const dueMs = nextStatusChangeAt(lastSeenMs, device.reportingIntervalSeconds, Math.max(nowMs, lastSeenMs), thresholds) ?? lastSeenMs;
  await recordLastSeen(device.id, {
    lastSeen: new Date(lastSeenMs).toISOString(),
    latest: latestValues(device, counted),
    dueAt: new Date(dueMs).toISOString(),
    now: new Date(nowMs).toISOString(),
    minuteStart: new Date(minuteOf(lastSeenMs)).toISOString(),
    recovering: device.healthStatus !== 'online',
  });
}

/** Threshold breaches (the hand-over to rules and anomalies) and a scale's weighings (the cycle's weights). */
async function afterCounting(
  device: DeviceRecord,
  counted: readonly Candidate[],
  frames: readonly Frame[],
  house: () => Promise<HouseFlock | null>,
  config: ReturnType<typeof currentAnalyticsConfig>,
  now: string,
): Promise<void> {
  // the flock matters for the temperature curve and a scale's weighings only
  const flock = counted.some((c) => c.metrics.temperatureC !== undefined || c.metrics.birdWeightGrams !== undefined) ? await house() : null;
  const { thresholds } = (await config).config;
  const breaches = breachesOf(counted, thresholds, (tsMs) => flockOn(flock, isoDate(tsMs)));
  const tasks: Promise<unknown>[] = [];
  if (breaches.length > 0) tasks.push(recordBreaches(device.farmId, device.houseId, device.id, breaches, now));
  const weighings = counted.filter((c) => c.metrics.birdWeightGrams !== undefined);
  if (weighings.length > 0 && flock) {
    const caller = systemCaller(`device:${device.id}`, ['create_movement'], [device.farmId]);
    tasks.push(
      weighingsToCycle(caller, {
        deviceId: device.id,
        flockId: flock.flock.id,
        cycleId: flock.cycle.id,
        houseId: device.houseId,
        // the device's own timestamp (its UTC offset decides the date a weighing counts for)
        weighings: weighings.map((c) => ({ at: frames[c.index]!.ts, grams: c.metrics.birdWeightGrams! })),
      }),
    );
  }
  await Promise.all(tasks);
}

/**
 * The weighings of a scale as the cycle's `automatic_scale` session. They are already stored and counted
 * as readings, so a refusal by the weights rules (the cycle closed meanwhile) is logged, never an error
 * of the batch (which would tell the device to send again what is stored).
 */
async function weighingsToCycle(caller: ReturnType<typeof systemCaller>, body: Parameters<typeof ingestScaleBatch>[1]): Promise<void> {
  try {
    await ingestScaleBatch(commandContext(caller), body);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    log.warn('scale weighings not added to the cycle', { deviceId: body.deviceId, error: err.name, reason: err.message });
  }
}

/** Who the IoT Core rule acts as (it reads and writes devices of every farm, nothing else). */
export const telemetryCaller = systemCaller('iot-telemetry', [], 'all');

/**
 * A message of the IoT Core rule: one frame `{ts, metrics}` or a batch `{readings}`, with `farmId` and
 * `deviceId` from the topic and `receivedAt` from the rule. In IoT Core the device authenticated with its
 * certificate; here the topic must name a registered device of that farm, else the message is dropped
 * (NotFound / Forbidden: retrying cannot help).
 */
export async function ingestFromRule(event: TelemetryEventBody): Promise<IngestOutcome> {
  const device = await getDevice(event.deviceId);
  if (!device) throw new NotFound(`Device ${event.deviceId} is not registered (unknown or deleted)`);
  if (device.farmId !== event.farmId) throw new Forbidden(`Device ${event.deviceId} does not belong to farm ${event.farmId}`);
  const frames: Frame[] | undefined =
    event.readings ?? (event.ts !== undefined && event.metrics !== undefined ? [{ ts: event.ts, metrics: event.metrics }] : undefined);
  if (!frames) throw new ValidationFailed([{ field: 'readings', message: 'a message is one frame {ts, metrics} or a batch {readings: [...]}' }]);
  return ingestReadings(device, frames, event.receivedAt);
}

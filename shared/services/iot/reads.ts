import { allDevicesOfFarm } from '../../db/devices.js';
import { rawReadingsOfDay, rollupsBetween } from '../../db/sensor-readings.js';
import { conditionStatus, expectedRange } from '../../domain/iot/climate.js';
import { METRICS, unitsOf } from '../../domain/iot/metrics.js';
import { bucketBefore, summaryOf, type MetricStat } from '../../domain/iot/rollups.js';
import type { Caller } from '../../domain/caller.js';
import { ValidationFailed } from '../../errors.js';
import { currentAnalyticsConfig } from '../analytics/config.js';
import { statusOf, visibleDevice } from './devices.js';
import { houseOfCaller } from '../farms.js';
import { flockOn, houseFlock } from '../flocks/house-flocks.js';
import { farmPeriodInstants } from '../periods.js';
import type { ReadingsQuery } from '../../../schemas/iot.js';
import type { ReadingResolution, SensorMetric } from '../../../schemas/vocabulary.js';
import { datesCovering, isoDate, isoHour } from '../../platform/calendar.js';

/** The longest period each resolution answers in one response. */
const MAX_SPAN_MS: Record<ReadingResolution, number> = { raw: 2 * 86_400_000, hour: 90 * 86_400_000, day: 1100 * 86_400_000 };
const SPAN_TEXT: Record<ReadingResolution, string> = { raw: '2 days', hour: '90 days', day: '1100 days' };

async function periodOrThrow(farmId: string, query: ReadingsQuery): Promise<{ fromMs: number; toMs: number; resolution: ReadingResolution }> {
  const period = await farmPeriodInstants(farmId, query);
  const fromMs = period.fromMs!;
  const toMs = period.endMs!;
  const resolution = query.resolution ?? 'hour';
  if (toMs - fromMs > MAX_SPAN_MS[resolution]) {
    throw new ValidationFailed([
      { field: 'to', message: `a ${resolution} period is at most ${SPAN_TEXT[resolution]} (ask for a coarser resolution or a shorter period)` },
    ]);
  }
  return { fromMs, toMs, resolution };
}

const onlyMetric = <T>(values: Record<string, T>, metric: SensorMetric | undefined): Record<string, T> =>
  metric ? (values[metric] !== undefined ? { [metric]: values[metric]! } : {}) : values;

/**
 * A device's readings over [from, to): raw (one Query per UTC day partition, at most 3), or hourly/daily
 * rollups (one Query per MB: a week of hours is one) with count, min, max, avg, first and last per metric,
 * and for a counter (a water meter) `used`, its increase over the bucket (litres used).
 */
export async function deviceReadings(user: Caller, deviceId: string, query: ReadingsQuery) {
  const device = await visibleDevice(user, deviceId);
  const { fromMs, toMs, resolution } = await periodOrThrow(device.farmId, query);
  const from = new Date(fromMs).toISOString();
  const to = new Date(toMs).toISOString();
  const base = { deviceId, resolution, from, to, units: onlyMetric(unitsOf(device.metrics), query.metric) };
  if (resolution === 'raw') {
    const parts = await Promise.all(datesCovering(fromMs, toMs).map((d) => rawReadingsOfDay(deviceId, d, from, to)));
    const readings = parts.flat().map((r) => ({ ts: r.ts, metrics: onlyMetric(r.metrics, query.metric) }));
    return { ...base, buckets: [], readings: readings.filter((r) => Object.keys(r.metrics).length > 0) };
  }
  const bucketOf = resolution === 'hour' ? isoHour : isoDate;
  const first = bucketOf(fromMs);
  // one bucket earlier in the same Query: a counter's use in the first bucket counts from the last reading before it
  const rows = await rollupsBetween(deviceId, resolution, bucketBefore(first, resolution), bucketOf(toMs - 1));
  const statsOf = new Map(rows.map((row) => [row.bucket, row.stats]));
  const buckets = rows
    .filter((row) => row.bucket >= first)
    .map((row) => ({
      start: resolution === 'hour' ? `${row.bucket}:00:00.000Z` : `${row.bucket}T00:00:00.000Z`,
      metrics: onlyMetric(
        Object.fromEntries(
          (Object.entries(row.stats) as [SensorMetric, MetricStat][]).map(([m, s]) => [
            m,
            summaryOf(m, s, statsOf.get(bucketBefore(row.bucket, resolution))?.[m]),
          ]),
        ),
        query.metric,
      ),
    }))
    .filter((b) => Object.keys(b.metrics).length > 0);
  return { ...base, buckets, readings: [] };
}

/**
 * The latest value of each metric in a house (the newest across its devices), its age, and its status
 * against the analytics thresholds (temperature against the age curve of the house's flock).
 */
export async function houseConditions(user: Caller, houseId: string, farmId: string | undefined) {
  const house = await houseOfCaller(user, houseId, farmId);
  const [devices, flock, { config }] = await Promise.all([
    allDevicesOfFarm(house.farmId, { houseId: house.id }),
    houseFlock(house.farmId, house.id),
    currentAnalyticsConfig(),
  ]);
  const nowMs = Date.now();
  const t = config.thresholds;
  const newest = new Map<SensorMetric, { value: number; ts: string; deviceId: string }>();
  for (const d of devices) {
    for (const [metric, v] of Object.entries(d.latest) as [SensorMetric, { value: number; ts: string }][]) {
      const current = newest.get(metric);
      if (!current || current.ts < v.ts) newest.set(metric, { ...v, deviceId: d.id });
    }
  }
  const conditions = [...newest]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([metric, v]) => {
      const range = expectedRange(metric, t, flockOn(flock, v.ts.slice(0, 10)));
      return {
        metric,
        value: v.value,
        unit: METRICS[metric].unit,
        ts: v.ts,
        ageSeconds: Math.max(0, Math.round((nowMs - Date.parse(v.ts)) / 1000)),
        deviceId: v.deviceId,
        status: conditionStatus(metric, v.value, range),
        expected: range ? { min: range.min, max: range.max } : null,
        basis: range?.basis ?? null,
      };
    });
  return {
    houseId: house.id,
    farmId: house.farmId,
    flock: flock
      ? {
          id: flock.flock.id,
          cycleId: flock.cycle.id,
          birdType: flock.cycle.birdType,
          ageDays: flockOn(flock, isoDate(nowMs))?.ageDays ?? 0,
        }
      : null,
    conditions,
    devices: devices.map((d) => ({
      id: d.id,
      name: d.name,
      kind: d.kind,
      status: statusOf(d, nowMs, t),
      lastSeen: d.lastSeen,
    })),
  };
}

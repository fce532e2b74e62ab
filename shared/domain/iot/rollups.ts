/**
 * Hourly and daily rollups of a device's readings (pure). A bucket keeps, per metric, the count, sum,
 * min, max, and the first and last readings (value and time), so averages, counter differences and
 * silo refills come from the rollups alone once raw readings expire. The repository stores them; this
 * module merges new readings into them and decides which readings the stored state refuses.
 */
import type { SensorMetric } from '../../../schemas/vocabulary.js';
import { addDays, isoHour } from '../../platform/calendar.js';
import { METRICS } from './metrics.js';
import type { Candidate, Rejection } from './readings.js';

export interface MetricStat {
  n: number;
  sum: number;
  min: number;
  max: number;
  first: number;
  firstTs: number;
  last: number;
  lastTs: number;
  /** siloKg only: the kg added by refills seen between consecutive readings (jumps of ≥ SILO_REFILL_MIN_KG). */
  refillKg?: number;
}

export type BucketStats = Partial<Record<SensorMetric, MetricStat>>;

/** A rise of the silo's load of at least this much between two readings is a delivery, not noise. */
export const SILO_REFILL_MIN_KG = 100;

/** Sums rounded to 6 decimals so that float noise never shows in an average. */
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** The bucket with `readings` (sorted by time) added. Readings older than the bucket's last do not count towards refills (their neighbours are unknown). */
export function addToBucket(stats: BucketStats, readings: readonly Candidate[]): BucketStats {
  const out: BucketStats = { ...stats };
  for (const r of readings) {
    for (const [metric, value] of Object.entries(r.metrics) as [SensorMetric, number][]) {
      const s = out[metric];
      if (!s) {
        out[metric] = {
          n: 1,
          sum: value,
          min: value,
          max: value,
          first: value,
          firstTs: r.tsMs,
          last: value,
          lastTs: r.tsMs,
          ...(metric === 'siloKg' ? { refillKg: 0 } : {}),
        };
        continue;
      }
      const next: MetricStat = { ...s, n: s.n + 1, sum: round6(s.sum + value), min: Math.min(s.min, value), max: Math.max(s.max, value) };
      if (r.tsMs < s.firstTs) Object.assign(next, { first: value, firstTs: r.tsMs });
      if (r.tsMs > s.lastTs) {
        if (metric === 'siloKg' && value - s.last >= SILO_REFILL_MIN_KG) next.refillKg = round6((s.refillKg ?? 0) + value - s.last);
        Object.assign(next, { last: value, lastTs: r.tsMs });
      }
      out[metric] = next;
    }
  }
  return out;
}

/** A point a counter is known to have passed: its value at a time. */
export interface CounterPoint {
  tsMs: number;
  value: number;
}

/** The first and last readings of each counter metric in a bucket: points later readings must agree with. */
export function counterPoints(stats: BucketStats | undefined): Partial<Record<SensorMetric, CounterPoint[]>> {
  const out: Partial<Record<SensorMetric, CounterPoint[]>> = {};
  for (const [metric, s] of Object.entries(stats ?? {}) as [SensorMetric, MetricStat][]) {
    if (!METRICS[metric].counter) continue;
    out[metric] = [
      { tsMs: s.firstTs, value: s.first },
      { tsMs: s.lastTs, value: s.last },
    ];
  }
  return out;
}

/**
 * Readings that would make a counter go backwards: below a known earlier value, or above a known later
 * one (known points: stored buckets around them, and the batch's own earlier readings in time order).
 * Returns the readings that remain and the rejections.
 */
export function refuseBackwardCounters(
  candidates: readonly Candidate[],
  known: Partial<Record<SensorMetric, CounterPoint[]>>,
): { kept: Candidate[]; rejected: Rejection[] } {
  const points = new Map<SensorMetric, CounterPoint[]>();
  for (const [metric, list] of Object.entries(known) as [SensorMetric, CounterPoint[]][]) points.set(metric, [...list]);
  const kept: Candidate[] = [];
  const rejected: Rejection[] = [];
  for (const c of candidates) {
    let problem: string | null = null;
    for (const [metric, value] of Object.entries(c.metrics) as [SensorMetric, number][]) {
      if (!METRICS[metric].counter) continue;
      const list = points.get(metric) ?? [];
      const before = list.filter((p) => p.tsMs < c.tsMs).reduce<CounterPoint | undefined>((a, p) => (!a || p.tsMs > a.tsMs ? p : a), undefined);
      const after = list.filter((p) => p.tsMs > c.tsMs).reduce<CounterPoint | undefined>((a, p) => (!a || p.tsMs < a.tsMs ? p : a), undefined);
      if (before && value < before.value) problem = `${metric} went backwards: ${value} after ${before.value} at ${new Date(before.tsMs).toISOString()}`;
      else if (after && value > after.value) problem = `${metric} went backwards: ${value} before ${after.value} at ${new Date(after.tsMs).toISOString()}`;
      if (problem) break;
    }
    if (problem) {
      rejected.push({ index: c.index, error: problem });
      continue;
    }
    kept.push(c);
    for (const [metric, value] of Object.entries(c.metrics) as [SensorMetric, number][]) {
      if (METRICS[metric].counter) points.set(metric, [...(points.get(metric) ?? []), { tsMs: c.tsMs, value }]);
    }
  }
  return { kept, rejected };
}

/**
 * How much a counter rose over a bucket (a water meter's litres used): its last reading in the bucket minus
 * the last reading of the bucket right before (`before`, the previous hour or day), else minus the
 * bucket's first reading. One rule for hourly and daily buckets and the cycle's daily water.
 * - A drop from `before` to the bucket's first reading is a reset or a replaced meter: the bucket counts
 *   from its own first reading (what the counter counted since), never a negative figure, never the new
 *   meter's whole total.
 * - A bucket right before without readings (the device was silent for a whole bucket or more): the water
 *   between the last reading before the gap and the first after it is not attributed to this bucket (when
 *   it was used is unknown), so a gap never piles up into one bucket's figure.
 * - Never negative (a counter is refused when it goes backwards; what slips through counts as 0).
 * Rounded to 3 decimals (millilitres).
 */
export function counterIncrease(bucket: MetricStat, before: MetricStat | undefined): number {
  const base = before && before.last <= bucket.first ? before.last : bucket.first;
  return Math.round(Math.max(0, bucket.last - base) * 1000) / 1000;
}

/** The rollup bucket right before one: the hour before '2026-03-04T00' is '2026-03-03T23'; the day before '2026-03-04' is '2026-03-03'. */
export const bucketBefore = (bucket: string, resolution: 'hour' | 'day'): string =>
  resolution === 'hour' ? isoHour(Date.parse(`${bucket}:00:00Z`) - 3_600_000) : addDays(bucket, -1);

/**
 * Count, sum, min, max, average, first and last of a bucket's metric, as the API shows them; a counter
 * metric adds `used`: the counter's increase over the bucket (`counterIncrease`, from `before`, the same
 * metric's stats of the bucket right before). Its `sum` and `avg` are of the running totals.
 */
export function summaryOf(metric: SensorMetric, s: MetricStat, before?: MetricStat) {
  const summary = { count: s.n, sum: s.sum, min: s.min, max: s.max, avg: Math.round((s.sum / s.n) * 1000) / 1000, first: s.first, last: s.last };
  return METRICS[metric].counter ? { ...summary, used: counterIncrease(s, before) } : summary;
}

/**
 * Windows, buckets and aggregation of the alarm-rule engine (./evaluation.ts): the ISO 8601 durations a
 * rule's window and cooldown are written in, the UTC day or hour buckets of an input, and the aggregate of
 * a window's values. docs/detections.md ("The rule engine").
 */
import { MAX_COOLDOWN_MINUTES, type RuleAggregation } from '../../../schemas/vocabulary.js';

export type Basis = 'day' | 'hour';

export const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
export const BUCKET_MS: Record<Basis, number> = { day: DAY_MS, hour: HOUR_MS };
const MIN_WINDOW_MS = 15 * MINUTE_MS;
const MAX_WINDOW_MS = 90 * DAY_MS;

// ---------------------------------------------------------------------------------------------------
// Windows

const DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?)?$/;

/**
 * An ISO 8601 duration of weeks, days, hours and minutes (P3D, PT1H, P1DT12H, P2W, PT15M) as milliseconds,
 * between PT15M and P90D; otherwise the problem. Months and years are refused (their length varies), and
 * so are seconds and fractions (no bucket is that fine).
 */
export function parseWindow(iso: string): { ms: number } | { problem: string } {
  const example = 'an ISO 8601 duration such as PT1H, P3D or P1DT12H';
  if (typeof iso !== 'string' || !iso.length) return { problem: `the window must be ${example}` };
  const m = DURATION.exec(iso);
  if (!m || iso.endsWith('T') || iso === 'P') {
    if (/^P(?:\d+[YMWD])*(?:\d+[YM])/.test(iso))
      return { problem: `${iso}: months and years are not supported (their length varies); use days or weeks, e.g. P30D` };
    if (/^P.*T.*\d+(?:[.,]\d+)?S$/.test(iso)) return { problem: `${iso}: seconds are not supported; the shortest window is PT15M` };
    return { problem: `${iso} is not ${example}` };
  }
  const [w, d, h, min] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x)));
  const ms = w! * 7 * DAY_MS + d! * DAY_MS + h! * HOUR_MS + min! * MINUTE_MS;
  if (ms < MIN_WINDOW_MS) return { problem: `${iso}: the window must be at least PT15M` };
  if (ms > MAX_WINDOW_MS) return { problem: `${iso}: the window must be at most P90D` };
  return { ms };
}

/**
 * A cooldown given as an ISO 8601 duration (`PT6H`, `P1D`, `PT0M` for none) in minutes: weeks, days,
 * hours and minutes as a window, from zero up to P30D; otherwise the problem.
 */
export function cooldownMinutesOf(iso: string): { minutes: number } | { problem: string } {
  const m = DURATION.exec(iso);
  if (!m || iso.endsWith('T') || iso === 'P') return { problem: `${iso} is not an ISO 8601 duration of weeks, days, hours or minutes, e.g. PT6H, P1D or PT0M` };
  const [w, d, h, min] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x)));
  const minutes = w! * 7 * 24 * 60 + d! * 24 * 60 + h! * 60 + min!;
  return minutes > MAX_COOLDOWN_MINUTES ? { problem: `${iso}: a cooldown is at most P30D` } : { minutes };
}

/** Minutes as an ISO 8601 duration in days, hours and minutes (`90` → `PT1H30M`, `1440` → `P1D`, `0` → `PT0M`). */
export function durationOfMinutes(minutes: number): string {
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  const time = `${hours ? `${hours}H` : ''}${mins ? `${mins}M` : ''}`;
  if (!days && !time) return 'PT0M';
  return `P${days ? `${days}D` : ''}${time ? `T${time}` : ''}`;
}

/** Why a window does not suit an input of this basis (null when fine): it must parse and cover whole buckets. */
export function windowProblem(iso: string, basis: Basis): string | null {
  const w = parseWindow(iso);
  if ('problem' in w) return w.problem;
  if (w.ms % BUCKET_MS[basis] !== 0) {
    return basis === 'day' ? 'a daily input needs a window of whole days (P1D or more)' : 'an hourly input needs a window of whole hours (PT1H or more)';
  }
  return null;
}

/** A window's length for people: "1 h", "2 days", "1 day 12 h", "15 min". */
export function durationText(ms: number): string {
  const days = Math.floor(ms / DAY_MS);
  const hours = Math.floor((ms % DAY_MS) / HOUR_MS);
  const minutes = Math.round((ms % HOUR_MS) / MINUTE_MS);
  const parts = [days ? `${days} ${days === 1 ? 'day' : 'days'}` : '', hours ? `${hours} h` : '', minutes ? `${minutes} min` : ''].filter(Boolean);
  return parts.join(' ') || '0 min';
}

// ---------------------------------------------------------------------------------------------------
// Buckets

const BUCKET_FORMAT: Record<Basis, RegExp> = { day: /^\d{4}-\d{2}-\d{2}$/, hour: /^\d{4}-\d{2}-\d{2}T\d{2}$/ };

/** Start of a bucket, ms since the epoch (throws on a bucket that is not of the basis' format). */
export function bucketStartMs(bucket: string, basis: Basis): number {
  const ms = BUCKET_FORMAT[basis].test(bucket) ? Date.parse(basis === 'day' ? `${bucket}T00:00:00Z` : `${bucket}:00:00Z`) : Number.NaN;
  if (Number.isNaN(ms)) throw new RangeError(`${bucket} is not a ${basis === 'day' ? "UTC day ('2026-03-04')" : "UTC hour ('2026-03-04T13')"}`);
  return ms;
}

/** The ISO instant the bucket ends (exclusive): '2026-03-04' → '2026-03-05T00:00:00.000Z', '2026-03-04T13' → '2026-03-04T14:00:00.000Z'. */
export function bucketEnd(bucket: string, basis: Basis): string {
  return new Date(bucketStartMs(bucket, basis) + BUCKET_MS[basis]).toISOString();
}

// ---------------------------------------------------------------------------------------------------
// Aggregation

/** Float noise (0.1 + 0.2) must never decide a firing: aggregates are kept to 6 decimals. */
export const round6 = (x: number) => Math.round(x * 1e6) / 1e6 + 0;

/** The readings behind one bucket of a sensor input (from the hourly rollups): how many, their sum, lowest and highest. */
export interface ReadingFigures {
  n: number;
  sum: number;
  min: number;
  max: number;
}

/** The readings of a window's buckets together; null when a bucket lacks them (a daily input) or there are none. */
export function windowReadings(buckets: ReadonlyArray<ReadingFigures | undefined>): ReadingFigures | null {
  if (buckets.length === 0 || buckets.some((b) => b === undefined || b.n === 0)) return null;
  const all = buckets as readonly ReadingFigures[];
  return {
    n: all.reduce((a, b) => a + b.n, 0),
    sum: all.reduce((a, b) => a + b.sum, 0),
    min: Math.min(...all.map((b) => b.min)),
    max: Math.max(...all.map((b) => b.max)),
  };
}

/**
 * An aggregation that is a figure of the readings themselves: avg = Σ sum ÷ Σ count (a bucket with more
 * readings weighs more), min and max the readings' lowest and highest, sum their sum. Null for last,
 * change and slope, which follow the buckets' values.
 */
export function readingsAggregate(readings: ReadingFigures, aggregation: RuleAggregation): number | null {
  switch (aggregation) {
    case 'avg':
      return round6(readings.sum / readings.n);
    case 'sum':
      return round6(readings.sum);
    case 'min':
      return round6(readings.min);
    case 'max':
      return round6(readings.max);
    default:
      return null;
  }
}

/**
 * The aggregate of the window's non-null values (oldest first); null when there are none, or fewer than
 * two for change and slope. slope is the least-squares slope per day: `atDays` gives each value's bucket
 * start in days (any origin); without it the values are taken as consecutive buckets of the basis
 * (1 day, or 1/24 day apart).
 */
export function aggregate(values: readonly number[], aggregation: RuleAggregation, basis: Basis, atDays?: readonly number[]): number | null {
  const n = values.length;
  if (n === 0) return null;
  switch (aggregation) {
    case 'avg':
      return round6(values.reduce((a, b) => a + b, 0) / n);
    case 'sum':
      return round6(values.reduce((a, b) => a + b, 0));
    case 'min':
      return Math.min(...values);
    case 'max':
      return Math.max(...values);
    case 'last':
      return values[n - 1]!;
    case 'change':
      return n < 2 ? null : round6(values[n - 1]! - values[0]!);
    case 'slope': {
      if (n < 2) return null;
      const step = BUCKET_MS[basis] / DAY_MS;
      const xs = atDays ?? values.map((_, i) => i * step);
      const mx = xs.reduce((a, b) => a + b, 0) / n;
      const my = values.reduce((a, b) => a + b, 0) / n;
      let sxy = 0;
      let sxx = 0;
      for (let i = 0; i < n; i++) {
        sxy += (xs[i]! - mx) * (values[i]! - my);
        sxx += (xs[i]! - mx) ** 2;
      }
      return sxx === 0 ? null : round6(sxy / sxx);
    }
  }
}

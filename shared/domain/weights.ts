/**
 * Body-weight rules (pure, no I/O): sample statistics, uniformity, confidence of a weighing session,
 * the production phase from bird type and age, and the running per-day aggregates of automatic scales.
 * Definitions: docs/domain.md (CV % = sample SD (n−1) ÷ mean × 100; uniformity % = share of the
 * weighed birds within ±10 % of the mean).
 */
import { daysBetween, isoDate } from '../platform/calendar.js';

import { MAX_PLAUSIBLE_GRAMS, MIN_PLAUSIBLE_GRAMS, type BirdType, type Confidence, type Phase, type WeightMethod } from '../../schemas/vocabulary.js';
import { ageOn, type AgeBasis } from './age.js';

export { CONFIDENCES, MAX_PLAUSIBLE_GRAMS, PHASES, WEIGHT_METHODS } from '../../schemas/vocabulary.js';
export type { BirdType, Confidence, Phase, WeightMethod } from '../../schemas/vocabulary.js';
/** Scale readings further than this share from the day's median are rejected (see `outlierBounds`). */
export const OUTLIER_TOLERANCE = 0.5;
/** The median filter needs at least this many plausible readings in the day (with 2 it cannot tell which is wrong). */
export const OUTLIER_MIN_READINGS = 3;
/** Uniformity band: ±10 % of the mean (docs/domain.md). */
export const UNIFORMITY_BAND = 0.1;

export const round = (n: number, digits: number): number => Math.round(n * 10 ** digits) / 10 ** digits;

export interface SampleStats {
  /** Number of birds weighed. */
  n: number;
  /** Mean weight, g (0.1 g). */
  mean: number;
  /** Sample standard deviation (n − 1), g (0.1 g); null below 2 birds. */
  sd: number | null;
  /** Coefficient of variation, % (0.01); null below 2 birds. */
  cv: number | null;
  /** Share of birds within ±10 % of the mean, % (0.1); null below 2 birds. */
  uniformityPct: number | null;
}

/** Is `x` within ±10 % of `mean` (bounds included)? Compared as |x − mean| × 10 ≤ mean, so 900 and 1100 count for a mean of 1000. */
export function withinUniformityBand(x: number, mean: number): boolean {
  return Math.abs(x - mean) * 10 <= mean * (1 + 1e-12);
}

/** Mean, SD (n − 1), CV and uniformity of individual weighings (g). Two-pass, so it is exact to floating point. */
export function sampleStats(samples: readonly number[]): SampleStats {
  const n = samples.length;
  if (n === 0) throw new Error('sampleStats needs at least one weighing');
  const mean = samples.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { n, mean: round(mean, 1), sd: null, cv: null, uniformityPct: null };
  const ss = samples.reduce((a, x) => a + (x - mean) ** 2, 0);
  const sd = Math.sqrt(ss / (n - 1));
  const inBand = samples.filter((x) => withinUniformityBand(x, mean)).length;
  return { n, mean: round(mean, 1), sd: round(sd, 1), cv: round((sd / mean) * 100, 2), uniformityPct: round((inBand / n) * 100, 1) };
}

/**
 * Confidence of one weighing session, from how many birds were weighed (n) and how spread they are (CV).
 * The table and its rationale: docs/domain.md ("Weighings").
 */
export function confidenceOf(input: { method: WeightMethod; n: number | null; cv: number | null }): Confidence {
  if (input.method === 'estimated' || input.n === null) return 'low';
  if (input.cv === null) return input.n >= 100 ? 'medium' : 'low';
  if (input.n >= 100 && input.cv <= 10) return 'high';
  if (input.n >= 30 && input.cv <= 20) return 'medium';
  return 'low';
}

/**
 * Production phase from bird type and age in days (never `molting`: a molt is a management decision,
 * not an age, so it is never derived automatically). Boundaries, first day of each phase:
 *
 * - broiler: brooding 0–10 (the starter-diet / supplementary-heat period: Aviagen's Ross 308 feeding
 *   programme feeds starter to day 10 and the Ross handbook treats the first 10 days as brooding),
 *   growing 11–24 (grower diet), finishing from 25 (finisher diets to processing). Boundaries recalled
 *   from the Ross 308 nutrition specifications (2019/2022 editions): `approximate`.
 * - layer: brooding 0–27 (weeks 1–4: pullet brooding temperatures come down to house ambient,
 *   18–20 °C from week 5), rearing 28–125, laying from day 126 (18 weeks: the Hy-Line Brown production table
 *   of docs/domain.md starts at week 18, hen-day band 1.1–7.7 %; Lohmann Brown transfer/light stimulation ≈ 17–19 weeks).
 * - breeder (broiler breeders): brooding 0–27, rearing 28–167, laying from day 168 (24 weeks: parent
 *   stock is light-stimulated at about 21–22 weeks and reaches 5 % production at about 24–25 weeks;
 *   Aviagen/Cobb parent-stock guides, `approximate`).
 */
export const PHASE_BOUNDARIES: Record<BirdType, ReadonlyArray<readonly [firstDay: number, phase: Phase]>> = {
  broiler: [
    [0, 'brooding'],
    [11, 'growing'],
    [25, 'finishing'],
  ],
  layer: [
    [0, 'brooding'],
    [28, 'rearing'],
    [126, 'laying'],
  ],
  breeder: [
    [0, 'brooding'],
    [28, 'rearing'],
    [168, 'laying'],
  ],
};

export function phaseOf(birdType: BirdType, ageDays: number): Phase {
  let phase: Phase = 'brooding';
  for (const [first, p] of PHASE_BOUNDARIES[birdType]) if (ageDays >= first) phase = p;
  return phase;
}

/** Days since the cycle's start (day 0 = start date) and the birds' age (hatch date, else first placement, else start: ./age.ts). */
export function agesAt(date: string, cycle: AgeBasis): { daysInCycle: number; ageDays: number } {
  return { daysInCycle: daysBetween(cycle.startDate, date), ageDays: ageOn(cycle, date) };
}

/** The latest calendar date that is "today" somewhere (UTC+14): later dates are in the future everywhere. */
export function latestAllowedDate(now: Date): string {
  return isoDate(now.getTime() + 14 * 3600_000);
}

// ---------------------------------------------------------------------------------------------------
// Manual samples: exactly one of `grams` (an average) or `samples` (individual weighings).

export interface ManualWeightInput {
  grams?: number;
  sampleSize?: number;
  samples?: number[];
}

export function manualInputProblems(input: ManualWeightInput): Array<{ field: string; message: string }> {
  const hasGrams = input.grams !== undefined;
  const hasSamples = input.samples !== undefined;
  if (hasGrams && hasSamples) return [{ field: 'samples', message: 'send either grams (one average) or samples (individual weighings), not both' }];
  if (!hasGrams && !hasSamples) return [{ field: 'grams', message: 'is required unless samples (individual weighings) are sent' }];
  if (hasSamples && input.sampleSize !== undefined)
    return [{ field: 'sampleSize', message: 'goes with grams only: with samples the sample size is their count' }];
  return [];
}

/** The session's statistics: from the individual weighings, or the reported average (n = sampleSize or unknown). */
export function manualStats(input: ManualWeightInput): SampleStats | (Omit<SampleStats, 'n'> & { n: number | null }) {
  if (input.samples) return sampleStats(input.samples);
  return { n: input.sampleSize ?? null, mean: round(input.grams!, 1), sd: null, cv: null, uniformityPct: null };
}

// ---------------------------------------------------------------------------------------------------
// Automatic scales: one session per device and day, merged across batches.
//
// Mean and SD merge exactly from running sums (count, Σx, Σx²). Uniformity needs the individual values
// relative to the (moving) mean, so each day also keeps a histogram of its readings in logarithmic bins
// 0.5 % wide: bin k holds readings in [1.005^k, 1.005^(k+1)) g. It is bounded (a day's readings within
// ±50 % of the median span at most ln 3 / ln 1.005 ≈ 220 bins, ≈ 2 KB) and exact to the counts; only the
// two bins straddling the ±10 % band edges are split, pro rata to their (log) overlap, so uniformity is
// exact up to the readings in those two half-percent-wide bins.

export const HISTOGRAM_RATIO = 1.005;
const LOG_RATIO = Math.log(HISTOGRAM_RATIO);

export type Histogram = Record<string, number>;

export function binOf(grams: number): number {
  return Math.floor(Math.log(grams) / LOG_RATIO + 1e-9);
}

export interface DayAggregate {
  n: number;
  sum: number;
  sumSq: number;
  hist: Histogram;
  min: number;
  max: number;
}

export const EMPTY_DAY: DayAggregate = { n: 0, sum: 0, sumSq: 0, hist: {}, min: 0, max: 0 };

/** The day's aggregate with `values` added (the input is not changed). */
export function addToDay(day: DayAggregate, values: readonly number[]): DayAggregate {
  const hist: Histogram = { ...day.hist };
  let { n, sum, sumSq, min, max } = day;
  for (const v of values) {
    const k = String(binOf(v));
    hist[k] = (hist[k] ?? 0) + 1;
    n += 1;
    sum += v;
    sumSq += v * v;
    min = n === 1 ? v : Math.min(min, v);
    max = n === 1 ? v : Math.max(max, v);
  }
  return { n, sum, sumSq, hist, min, max };
}

/** Share of the histogram's readings inside [lo, hi], bins split by their log overlap. */
function histogramShareWithin(hist: Histogram, n: number, lo: number, hi: number): number {
  const a = Math.log(lo) / LOG_RATIO;
  const b = Math.log(hi) / LOG_RATIO;
  let inside = 0;
  for (const [k, count] of Object.entries(hist)) {
    const start = Number(k);
    const overlap = Math.max(0, Math.min(start + 1, b) - Math.max(start, a));
    inside += count * Math.min(1, overlap);
  }
  return inside / n;
}

export function dayStats(day: DayAggregate): SampleStats {
  const { n, sum, sumSq } = day;
  if (n === 0) throw new Error('dayStats needs at least one reading');
  const mean = sum / n;
  if (n < 2) return { n, mean: round(mean, 1), sd: null, cv: null, uniformityPct: null };
  const sd = Math.sqrt(Math.max(0, (sumSq - (sum * sum) / n) / (n - 1)));
  const share = histogramShareWithin(day.hist, n, mean * (1 - UNIFORMITY_BAND), mean * (1 + UNIFORMITY_BAND));
  return { n, mean: round(mean, 1), sd: round(sd, 1), cv: round((sd / mean) * 100, 2), uniformityPct: round(Math.min(100, share * 100), 1) };
}

/** Median of plain values (mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Median of a histogram: the geometric centre of the bin holding the middle reading (±0.25 %). */
export function histogramMedian(hist: Histogram): number {
  const bins = Object.entries(hist)
    .map(([k, c]) => [Number(k), c] as const)
    .sort((x, y) => x[0] - y[0]);
  const n = bins.reduce((a, [, c]) => a + c, 0);
  let seen = 0;
  for (const [k, c] of bins) {
    seen += c;
    if (seen * 2 >= n) return HISTOGRAM_RATIO ** (k + 0.5);
  }
  throw new Error('empty histogram');
}

export type RejectReason = 'outsideCycle' | 'implausible' | 'outlier';

/** Not a bird's weight at all: ≤ 0, above 10 kg, or not a finite number. */
export function isImplausible(grams: number): boolean {
  return !Number.isFinite(grams) || grams < MIN_PLAUSIBLE_GRAMS || grams > MAX_PLAUSIBLE_GRAMS;
}

/**
 * Outlier band of a device's day: readings outside [median × 0.5, median × 1.5] are rejected, the median
 * taken over the day's plausible readings (those stored from earlier batches and this batch's). ±50 %
 * keeps every genuine bird of a normal flock (mixed-sex broilers have CV ≈ 12–15 %, so 3 SD ≈ 45 %) and
 * drops what platform scales typically mis-record: two birds at once (≈ +100 %) and a bird only partly
 * on the platform or leaving it (≈ −50 % and below). Not applied below 3 readings in the day.
 */
export function outlierBounds(referenceMedian: number): { lo: number; hi: number } {
  return { lo: referenceMedian * (1 - OUTLIER_TOLERANCE), hi: referenceMedian * (1 + OUTLIER_TOLERANCE) };
}

export interface DayIngest {
  accepted: number[];
  outliers: number;
  merged: DayAggregate;
}

/**
 * Adds one batch's plausible readings of a device's day to what is stored: filters outliers against the
 * day's median (exact over the batch when nothing is stored yet, from the merged histogram otherwise),
 * then merges the rest.
 */
export function ingestDay(stored: DayAggregate | undefined, plausible: readonly number[]): DayIngest {
  const before = stored ?? EMPTY_DAY;
  let accepted = [...plausible];
  if (before.n + plausible.length >= OUTLIER_MIN_READINGS) {
    const reference = before.n === 0 ? median(plausible) : histogramMedian(addToDay(before, plausible).hist);
    const { lo, hi } = outlierBounds(reference);
    accepted = plausible.filter((g) => g >= lo && g <= hi);
  }
  return { accepted, outliers: plausible.length - accepted.length, merged: addToDay(before, accepted) };
}

/** The local calendar date of a reading: the date as written in its ISO timestamp (the device's own UTC offset). */
export function readingDate(at: string): string {
  return at.slice(0, 10);
}

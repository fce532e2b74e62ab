/**
 * Egg quality trend (GET /api/v2/analytics/egg-quality-trend/{flockId}): per day or per ISO week, eggs
 * collected and their defects, egg weight and hen-day %, plus the direction of cracked %, dirty % and egg
 * weight over the last periods. Pure: the cycle's daily rollups in. Hen-day % and the double-yolk rate
 * of a period are the layer figures of its days (./layer-figures.ts: the days of the laying period that
 * are over or have their eggs), so the whole cycle's period answers the cycle KPIs' hen-day.
 * Formulas, trend and tolerances: docs/analytics-reports.md ("Egg quality trend").
 */
import { figure, ledgerByDate, missing } from './figures.js';
import { emptyDay, type DayTotals, type Figure } from './inputs.js';
import { eggCalendar, layerDayOf, layerFigures, type EggCalendar } from './layer-figures.js';
import type { BirdType } from '../weights.js';
import { addDays, daysBetween } from '../../platform/calendar.js';

export type EggQualityWindow = 'day' | 'week';
export type TrendDirection = 'improving' | 'stable' | 'worsening' | 'insufficient_data';

export interface TrendTolerance {
  /** Percentage points per week. */
  crackedPctPerWeek: number;
  /** Percentage points per week. */
  dirtyPctPerWeek: number;
  /** Grams per week. */
  eggWeightGramsPerWeek: number;
}

export const TREND_TOLERANCE: TrendTolerance = { crackedPctPerWeek: 0.2, dirtyPctPerWeek: 0.2, eggWeightGramsPerWeek: 0.2 };
/** Periods the trend looks at by default, per window. */
export const DEFAULT_TREND_PERIODS: Record<EggQualityWindow, number> = { day: 7, week: 4 };
/** Fewest periods with a value a slope is fitted on. */
export const MIN_TREND_POINTS = 3;

export interface EggQualityOptions {
  window: EggQualityWindow;
  /** First date covered (default: the earliest date in `days`). */
  from?: string;
  /** Last date covered (default: the latest date in `days`; pass `asOf` to include days without collections up to today). */
  to?: string;
  /** How many of the latest periods the trend is fitted on (default DEFAULT_TREND_PERIODS[window]). */
  trendPeriods?: number;
  tolerance?: Partial<TrendTolerance>;
  /** The farm-local today: a day from it on counts in hen-day only with its eggs recorded (default: every day is over). */
  today?: string;
  /** The flock's birds (default layer): hen-day and the double-yolk rate are figures of layers and breeders. */
  birdType?: BirdType;
}

/** Hens alive per date (as the KPI engine counts them); a date without an entry takes the latest earlier one. */
export type HensAlivePerDay = Record<string, number>;

export interface EggQualityPeriod {
  /** The date (window day) or ISO week `YYYY-Www` (window week). */
  period: string;
  from: string;
  to: string;
  /** Calendar days covered (7 for a full week; fewer at the edges of the range). */
  days: number;
  eggsCollected: number;
  eggsCracked: number;
  eggsDirty: number;
  eggsDoubleYolk: number;
  /** %, null when nothing was collected. */
  crackedPct: Figure;
  dirtyPct: Figure;
  doubleYolkPct: Figure;
  saleableEggs: number;
  saleablePct: Figure;
  /** g, weighted by eggs; null when no collection gave a weight. */
  averageEggWeightGrams: Figure;
  /** Eggs the average weight stands on. */
  eggsWeighed: number;
  /** Σ hens alive over the period's days that count in hen-day (the laying period's days that are over or have their eggs); null when one has no hen count. */
  henDays: number | null;
  /** %, eggs ÷ hen-days × 100. */
  henDayPct: Figure;
}

export interface MetricTrend {
  direction: TrendDirection;
  /** The unit of the metric (`%` or `g`); its slopes are in `pp/day|pp/week` (percentage points) or `g/day|g/week`. */
  unit: string;
  /** Periods with a value the slope was fitted on. */
  points: number;
  /** Least-squares slope per period (per day or per week) and per week (4 decimals); null below MIN_TREND_POINTS. */
  slopePerPeriod: Figure;
  slopePerWeek: Figure;
  /** The tolerance within which the direction is stable, in the unit of `slopePerWeek` (a threshold: a plain number). */
  tolerancePerWeek: number;
  /** Mean of the points and the latest period's value (the latest value may be null: no eggs), in `unit`. */
  mean: Figure;
  latest: Figure;
  reason?: string;
}

export interface EggQualityTrend {
  window: EggQualityWindow;
  from: string | null;
  to: string | null;
  periods: EggQualityPeriod[];
  /** The whole range as one period (period = `${from}/${to}`); null when the range is empty. */
  overall: EggQualityPeriod | null;
  trend: {
    /** The periods looked at (the last N). */
    periods: number;
    from: string | null;
    to: string | null;
    crackedPct: MetricTrend;
    dirtyPct: MetricTrend;
    averageEggWeightGrams: MetricTrend;
  };
}

// ---------------------------------------------------------------------------------------------------
// Calendar helpers

const DAY_MS = 86_400_000;
/** The date `n` days after `date` (YYYY-MM-DD). */

/** ISO 8601 week of a date: weeks start on Monday; week 1 holds the year's first Thursday. */
export function isoWeek(date: string): { key: string; year: number; week: number; monday: string; sunday: string } {
  const t = Date.parse(date);
  const dow = (new Date(t).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  const thursday = new Date(t + (3 - dow) * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = 1 + Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY_MS));
  const monday = addDays(date, -dow);
  return { key: `${year}-W${String(week).padStart(2, '0')}`, year, week, monday, sunday: addDays(monday, 6) };
}

// ---------------------------------------------------------------------------------------------------

const NO_EGGS = 'no eggs collected in the period';
const pct = (part: number, whole: number, none = NO_EGGS): Figure => (whole > 0 ? figure((part / whole) * 100, '%', 2) : missing('%', none));
/** Percentage points: the unit of a change or slope of a % metric. */
const slopeUnit = (unit: string, per: 'day' | 'week') => `${unit === '%' ? 'pp' : unit}/${per}`;

/** Hens alive on every date from `from` to `to`, carrying the latest entry forward; null before the first entry. */
function hensOnDates(hens: HensAlivePerDay, from: string, to: string): Map<string, number | null> {
  const entries = Object.entries(hens).sort(([a], [b]) => a.localeCompare(b));
  const out = new Map<string, number | null>();
  let i = 0;
  let current: number | null = null;
  while (i < entries.length && entries[i]![0] < from) current = entries[i++]![1];
  for (let d = from; d <= to; d = addDays(d, 1)) {
    while (i < entries.length && entries[i]![0] <= d) current = entries[i++]![1];
    out.set(d, current);
  }
  return out;
}

interface PeriodBasis {
  /** Hens present per date (null: not given). */
  hens: Map<string, number | null> | null;
  calendar: EggCalendar;
  birdType: BirdType;
  /** The day totals by date (a date not in it: a day of zeros). */
  byDate: Map<string, DayTotals>;
}

function summarise(period: string, from: string, to: string, basis: PeriodBasis): EggQualityPeriod {
  const days: DayTotals[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) days.push(basis.byDate.get(d) ?? emptyDay(d));
  let collected = 0,
    cracked = 0,
    dirty = 0,
    doubleYolk = 0,
    weightSum = 0,
    weighed = 0;
  for (const d of days) {
    collected += d.eggsCollected;
    cracked += d.eggsCracked;
    dirty += d.eggsDirty;
    doubleYolk += d.eggsDoubleYolk;
    weightSum += d.eggWeightGramsSum;
    weighed += d.eggsWeighed;
  }
  const layer = layerFigures(
    days.map((d) => layerDayOf(d, basis.hens?.get(d.date) ?? null)),
    {
      calendar: basis.calendar,
      birdType: basis.birdType,
      housed: 0,
      eggWeightFallback: null,
      reasons: {
        noEggs: NO_EGGS,
        unknownHens: basis.hens ? 'hens alive unknown on a day of the period (before the first bird count)' : 'hens alive not known',
        noHens: 'no hens present in the period',
      },
    },
  );
  const saleable = Math.max(0, collected - cracked - dirty);
  return {
    period,
    from,
    to,
    days: daysBetween(from, to) + 1,
    eggsCollected: collected,
    eggsCracked: cracked,
    eggsDirty: dirty,
    eggsDoubleYolk: doubleYolk,
    crackedPct: pct(cracked, collected),
    dirtyPct: pct(dirty, collected),
    doubleYolkPct: collected > 0 ? layer.doubleYolkPct : pct(doubleYolk, collected),
    saleableEggs: saleable,
    saleablePct: pct(saleable, collected),
    averageEggWeightGrams:
      weighed > 0 ? figure(weightSum / weighed, 'g', 1) : missing('g', collected > 0 ? 'no collection of the period gave an egg weight' : NO_EGGS),
    eggsWeighed: weighed,
    henDays: layer.henDays,
    henDayPct: layer.henDayPct,
  };
}

/** Least-squares slope of y against x; null below MIN_TREND_POINTS. */
export function leastSquaresSlope(points: ReadonlyArray<readonly [x: number, y: number]>): number | null {
  if (points.length < MIN_TREND_POINTS) return null;
  const n = points.length;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  let sxy = 0,
    sxx = 0;
  for (const [x, y] of points) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
  }
  return sxx === 0 ? null : sxy / sxx;
}

/** Digits of a trend's slopes (finer than the metric's own rounding: a slope is a small difference). */
const D_SLOPE = 4;

function metricTrend(
  periods: readonly Figure[],
  window: EggQualityWindow,
  unit: string,
  digits: number,
  tolerancePerWeek: number,
  better: 'lower' | 'higher',
): MetricTrend {
  const values = periods.map((f) => f.value);
  const points = values.flatMap((y, x) => (y === null ? [] : [[x, y] as const]));
  const latest = periods.at(-1);
  const base = {
    unit,
    points: points.length,
    tolerancePerWeek,
    mean: points.length ? figure(points.reduce((a, [, y]) => a + y, 0) / points.length, unit, digits) : missing(unit, 'no period with eggs'),
    latest: latest
      ? latest.value === null
        ? missing(unit, `latest period: ${latest.reason}`)
        : figure(latest.value, unit, digits)
      : missing(unit, 'no period'),
  };
  const slope = leastSquaresSlope(points);
  if (slope === null) {
    const reason = `needs at least ${MIN_TREND_POINTS} periods with eggs; has ${points.length}`;
    return {
      ...base,
      direction: 'insufficient_data',
      slopePerPeriod: missing(slopeUnit(unit, window), reason),
      slopePerWeek: missing(slopeUnit(unit, 'week'), reason),
      reason,
    };
  }
  const perWeek = window === 'week' ? slope : slope * 7;
  let direction: TrendDirection = 'stable';
  if (Math.abs(perWeek) > tolerancePerWeek + 1e-9) direction = perWeek < 0 === (better === 'lower') ? 'improving' : 'worsening';
  return {
    ...base,
    direction,
    slopePerPeriod: figure(slope, slopeUnit(unit, window), D_SLOPE),
    slopePerWeek: figure(perWeek, slopeUnit(unit, 'week'), D_SLOPE),
  };
}

/** Egg quality per day or ISO week, and the trend of cracked %, dirty % and egg weight (see the module doc). */
export function eggQualityTrend(days: readonly DayTotals[], hensAlivePerDay: HensAlivePerDay | null | undefined, options: EggQualityOptions): EggQualityTrend {
  const window = options.window;
  const sorted = [...days].sort((a, b) => a.date.localeCompare(b.date));
  const from = options.from ?? sorted[0]?.date ?? null;
  const to = options.to ?? sorted[sorted.length - 1]?.date ?? null;
  const tolerance = { ...TREND_TOLERANCE, ...options.tolerance };
  const n = Math.max(1, Math.floor(options.trendPeriods ?? DEFAULT_TREND_PERIODS[window]));

  const periods: EggQualityPeriod[] = [];
  let overall: EggQualityPeriod | null = null;
  if (from !== null && to !== null && from <= to) {
    const basis: PeriodBasis = {
      hens: hensAlivePerDay ? hensOnDates(hensAlivePerDay, from, to) : null,
      // the laying period starts on the cycle's first day with eggs, whatever range is shown
      calendar: eggCalendar(sorted, options.today),
      birdType: options.birdType ?? 'layer',
      byDate: ledgerByDate(sorted),
    };
    let start = from;
    while (start <= to) {
      let end: string;
      let key: string;
      if (window === 'day') {
        end = start;
        key = start;
      } else {
        const w = isoWeek(start);
        end = w.sunday < to ? w.sunday : to;
        key = w.key;
      }
      periods.push(summarise(key, start, end, basis));
      start = addDays(end, 1);
    }
    overall = summarise(`${from}/${to}`, from, to, basis);
  }

  const last = periods.slice(-n);
  return {
    window,
    from,
    to,
    periods,
    overall,
    trend: {
      periods: last.length,
      from: last[0]?.from ?? null,
      to: last[last.length - 1]?.to ?? null,
      crackedPct: metricTrend(
        last.map((p) => p.crackedPct),
        window,
        '%',
        2,
        tolerance.crackedPctPerWeek,
        'lower',
      ),
      dirtyPct: metricTrend(
        last.map((p) => p.dirtyPct),
        window,
        '%',
        2,
        tolerance.dirtyPctPerWeek,
        'lower',
      ),
      averageEggWeightGrams: metricTrend(
        last.map((p) => p.averageEggWeightGrams),
        window,
        'g',
        1,
        tolerance.eggWeightGramsPerWeek,
        'higher',
      ),
    },
  };
}

/**
 * What the hypotheses are ranked on (pure): the figures of the day or hour an alarm is about, taken from
 * the cycle's daily KPI series (water against the three days before, as % of the expected intake for the
 * age; feed per bird against its own trend over the three days before; both held at the start of a spell
 * of low days; mortality against the week before) and from the house's sensors (temperature against the
 * age curve, NH₃, humidity, CO₂: for a day, its hottest hour and its means; for an hour, that hour's averages).
 * A figure that is not known stays null: a hypothesis is then neither supported nor contradicted by it.
 */
import { baselineOf, waterLevel } from '../analytics/kpis/feed-water.js';
import type { DailyKpis } from '../analytics/kpis/types.js';
import { round } from '../weights.js';
import type { Signals, TemperatureReading } from './hypotheses.js';
import { temperatureRange, type FlockContext } from '../iot/climate.js';
import type { HouseDay } from '../iot/house-days.js';
import type { SensorMetric } from '../../../schemas/vocabulary.js';

/** House climate around the alarm: a day's hottest hour and means, an hour's averages, or the newest readings. */
export interface ClimateSignals {
  temperatureDeviationC: number | null;
  /** The reading behind `temperatureDeviationC` when it is a day's hottest hour (null otherwise). */
  temperature: TemperatureReading | null;
  nh3Ppm: number | null;
  humidityPct: number | null;
  co2Ppm: number | null;
}

export const NO_CLIMATE: ClimateSignals = { temperatureDeviationC: null, temperature: null, nh3Ppm: null, humidityPct: null, co2Ppm: null };

const lowest = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : Math.min(a, b));
const mean = (xs: readonly number[]): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

/** A fall of at least this % starts (or continues) a spell of low days, as the causes count a drop. */
const SPELL_DROP_PCT = -10;

/** What day `day` is compared with when the reference is the days before day `from` (from ≤ day); null when unknown. */
type Reference = (series: readonly DailyKpis[], from: number, day: number, pick: (d: DailyKpis) => number | null) => number | null;

/** The mean of the 3 days before `from` (all of them known). */
const meanBefore: Reference = (series, from, _day, pick) => baselineOf(series, from, pick);

/**
 * The straight line through the 3 days before `from` (least squares), extended to `day`: a growing flock
 * eats more every day, so its own trend, not a flat mean, is what "normal" means.
 */
const trendBefore: Reference = (series, from, day, pick) => {
  if (from < 3) return null;
  const before = series.slice(from - 3, from).map(pick);
  if (before.some((v) => v === null)) return null;
  const [a, b, c] = before as [number, number, number];
  // the line through x = −3, −2, −1: its mean at x = −2, its slope (c − a) ÷ 2
  return (a + b + c) / 3 + ((c - a) / 2) * (day - from + 2);
};

/**
 * % change of day `i`'s value against its reference, held at the start of a spell of low days (each at
 * least SPELL_DROP_PCT below the reference of the spell's start), so that the second day of an outage is
 * compared with the days before it, not with the first day of the outage (which would read as a rise).
 * A day without a figure ends a spell. Null when the day's figure or its reference is unknown.
 */
function heldChange(series: readonly DailyKpis[], i: number, pick: (d: DailyKpis) => number | null, reference: Reference): number | null {
  let start: number | null = null;
  let change: number | null = null;
  for (let k = 0; k <= i; k++) {
    const from: number = start ?? k;
    const ref = reference(series, from, k, pick);
    const value = pick(series[k]!);
    change = value === null || ref === null || ref <= 0 ? null : ((value - ref) / ref) * 100;
    start = change !== null && change <= SPELL_DROP_PCT ? from : null;
  }
  return change === null ? null : round(change, 1);
}

/**
 * The signals of day `date` of a cycle's series (the last day on or before it), with the house climate
 * around it. `metric` names what fired (the rule's input or the detection's metric).
 */
export function signalsOfDay(
  series: readonly DailyKpis[],
  date: string,
  opts: {
    metric: string;
    houseName: string | null;
    climate: ClimateSignals;
    thresholds: Signals['thresholds'];
    waterChangePct?: number | null;
    /** What the day's water is measured by against the days before (default `waterLevel`; the cycle's `intakeLevels`: against growth alone). */
    waterLevel?: (d: DailyKpis) => number | null;
  },
): Signals {
  let i = -1;
  for (let k = 0; k < series.length && series[k]!.date <= date; k++) i = k;
  const day = i >= 0 ? series[i]! : undefined;
  const mortalityBefore =
    i > 0 ? series.slice(Math.max(0, i - 7), i).flatMap((d) => (d.dailyMortalityPct.value === null ? [] : [d.dailyMortalityPct.value])) : [];
  const baseline = mean(mortalityBefore);
  return {
    metric: opts.metric,
    houseName: opts.houseName,
    // the firing's own measure of the water drop counts when it says more than the day against the days before
    waterChangePct: lowest(day ? heldChange(series, i, opts.waterLevel ?? waterLevel, meanBefore) : null, opts.waterChangePct ?? null),
    feedChangePct: day ? heldChange(series, i, (d) => d.feedGramsPerBird.value, trendBefore) : null,
    mortalityPct: day?.dailyMortalityPct.value ?? null,
    mortalityBaselinePct: baseline === null ? null : round(baseline, 3),
    ...opts.climate,
    thresholds: opts.thresholds,
  };
}

/** The age curve's range for the flock and its middle (the target), or null (no flock, or no curve). */
function curveOf(flock: FlockContext | null): { min: number; max: number; target: number } | null {
  const range = flock ? temperatureRange(flock) : null;
  return range && range.min !== null && range.max !== null ? { min: range.min, max: range.max, target: (range.min + range.max) / 2 } : null;
}

/**
 * The climate signals of a house from metric values (an hour's averages, or the newest readings):
 * temperature as its deviation from the middle of the age curve's range (no flock: unknown).
 */
export function climateOf(values: Partial<Record<SensorMetric, number>>, flock: FlockContext | null): ClimateSignals {
  const t = values.temperatureC;
  const curve = curveOf(flock);
  return {
    temperatureDeviationC: t === undefined || curve === null ? null : round(t - curve.target, 1),
    temperature: null,
    nh3Ppm: values.nh3Ppm ?? null,
    humidityPct: values.humidityPct ?? null,
    co2Ppm: values.co2Ppm ?? null,
  };
}

/**
 * The climate signals of a farm-local day (what a daily alarm is judged on): the temperature of its
 * hottest hour against the age curve, named with its value and time, and the day's mean NH₃, humidity and
 * CO₂. No climate sensor reading that day: unknown.
 */
export function climateOfDay(day: HouseDay | null, flock: FlockContext | null): ClimateSignals {
  const hottest = day?.hottest ?? null;
  const curve = curveOf(flock);
  const known = hottest !== null && curve !== null && flock !== null;
  return {
    temperatureDeviationC: known ? round(hottest.temperatureC - curve.target, 1) : null,
    temperature: known
      ? { valueC: hottest.temperatureC, at: hottest.localTime, targetC: curve.target, minC: curve.min, maxC: curve.max, ageDays: flock.ageDays }
      : null,
    nh3Ppm: day?.nh3Ppm ?? null,
    humidityPct: day?.humidityPct ?? null,
    co2Ppm: day?.co2Ppm ?? null,
  };
}

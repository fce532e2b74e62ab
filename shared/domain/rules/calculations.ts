/**
 * The inputs a rule can watch (GET /api/v1/rules/metadata/calculations): the calculation templates, and
 * every sensor metric. Each template is a figure the KPI engine, the financials or the house climate
 * already compute, turned into a series of points the rule engine (./evaluation.ts) evaluates: one formula,
 * one place, so an alarm and the report it points to never disagree.
 *
 * - Daily templates read the cycle's daily series (`dailySeries`): one point per calendar day, the value
 *   null (with context.reason) when the figure cannot be computed that day.
 * - Hourly templates and sensor metrics read a house's hourly rollups: per hour the average over every
 *   device of the house that reported the metric (Σ sum ÷ Σ count, so a device reporting twice as often
 *   weighs twice as much).
 * - Farm-level templates (`appliesTo: 'farm'`, `farmPoints`) read facts of the farm rather than of a
 *   cycle: one point per calendar day, judged once per farm (target `farm:<id>`), whatever its flocks.
 * - Every point's context carries ageDays (null without a flock), which json-logic conditions may read.
 */
import type { AnalyticsSections } from '../../../schemas/analytics-config.js';
import { SENSOR_METRICS, type BirdType, type SensorMetric } from '../../../schemas/vocabulary.js';
import { cycleFinancials } from '../analytics/financials/cycle.js';
import type { CycleInputs, Figure } from '../analytics/inputs.js';
import { effectiveWeighings } from '../analytics/kpis/context.js';
import { calendarDays } from '../analytics/kpis/daily.js';
import { baselineOf, waterLevel } from '../analytics/kpis/feed-water.js';
import type { DailyKpis } from '../analytics/kpis/types.js';
import { weighingFigure } from '../analytics/kpis/weight.js';
import { temperatureRange } from '../iot/climate.js';
import { METRICS } from '../iot/metrics.js';
import type { BucketStats } from '../iot/rollups.js';
import { round } from '../weights.js';
import { DRILL_SOURCES, drillStatus, type DrillFact } from '../continuity/readiness.js';
import type { Basis, SeriesPoint } from './evaluation.js';

export interface CalculationTemplate {
  id: string;
  name: string;
  formula: string;
  unit: string;
  /** The facts it reads, e.g. ['deaths', 'birds present']. */
  inputs: string[];
  /** A public reference for the figure or its convention. */
  source: string;
  basis: Basis;
  birdTypes: 'all' | 'broilers' | 'layers';
  /** What a rule on it judges: each active flock (daily), each house with sensors (hourly), or the farm once. */
  appliesTo: 'flock' | 'house' | 'farm';
}

const ROSS_OBJECTIVES = 'Aviagen, Ross 308 Broiler: Performance Objectives, 2022';
const ROSS_HANDBOOK = 'Aviagen, Ross Broiler Management Handbook, 2018';
const EU_BROILERS = 'Council Directive 2007/43/EC (protection of chickens kept for meat production)';
const TABLER = 'Tabler, University of Arkansas Cooperative Extension: water consumption as a flock health indicator';
/** Feed stock ÷ daily use averaged over this many days (the day and the days before it). */
const FEED_USE_DAYS = 3;

/** The calculation templates; `unit` "currency/…" is the pricing section's currency. */
export const CALCULATIONS: readonly CalculationTemplate[] = [
  {
    id: 'dailyMortalityPct',
    name: 'Daily mortality',
    formula: 'deaths that day ÷ birds present that day × 100 (present: alive at the start of the day + that day’s placements and transfers in)',
    unit: '%',
    inputs: ['deaths', 'birds present'],
    source: `${EU_BROILERS}, Annex I (the daily record of dead birds)`,
    basis: 'day',
    birdTypes: 'all',
    appliesTo: 'flock',
  },
  {
    id: 'cumulativeMortalityPct',
    name: 'Cumulative mortality',
    formula: 'deaths since placement ÷ birds housed × 100',
    unit: '%',
    inputs: ['deaths', 'birds housed'],
    source: `${EU_BROILERS}, Annex V (cumulative daily mortality; the 1 % + 0.06 % × age criterion)`,
    basis: 'day',
    birdTypes: 'all',
    appliesTo: 'flock',
  },
  {
    id: 'fcr',
    name: 'Feed conversion ratio',
    formula: 'cumulative feed kg ÷ (birds alive × body weight kg)',
    unit: 'kg/kg',
    inputs: ['feed consumed', 'birds alive', 'body weight'],
    source: `${ROSS_OBJECTIVES} (cumulative FCR)`,
    basis: 'day',
    birdTypes: 'broilers',
    appliesTo: 'flock',
  },
  {
    id: 'adg',
    name: 'Average daily gain (between the two latest weighings)',
    formula: '(latest weighing g − the weighing before it g) ÷ days between them; stands while the latest weighing is within fallbacks.carryForwardWeightDays',
    unit: 'g/day',
    inputs: ['weighings'],
    source: `${ROSS_OBJECTIVES} (daily gain)`,
    basis: 'day',
    birdTypes: 'broilers',
    appliesTo: 'flock',
  },
  {
    id: 'uniformityPct',
    name: 'Uniformity',
    formula: 'share of the weighed birds within ±10 % of the sample mean × 100, on the days of a weighing with individual weights',
    unit: '%',
    inputs: ['individual weighings'],
    source: `${ROSS_HANDBOOK} (flock uniformity)`,
    basis: 'day',
    birdTypes: 'all',
    appliesTo: 'flock',
  },
  {
    id: 'waterFeedRatio',
    name: 'Water:feed ratio',
    formula: 'litres of water ÷ kg of feed, same day',
    unit: 'l/kg',
    inputs: ['water', 'feed consumed'],
    source: TABLER,
    basis: 'day',
    birdTypes: 'all',
    appliesTo: 'flock',
  },
  {
    id: 'epef',
    name: 'European Production Efficiency Factor',
    formula: 'livability % × body weight kg × 100 ÷ (age days × FCR)',
    unit: 'index',
    inputs: ['birds alive', 'birds sold', 'birds housed', 'body weight', 'feed consumed', 'age'],
    source: `${ROSS_HANDBOOK} (production efficiency factor)`,
    basis: 'day',
    birdTypes: 'broilers',
    appliesTo: 'flock',
  },
  {
    id: 'henDayPct',
    name: 'Hen-day production',
    formula: 'eggs collected that day ÷ hens present that day × 100',
    unit: '%',
    inputs: ['eggs collected', 'birds present'],
    source: 'Hy-Line International, Hy-Line Brown Commercial Layers Performance Standards Guide (hen-day %)',
    basis: 'day',
    birdTypes: 'layers',
    appliesTo: 'flock',
  },
  {
    id: 'costPerKgLive',
    name: 'Cost per kg live weight (to date)',
    formula: 'the cycle’s costs to that day ÷ (live kg sold + live kg alive that day)',
    unit: 'currency/kg',
    inputs: ['movements and their prices', 'pricing configuration', 'birds alive', 'body weight', 'sales'],
    source: 'the farm’s own prices (analytics configuration, pricing); cost of production per kg live weight as in farm accounts, no single source',
    basis: 'day',
    birdTypes: 'broilers',
    appliesTo: 'flock',
  },
  {
    id: 'costPerEgg',
    name: 'Cost per egg (to date)',
    formula: 'the cycle’s costs to that day ÷ eggs collected to that day',
    unit: 'currency/egg',
    inputs: ['movements and their prices', 'pricing configuration', 'eggs collected'],
    source: 'the farm’s own prices (analytics configuration, pricing); cost of production per egg as in farm accounts, no single source',
    basis: 'day',
    birdTypes: 'layers',
    appliesTo: 'flock',
  },
  {
    id: 'daysOfFeedLeft',
    name: 'Days of feed left',
    formula: `(Σ feed delivered − Σ feed consumed in the cycle to that day) ÷ mean daily feed consumed over the last ${FEED_USE_DAYS} days`,
    unit: 'days',
    inputs: ['feed delivered', 'feed consumed'],
    source: 'farm practice (stock ÷ daily use), no single source',
    basis: 'day',
    birdTypes: 'all',
    appliesTo: 'flock',
  },
  {
    id: 'waterDropPct',
    name: 'Drop in water intake',
    formula:
      '(baseline − the day’s water) ÷ baseline × 100, the water taken as % of the expected intake for the birds’ age (ml per bird when no expectation is known), baseline = its mean over the 3 days before; during a spell of low days (each more than consumption.lowIntakeTolerancePct below its baseline) the 3 days before the spell began. Negative when the birds drink more',
    unit: '%',
    inputs: ['water', 'birds present', 'expected water intake for the age'],
    source: TABLER,
    basis: 'day',
    birdTypes: 'all',
    appliesTo: 'flock',
  },
  {
    id: 'temperatureDeviation',
    name: 'Temperature off the age curve',
    formula: 'average house temperature that hour − the target of the age curve at the flock’s age (pullets: the middle of the week’s band)',
    unit: '°C',
    inputs: ['temperatureC', 'flock age'],
    source: `${ROSS_HANDBOOK}; Cobb-Vantress, Cobb Broiler Management Guide; Hy-Line and Lohmann pullet rearing guides`,
    basis: 'hour',
    birdTypes: 'all',
    appliesTo: 'house',
  },
  {
    id: 'ammonia',
    name: 'Ammonia',
    formula: 'average NH₃ that hour over the house’s sensors',
    unit: 'ppm',
    inputs: ['nh3Ppm'],
    source: `${EU_BROILERS}, Annex II (NH₃ ≤ 20 ppm at the level of the birds’ heads)`,
    basis: 'hour',
    birdTypes: 'all',
    appliesTo: 'house',
  },
  {
    id: 'co2',
    name: 'Carbon dioxide',
    formula: 'average CO₂ that hour over the house’s sensors',
    unit: 'ppm',
    inputs: ['co2Ppm'],
    source: `${EU_BROILERS}, Annex II (CO₂ ≤ 3000 ppm at the level of the birds’ heads)`,
    basis: 'hour',
    birdTypes: 'all',
    appliesTo: 'house',
  },
  {
    id: 'humidity',
    name: 'Relative humidity',
    formula: 'average relative humidity that hour over the house’s sensors',
    unit: '%',
    inputs: ['humidityPct'],
    source: `${EU_BROILERS}, Annex II (relative humidity)`,
    basis: 'hour',
    birdTypes: 'all',
    appliesTo: 'house',
  },
  {
    id: 'generatorDrillOverdueDays',
    name: 'Generator drill overdue',
    formula:
      'days past the due date of the next generator drill, 0 while it is not due: due 7 days after the last drill that ran (passed or partial; a failed drill does not reset the clock), or 7 days after the farm was created when none was ever recorded',
    unit: 'days',
    inputs: ['generator drills (POST /api/v1/continuity/drills)', 'farm creation date'],
    source: DRILL_SOURCES.generator,
    basis: 'day',
    birdTypes: 'all',
    appliesTo: 'farm',
  },
];

const BY_ID = new Map(CALCULATIONS.map((c) => [c.id, c]));
export const calculationById = (id: string): CalculationTemplate | undefined => BY_ID.get(id);

/** The sensor metric each hourly template averages. */
const TEMPLATE_METRIC: Readonly<Record<string, SensorMetric>> = {
  temperatureDeviation: 'temperatureC',
  ammonia: 'nh3Ppm',
  co2: 'co2Ppm',
  humidity: 'humidityPct',
};

const METRIC_NAMES: Record<SensorMetric, string> = {
  temperatureC: 'Temperature',
  humidityPct: 'Relative humidity',
  nh3Ppm: 'Ammonia (NH₃)',
  co2Ppm: 'Carbon dioxide (CO₂)',
  coPpm: 'Carbon monoxide (CO)',
  staticPressurePa: 'Static pressure',
  lux: 'Light intensity',
  waterLitersTotal: 'Water meter reading',
  siloKg: 'Feed in the silo',
  birdWeightGrams: 'Bird scale weighing',
};
const isSensorMetric = (x: string): x is SensorMetric => (SENSOR_METRICS as readonly string[]).includes(x);

/** An input is a calculation id or a sensor metric (SENSOR_METRICS): its basis (sensor metrics are hourly), unit and name. */
export function inputOf(
  input: string,
): { kind: 'calculation' | 'sensor'; basis: Basis; unit: string; name: string; appliesTo: CalculationTemplate['appliesTo'] } | undefined {
  const c = BY_ID.get(input);
  if (c) return { kind: 'calculation', basis: c.basis, unit: c.unit, name: c.name, appliesTo: c.appliesTo };
  if (isSensorMetric(input)) return { kind: 'sensor', basis: 'hour', unit: METRICS[input].unit, name: METRIC_NAMES[input], appliesTo: 'house' };
  return undefined;
}

// ---------------------------------------------------------------------------------------------------
// Daily points

type Context = Record<string, number | string | null>;

/** A point from a KPI figure: its value, or null with the figure's reason in the context. */
const fromFigure = (row: DailyKpis, f: Figure, context: Context = {}): SeriesPoint => ({
  bucket: row.date,
  value: f.value,
  context: { ageDays: row.ageDays, ...context, ...(f.value === null ? { reason: f.reason ?? null } : {}) },
});

const none = (row: DailyKpis, reason: string, context: Context = {}): SeriesPoint => ({
  bucket: row.date,
  value: null,
  context: { ageDays: row.ageDays, ...context, reason },
});

/**
 * Water drop % per day (see the template's formula): the age-adjusted water figure (`waterLevel`) against
 * its mean over the 3 days before (`baselineOf`, as the low-intake anomaly does), with the baseline held at the start of a spell of low days so
 * that a lasting drop does not lower its own reference — otherwise the second day of a 20 % drop would
 * read only ≈ 14 % and two consecutive low days would never be seen. A day without a figure ends a spell.
 */
function waterDropPoints(rows: readonly DailyKpis[], tolerancePct: number): SeriesPoint[] {
  let spellStart: number | null = null;
  return rows.map((row, i) => {
    const ml = row.waterMlPerBird.value;
    const level = waterLevel(row);
    const from = spellStart ?? i;
    const base = baselineOf(rows, from, waterLevel);
    if (level === null || base === null || base <= 0) {
      spellStart = null;
      const why = ml === null ? (row.waterMlPerBird.reason ?? 'no water per bird that day') : 'needs water per bird on each of the 3 days before';
      return none(row, why, { waterMlPerBird: ml });
    }
    const drop = ((base - level) / base) * 100;
    spellStart = drop > tolerancePct ? from : null;
    return {
      bucket: row.date,
      value: round(drop, 2) + 0,
      context: {
        ageDays: row.ageDays,
        waterMlPerBird: ml,
        waterPctOfExpected: row.waterPctOfExpected.value,
        baseline: round(base, 1) + 0,
        baselineFrom: rows[from - 3]!.date,
        baselineTo: rows[from - 1]!.date,
      },
    };
  });
}

/** Days of feed left per day (see the template's formula). */
function feedLeftPoints(inputs: CycleInputs, rows: readonly DailyKpis[]): SeriesPoint[] {
  const ledger = new Map(calendarDays(inputs).map((d) => [d.date, d]));
  const consumed = rows.map((r) => ledger.get(r.date)?.feedConsumedKg ?? 0);
  let stock = 0;
  return rows.map((row, i) => {
    stock += (ledger.get(row.date)?.feedDeliveredKg ?? 0) - consumed[i]!;
    const first = Math.max(0, i - FEED_USE_DAYS + 1);
    const recent = consumed.slice(first, i + 1);
    const use = recent.reduce((a, b) => a + b, 0) / recent.length;
    const context = { feedStockKg: round(stock, 3) + 0, meanDailyFeedKg: round(use, 3) + 0 };
    if (use <= 0) return none(row, `no feed consumption recorded from ${rows[first]!.date} to ${row.date}`, context);
    if (stock < 0) return none(row, 'more feed consumed than delivered in this cycle: the stock it started with is unknown', context);
    return { bucket: row.date, value: round(stock / use, 1) + 0, context: { ageDays: row.ageDays, ...context } };
  });
}

/**
 * The financials of the cycle as they stood at the end of each day: `cycleFinancials` on the ledger days
 * up to that day, with that day's live weight. O(days²) over a cycle, which a backtest of a few hundred
 * days affords.
 */
function costPoints(inputs: CycleInputs, config: AnalyticsSections, rows: readonly DailyKpis[], pick: 'costPerKgLiveweight' | 'costPerEgg'): SeriesPoint[] {
  return rows.map((row) => {
    const live = row.liveWeightKg;
    const f = cycleFinancials({ ...inputs, days: inputs.days.filter((d) => d.date <= row.date), asOf: row.date }, config, {
      kg: live.value,
      ...(live.reason !== undefined ? { reason: live.reason } : {}),
      ...(live.assumptions ? { assumptions: live.assumptions } : {}),
    });
    const extra: Context =
      pick === 'costPerKgLiveweight'
        ? { totalCost: f.costs.total, kgProduced: f.kgProduced.value }
        : { totalCost: f.costs.total, eggsCollected: f.quantities.eggsCollected };
    return fromFigure(row, f[pick], extra);
  });
}

/** Uniformity on the days of a weighing (the weighing's own figure, as the low-uniformity anomaly reads it); null on the other days. */
function uniformityPoints(inputs: CycleInputs, rows: readonly DailyKpis[]): SeriesPoint[] {
  const weighings = new Map(effectiveWeighings(inputs.weighings).map((w) => [w.date, w]));
  return rows.map((row) => {
    const w = weighings.get(row.date);
    if (!w) return none(row, 'no weighing that day');
    return fromFigure(row, weighingFigure(w, 'uniformityPct'), { grams: w.grams, sampleSize: w.sampleSize });
  });
}

/**
 * Daily points of a calculation over a cycle, one per calendar day of the series (value null with no data
 * that day); context carries ageDays and the figures behind the value. `series` is the cycle's
 * `dailySeries(inputs, config)`. Throws on an id that is not a daily calculation.
 *
 * adg is ADG between the two latest weighings (the series' adgSinceLastWeighing): it reacts to a slowdown
 * within a week, where ADG since placement averages the whole cycle.
 */
export function dailyPoints(id: string, cycle: { inputs: CycleInputs; config: AnalyticsSections; series: readonly DailyKpis[] }): SeriesPoint[] {
  const { inputs, config, series: rows } = cycle;
  switch (id) {
    case 'dailyMortalityPct':
      return rows.map((r) => fromFigure(r, r.dailyMortalityPct, { deaths: r.birds.deaths, birdsPresent: r.birds.present }));
    case 'cumulativeMortalityPct': {
      let deaths = 0;
      return rows.map((r) => {
        deaths += r.birds.deaths;
        return fromFigure(r, r.cumulativeMortalityPct, { deaths, birdsHoused: r.birds.housed });
      });
    }
    case 'fcr':
      return rows.map((r) =>
        fromFigure(r, r.fcr, { cumulativeFeedKg: r.cumulativeFeedKg.value, bodyWeightGrams: r.bodyWeight.value, birdsAlive: r.birds.aliveEnd }),
      );
    case 'adg':
      return rows.map((r) => fromFigure(r, r.adgSinceLastWeighing, { bodyWeightGrams: r.bodyWeight.value, bodyWeightDate: r.bodyWeight.date }));
    case 'uniformityPct':
      return uniformityPoints(inputs, rows);
    case 'waterFeedRatio':
      return rows.map((r) => fromFigure(r, r.waterFeedRatio, { waterLiters: r.waterLiters.value, feedKg: r.feedKg.value }));
    case 'epef':
      return rows.map((r) => fromFigure(r, r.epef, { livabilityPct: r.livabilityPct.value, bodyWeightGrams: r.bodyWeight.value, fcr: r.fcr.value }));
    case 'henDayPct':
      return rows.map((r) => fromFigure(r, r.henDayPct, { eggsCollected: r.eggs.collected, birdsPresent: r.birds.present }));
    case 'costPerKgLive':
      return costPoints(inputs, config, rows, 'costPerKgLiveweight');
    case 'costPerEgg':
      return costPoints(inputs, config, rows, 'costPerEgg');
    case 'daysOfFeedLeft':
      return feedLeftPoints(inputs, rows);
    case 'waterDropPct':
      return waterDropPoints(rows, config.consumption.lowIntakeTolerancePct);
    default:
      throw new RangeError(`${id} is not a daily calculation`);
  }
}

// ---------------------------------------------------------------------------------------------------
// Farm-level points

/** What a farm-level template reads: the farm's drills and the day it was created. */
export interface FarmFacts {
  drills: readonly DrillFact[];
  createdAt: string | null;
}

/**
 * Daily points of a farm-level calculation, one per day of `days` (UTC dates, oldest first), each judged
 * as the day stood at its end. generatorDrillOverdueDays is drillStatus's count (../continuity/readiness.ts,
 * the same due date as the readiness report). Throws on an id that is not a farm-level calculation.
 */
export function farmPoints(id: string, facts: FarmFacts, days: readonly string[]): SeriesPoint[] {
  if (id !== 'generatorDrillOverdueDays') throw new RangeError(`${id} is not a farm-level calculation`);
  return days.map((day): SeriesPoint => {
    const s = drillStatus('generator', facts.drills, day, facts.createdAt);
    const context = { ageDays: null, lastDrillDate: s.lastDate, lastDrillResult: s.lastResult, dueDate: s.dueDate, everyDays: s.everyDays };
    if (s.daysOverdue === null)
      return { bucket: day, value: null, context: { ...context, reason: 'no generator drill recorded, and the farm’s creation date is unknown' } };
    return { bucket: day, value: s.daysOverdue, context };
  });
}

// ---------------------------------------------------------------------------------------------------
// Hourly points

/** The target of the age curve: the middle of the acceptable range (the broiler curve's target; a pullet band's middle). */
function targetTemperature(birdType: BirdType, ageDays: number): number {
  const r = temperatureRange({ birdType, ageDays });
  return (r.min! + r.max!) / 2;
}

/**
 * Hourly points of a sensor input for one house: a sensor metric's hourly average over the house's devices
 * (Σ sum ÷ Σ count of the entries of that hour; `hours` holds one entry per device and hour), or a sensor
 * calculation (temperatureDeviation: average temperature − the age curve's target at the flock's age that
 * hour, null without a flock; ammonia, co2, humidity: their metric). One point per distinct hour, in time
 * order; an hour whose entries lack the metric has value null. Throws on an input that is neither.
 */
export function hourlyPoints(
  input: string,
  hours: ReadonlyArray<{ hour: string; stats: BucketStats }>,
  flock: { birdType: BirdType; ageDaysAt: (hour: string) => number } | null,
): SeriesPoint[] {
  const metric = isSensorMetric(input) ? input : TEMPLATE_METRIC[input];
  if (!metric) throw new RangeError(`${input} is not an hourly input`);
  const byHour = new Map<string, { sum: number; n: number; min: number; max: number; devices: number }>();
  for (const { hour, stats } of hours) {
    const acc = byHour.get(hour) ?? { sum: 0, n: 0, min: Number.POSITIVE_INFINITY, max: Number.NEGATIVE_INFINITY, devices: 0 };
    const s = stats[metric];
    if (s && s.n > 0) {
      acc.sum += s.sum;
      acc.n += s.n;
      acc.min = Math.min(acc.min, s.min);
      acc.max = Math.max(acc.max, s.max);
      acc.devices += 1;
    }
    byHour.set(hour, acc);
  }
  return [...byHour.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([hour, acc]): SeriesPoint => {
      const ageDays = flock ? flock.ageDaysAt(hour) : null;
      if (acc.n === 0) return { bucket: hour, value: null, context: { ageDays, reason: `no ${metric} reading that hour` } };
      const avg = acc.sum / acc.n;
      const context: Context = { ageDays, [metric]: round(avg, 3) + 0, readings: acc.n, devices: acc.devices, min: acc.min, max: acc.max };
      if (input !== 'temperatureDeviation') return { bucket: hour, value: round(avg, 3) + 0, context };
      if (!flock || ageDays === null) return { bucket: hour, value: null, context: { ...context, reason: 'no flock in the house: no age curve' } };
      const target = targetTemperature(flock.birdType, ageDays);
      return { bucket: hour, value: round(avg - target, 2) + 0, context: { ...context, targetC: target } };
    });
}

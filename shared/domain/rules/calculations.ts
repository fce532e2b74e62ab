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
 * The points of each kind: ./daily-points.ts, ./hourly-points.ts, ./farm-points.ts.
 */
import { SENSOR_METRICS, type SensorMetric } from '../../../schemas/vocabulary.js';
import { METRICS } from '../iot/metrics.js';
import { DRILL_SOURCES } from '../continuity/readiness.js';
import type { Basis } from './windows.js';

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
export const FEED_USE_DAYS = 3;

/** The calculation templates; `unit` "currency/…" is the farm's pricing currency (`unitIn` names it). */
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
    source: 'Hy-Line International, Hy-Line Brown Commercial Layers, Conventional Systems Performance Guide (hen-day %)',
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
    formula:
      `the farm's feed stock at the end of the day (every feed type) ÷ the farm's mean daily use over the last ${FEED_USE_DAYS} days (what was taken out, every flock together); ` +
      'no value when the stock lasts until the cycle’s planned harvest (its target age)',
    unit: 'days',
    inputs: ['farm feed stock by date', 'feed taken out by date', 'target age'],
    source: 'farm practice (stock ÷ daily use), no single source',
    basis: 'day',
    birdTypes: 'all',
    appliesTo: 'flock',
  },
  {
    id: 'waterDropPct',
    name: 'Drop in water intake',
    formula:
      '(baseline − the day’s water) ÷ baseline × 100, the water taken as % of the expected intake for the birds’ age (no value on a day without an expected intake: never ml per bird in its place), baseline = its mean over the 3 days before, at most 100 % of the expected intake (days that drank above it set no higher bar); during a spell of low days (each more than consumption.lowIntakeTolerancePct below its baseline) the 3 days before the spell began. Negative when the birds drink more',
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
export const TEMPLATE_METRIC: Readonly<Record<string, SensorMetric>> = {
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
export const isSensorMetric = (x: string): x is SensorMetric => (SENSOR_METRICS as readonly string[]).includes(x);

/** A template's unit in the currency its money is in: "currency/kg" → "GBP/kg" (the farm's pricing currency); other units unchanged. */
export const unitIn = (unit: string, currency: string): string => (unit.startsWith('currency/') ? `${currency}${unit.slice('currency'.length)}` : unit);

/** An input is a calculation id or a sensor metric (SENSOR_METRICS): its basis (sensor metrics are hourly), unit and name. */
export function inputOf(
  input: string,
): { kind: 'calculation' | 'sensor'; basis: Basis; unit: string; name: string; appliesTo: CalculationTemplate['appliesTo'] } | undefined {
  const c = BY_ID.get(input);
  if (c) return { kind: 'calculation', basis: c.basis, unit: c.unit, name: c.name, appliesTo: c.appliesTo };
  if (isSensorMetric(input)) return { kind: 'sensor', basis: 'hour', unit: METRICS[input].unit, name: METRIC_NAMES[input], appliesTo: 'house' };
  return undefined;
}

/**
 * The acceptable range of each house-climate metric (pure): temperature against the age curve of the
 * house's flock, humidity, ammonia, CO₂ and CO against the analytics thresholds, light during light hours.
 * Sources (docs/domain.md): Aviagen Ross and Cobb broiler guides (temperature by age), pullet brooding
 * guides (35–36 °C on days 1–2 down to 18–20 °C from week 5), EU Directive 2007/43/EC Annex II (NH₃ ≤ 20 ppm,
 * CO₂ ≤ 3000 ppm at bird height).
 */
import type { BirdType, SensorMetric } from '../../../schemas/vocabulary.js';
import type { ThresholdsConfig } from '../../../schemas/analytics-config.js';

/** The analytics thresholds a frame is checked against (the configuration's `thresholds` section can be passed as it is). */
export type ClimateThresholds = Pick<ThresholdsConfig, 'ammoniaMaxPpm' | 'co2MaxPpm' | 'coIdealMaxPpm' | 'humidityMinPct' | 'humidityMaxPct' | 'minLightLux'>;

export interface FlockContext {
  birdType: BirdType;
  /** Age of the birds on the reading's day. */
  ageDays: number;
}

export interface ExpectedRange {
  min: number | null;
  max: number | null;
  basis: string;
}

/** Off the age curve by more than this counts as too hot or too cold. */
export const TEMPERATURE_TOLERANCE_C = 2;

/** Broiler house temperature by age (day → °C), linear in between, 21 °C from day 28 (≈ 1.5 kg). */
const BROILER_CURVE: ReadonlyArray<readonly [number, number]> = [
  [0, 33],
  [7, 30],
  [14, 27],
  [21, 24],
  [28, 21],
];

/** Pullet (layer and breeder rearing) brooding temperatures: [from day, low °C, high °C]. */
const PULLET_STEPS: ReadonlyArray<readonly [number, number, number]> = [
  [0, 35, 36],
  [7, 28, 29],
  [14, 26, 27],
  [21, 22, 24],
  [28, 18, 20],
];

function broilerTarget(ageDays: number): number {
  if (ageDays <= 0) return BROILER_CURVE[0]![1];
  for (let i = 1; i < BROILER_CURVE.length; i++) {
    const [d1, t1] = BROILER_CURVE[i]!;
    const [d0, t0] = BROILER_CURVE[i - 1]!;
    if (ageDays <= d1) return t0 + ((t1 - t0) * (ageDays - d0)) / (d1 - d0);
  }
  return BROILER_CURVE[BROILER_CURVE.length - 1]![1];
}

/** The acceptable house temperature for a flock of this type and age. */
export function temperatureRange(flock: FlockContext): ExpectedRange {
  if (flock.birdType === 'broiler') {
    const target = Math.round(broilerTarget(flock.ageDays) * 10) / 10;
    return { min: target - TEMPERATURE_TOLERANCE_C, max: target + TEMPERATURE_TOLERANCE_C, basis: `broiler curve at ${flock.ageDays} days: ${target} °C ± 2` };
  }
  const step = [...PULLET_STEPS].reverse().find(([from]) => flock.ageDays >= from) ?? PULLET_STEPS[0]!;
  const [, low, high] = step;
  return {
    min: low - TEMPERATURE_TOLERANCE_C,
    max: high + TEMPERATURE_TOLERANCE_C,
    basis: `${flock.birdType} curve at ${flock.ageDays} days: ${low}–${high} °C ± 2`,
  };
}

/** The range a metric is checked against, or null when no threshold applies (water and silo counters, pressure, scales; temperature without a flock). */
export function expectedRange(metric: SensorMetric, t: ClimateThresholds, flock: FlockContext | null): ExpectedRange | null {
  switch (metric) {
    case 'temperatureC':
      return flock ? temperatureRange(flock) : null;
    case 'humidityPct':
      return { min: t.humidityMinPct, max: t.humidityMaxPct, basis: 'thresholds humidityMinPct–humidityMaxPct' };
    case 'nh3Ppm':
      return { min: null, max: t.ammoniaMaxPpm, basis: 'thresholds ammoniaMaxPpm (2007/43/EC Annex II)' };
    case 'co2Ppm':
      return { min: null, max: t.co2MaxPpm, basis: 'thresholds co2MaxPpm (2007/43/EC Annex II)' };
    case 'coPpm':
      return { min: null, max: t.coIdealMaxPpm, basis: 'thresholds coIdealMaxPpm' };
    case 'lux':
      // only while the lights are on: a dark-period reading (< 1 lx) is not dim light
      return { min: t.minLightLux, max: null, basis: 'thresholds minLightLux, during light hours (readings ≥ 1 lx)' };
    default:
      return null;
  }
}

export type ConditionStatus = 'ok' | 'low' | 'high' | 'unchecked';

export function conditionStatus(metric: SensorMetric, value: number, range: ExpectedRange | null): ConditionStatus {
  if (!range) return 'unchecked';
  if (metric === 'lux' && value < 1) return 'ok';
  if (range.min !== null && value < range.min) return 'low';
  if (range.max !== null && value > range.max) return 'high';
  return 'ok';
}

/** One reading outside its range: what the rules and anomalies of the house pick up. */
export interface Breach {
  metric: SensorMetric;
  tsMs: number;
  value: number;
  direction: 'low' | 'high';
  range: ExpectedRange;
}

/** The breaches among readings (sorted by time); `flockAt(tsMs)` gives the flock context on the reading's day. */
export function breachesOf(
  readings: ReadonlyArray<{ tsMs: number; metrics: Partial<Record<SensorMetric, number>> }>,
  t: ClimateThresholds,
  flockAt: (tsMs: number) => FlockContext | null,
): Breach[] {
  const out: Breach[] = [];
  for (const r of readings) {
    for (const [metric, value] of Object.entries(r.metrics) as [SensorMetric, number][]) {
      const range = expectedRange(metric, t, flockAt(r.tsMs));
      const status = conditionStatus(metric, value, range);
      if (status === 'low' || status === 'high') out.push({ metric, tsMs: r.tsMs, value, direction: status, range: range! });
    }
  }
  return out;
}

/**
 * What each sensor metric is: its unit, the range a working sensor can physically report (outside it the
 * reading is rejected, with the reason), whether it is a counter, and which metrics each device kind
 * reports. Pure data and rules; sources in docs/domain.md ("Sensors in a house").
 */
import { SENSOR_METRICS, type DeviceKind, type SensorMetric } from '../../../schemas/vocabulary.js';

export interface MetricDefinition {
  unit: string;
  /** Physical range of a working sensor (inclusive). */
  min: number;
  max: number;
  /** A running total (a water meter): it never goes backwards. */
  counter?: true;
}

export const METRICS: Record<SensorMetric, MetricDefinition> = {
  temperatureC: { unit: '°C', min: -40, max: 70 },
  humidityPct: { unit: '%', min: 0, max: 100 },
  nh3Ppm: { unit: 'ppm', min: 0, max: 1000 },
  co2Ppm: { unit: 'ppm', min: 0, max: 50_000 },
  coPpm: { unit: 'ppm', min: 0, max: 1000 },
  staticPressurePa: { unit: 'Pa', min: -500, max: 500 },
  lux: { unit: 'lx', min: 0, max: 200_000 },
  waterLitersTotal: { unit: 'l', min: 0, max: 1e9, counter: true },
  siloKg: { unit: 'kg', min: 0, max: 200_000 },
  birdWeightGrams: { unit: 'g', min: 1, max: 10_000 },
};

export const KIND_METRICS: Record<DeviceKind, readonly SensorMetric[]> = {
  climate: ['temperatureC', 'humidityPct'],
  air_quality: ['nh3Ppm', 'co2Ppm', 'coPpm'],
  water_meter: ['waterLitersTotal'],
  feed_silo: ['siloKg'],
  light: ['lux'],
  pressure: ['staticPressurePa'],
  scale: ['birdWeightGrams'],
  multi: SENSOR_METRICS.filter((m) => m !== 'birdWeightGrams'),
};

/** Metrics a device of `kind` may be declared with: its kind's, or any for `multi`. */
export const allowedMetrics = (kind: DeviceKind): readonly SensorMetric[] => (kind === 'multi' ? SENSOR_METRICS : KIND_METRICS[kind]);

/** Problems with a declared metric list for a device kind (empty when acceptable). */
export function declaredMetricProblems(kind: DeviceKind, metrics: readonly SensorMetric[]): string[] {
  const allowed = new Set(allowedMetrics(kind));
  return metrics.filter((m) => !allowed.has(m)).map((m) => `${m} is not a metric of a ${kind} device (${[...allowed].join(', ')})`);
}

export const unitsOf = (metrics: readonly SensorMetric[]): Record<string, string> => Object.fromEntries(metrics.map((m) => [m, METRICS[m].unit]));

/** The first reason a value cannot be a reading of `metric`, or null. */
export function valueProblem(metric: SensorMetric, value: number): string | null {
  const d = METRICS[metric];
  if (!Number.isFinite(value)) return `${metric} must be a finite number`;
  if (value < d.min || value > d.max) return `${metric} ${value} ${d.unit} is outside the physical range ${d.min}–${d.max} ${d.unit}`;
  return null;
}

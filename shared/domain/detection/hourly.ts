/** The detectors over one sensor metric of a house, hour by hour (the engine and its module note: ./engine.ts). */
import { compareDetections, detectSeries, HOUR_MS, minPointsOf, type Detection, type Obs, type Spec } from './engine.js';
import { wordingOf } from './wording.js';

const DEFAULT_BASELINE_HOURS = 168;

/** Floors of σ for the hourly sensor metrics, in their units: about a house sensor's accuracy (practical choice, see ./engine.ts). */
const SENSOR_FLOORS: Record<string, number> = {
  temperatureC: 0.3,
  humidityPct: 2,
  nh3Ppm: 1,
  co2Ppm: 50,
  coPpm: 1,
  staticPressurePa: 1,
  lux: 1,
  waterLitersTotal: 0,
  siloKg: 0,
  birdWeightGrams: 1,
};

export const HOUR_BUCKET = /^\d{4}-\d{2}-\d{2}T\d{2}$/;
const hourLabel = (b: string): string => `${b.slice(0, 10)} ${b.slice(11, 13)}:00`;

function hourNumber(bucket: string): number {
  const ms = HOUR_BUCKET.test(bucket) ? Date.parse(`${bucket}:00:00Z`) : Number.NaN;
  if (!Number.isFinite(ms)) throw new RangeError(`hour bucket ${bucket} is not YYYY-MM-DDTHH`);
  return Math.round(ms / HOUR_MS);
}

/**
 * Every detection over one sensor metric of a house, hour by hour (module note): each hour against the
 * same hour of the previous days within `baselineHours` (168: 7 days; at least 72, so that 3 such hours
 * can exist), the house's line through them removed. Null values are gaps; of duplicate buckets the last
 * given counts. Deterministic, sorted by bucket then detector. Throws a RangeError for a malformed bucket.
 */
export function detectHourly(
  metric: string,
  points: ReadonlyArray<{ bucket: string; value: number | null }>,
  opts: { baselineHours?: number } = {},
): Detection[] {
  const baselineHours = opts.baselineHours ?? DEFAULT_BASELINE_HOURS;
  if (!(Number.isInteger(baselineHours) && baselineHours >= 72)) throw new RangeError(`baselineHours must be an integer ≥ 72 (got ${baselineHours})`);
  const days = Math.floor(baselineHours / 24);
  const floor = SENSOR_FLOORS[metric] ?? 0;
  const byHour = new Map<number, Obs>();
  for (const p of points) {
    const t = hourNumber(p.bucket);
    if (p.value === null || !Number.isFinite(p.value)) {
      byHour.delete(t);
      continue;
    }
    byHour.set(t, { bucket: p.bucket, t, x: Math.floor(t / 24), value: p.value, ref: null, floor, context: {} });
  }
  const obs = [...byHour.values()].sort((a, b) => a.t - b.t);
  const spec: Spec = {
    metric,
    mode: 'diffTrend',
    residualUnit: wordingOf(metric).unit || 'units',
    directions: ['up', 'down'],
    baselineOf: (o) => {
      const out: Obs[] = [];
      for (let k = days; k >= 1; k--) {
        const p = byHour.get(o.t - 24 * k);
        if (p) out.push(p);
      }
      return out;
    },
    minPoints: minPointsOf(days),
    baselineParam: ['baselineHours', baselineHours],
    whose: 'at this hour',
    when: (b: string) => `at ${hourLabel(b)}`,
    label: hourLabel,
  };
  return detectSeries(spec, obs).sort(compareDetections);
}

/**
 * Hourly points of the sensor inputs (./calculations.ts: the hourly templates and every sensor metric) for
 * one house, from its hourly rollups: per hour the average over every device of the house that reported the
 * metric (Σ sum ÷ Σ count, so a device reporting twice as often weighs twice as much), with the readings
 * behind it (count, sum, min, max) for the window's avg, min, max and sum (./evaluation.ts).
 */
import type { BirdType } from '../../../schemas/vocabulary.js';
import { temperatureRange } from '../iot/climate.js';
import type { BucketStats } from '../iot/rollups.js';
import { round } from '../weights.js';
import { isSensorMetric, TEMPLATE_METRIC } from './calculations.js';
import type { SeriesPoint } from './evaluation.js';

type Context = Record<string, number | string | null>;

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
      const readings = { n: acc.n, sum: acc.sum, min: acc.min, max: acc.max };
      if (input !== 'temperatureDeviation') return { bucket: hour, value: round(avg, 3) + 0, context, readings };
      if (!flock || ageDays === null) return { bucket: hour, value: null, context: { ...context, reason: 'no flock in the house: no age curve' } };
      const target = targetTemperature(flock.birdType, ageDays);
      // each reading's deviation from the hour's target
      const deviations = { n: acc.n, sum: acc.sum - acc.n * target, min: acc.min - target, max: acc.max - target };
      return { bucket: hour, value: round(avg - target, 2) + 0, context: { ...context, targetC: target }, readings: deviations };
    });
}

/**
 * A house's climate per farm-local day (pure), from the hours of its climate sensors: the day's
 * mean temperature (what the expected water intake of a broiler is corrected with), its hottest hour (what
 * heat stress is judged on, named by its value and its time on the farm's clock) and the day's mean NH₃,
 * humidity and CO₂ (what the ventilation causes are judged on). An hour belongs to the farm-local day its
 * start falls on; several sensors in one house are pooled reading by reading.
 *
 * Where the hours come from: ingestion keeps each climate sensor's hourly count and sum of these metrics
 * on the house flock's cycle, on the day item of the hour's UTC date (`climateHourOf`), so the cycle's
 * analytics and the alarms judged on its days read them with the days, at no extra read.
 */
import type { SensorMetric } from '../../../schemas/vocabulary.js';
import { localDateOf, localTimeOf } from '../../platform/calendar.js';
import { round } from '../weights.js';
import type { BucketStats } from './rollups.js';

/** The metrics a house day is made of: what the climate sensors' rollups are read for. */
export const HOUSE_DAY_METRICS = ['temperatureC', 'humidityPct', 'nh3Ppm', 'co2Ppm'] as const satisfies readonly SensorMetric[];
type DayMetric = (typeof HOUSE_DAY_METRICS)[number];

/** One sensor hour as the cycle keeps it: per metric, the readings' count and sum. */
export type ClimateHour = Partial<Record<DayMetric, { sum: number; n: number }>>;

/** Whether a device reports any of the house-day metrics (its hours are kept with the cycle). */
export const feedsHouseClimate = (metrics: readonly SensorMetric[]): boolean => metrics.some((m) => (HOUSE_DAY_METRICS as readonly SensorMetric[]).includes(m));

/** What the cycle keeps of an hour's rollup: the count and sum of each house-day metric; null when it has none. */
export function climateHourOf(stats: BucketStats): ClimateHour | null {
  const out: ClimateHour = {};
  for (const m of HOUSE_DAY_METRICS) {
    const s = stats[m];
    if (s && s.n > 0) out[m] = { sum: s.sum, n: s.n };
  }
  return Object.keys(out).length > 0 ? out : null;
}

export interface HottestHour {
  /** The UTC hour bucket (`2026-11-24T13`). */
  hour: string;
  /** When it started on the farm's clock (`14:00`). */
  localTime: string;
  /** The hour's mean temperature, °C (1 decimal). */
  temperatureC: number;
}

export interface HouseDay {
  /** The farm-local date. */
  date: string;
  /** Mean of the day's temperature readings, °C (1 decimal); null without any. */
  meanTemperatureC: number | null;
  hottest: HottestHour | null;
  nh3Ppm: number | null;
  humidityPct: number | null;
  co2Ppm: number | null;
}

type Acc = { sum: number; n: number };
const add = (acc: Acc | undefined, s: { sum: number; n: number }): Acc => ({ sum: (acc?.sum ?? 0) + s.sum, n: (acc?.n ?? 0) + s.n });
const meanOf = (acc: Acc | undefined): number | null => (acc && acc.n > 0 ? round(acc.sum / acc.n, 1) : null);

/** The house's days, oldest first, from the hourly rollups of each of its sensors (`devices[i]`: one sensor's hours). */
export function houseDaysOf(devices: ReadonlyArray<ReadonlyArray<{ bucket: string; stats: ClimateHour }>>, timeZone: string): HouseDay[] {
  // the hours pooled over the sensors, then the hours of each day
  const hours = new Map<string, Partial<Record<DayMetric, Acc>>>();
  for (const rollups of devices)
    for (const r of rollups) {
      const h = hours.get(r.bucket) ?? {};
      for (const m of HOUSE_DAY_METRICS) {
        const s = r.stats[m];
        if (s && s.n > 0) h[m] = add(h[m], s);
      }
      hours.set(r.bucket, h);
    }
  const days = new Map<string, { sums: Partial<Record<DayMetric, Acc>>; hottest: HottestHour | null }>();
  for (const bucket of [...hours.keys()].sort()) {
    const h = hours.get(bucket)!;
    const startMs = Date.parse(`${bucket}:00:00.000Z`);
    const date = localDateOf(startMs, timeZone);
    const day = days.get(date) ?? { sums: {}, hottest: null };
    for (const m of HOUSE_DAY_METRICS) if (h[m]) day.sums[m] = add(day.sums[m], h[m]!);
    const t = meanOf(h.temperatureC);
    // the first of equally hot hours is named
    if (t !== null && (day.hottest === null || t > day.hottest.temperatureC))
      day.hottest = { hour: bucket, localTime: localTimeOf(startMs, timeZone), temperatureC: t };
    days.set(date, day);
  }
  return [...days]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, d]) => ({
      date,
      meanTemperatureC: meanOf(d.sums.temperatureC),
      hottest: d.hottest,
      nh3Ppm: meanOf(d.sums.nh3Ppm),
      humidityPct: meanOf(d.sums.humidityPct),
      co2Ppm: meanOf(d.sums.co2Ppm),
    }));
}

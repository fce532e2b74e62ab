/**
 * Air quality per house (docs/domain.md, "Compliance"): Council Directive 2007/43/EC, Annex II, point 3(a):
 * the concentration of ammonia does not exceed 20 ppm and that of carbon dioxide 3,000 ppm, measured at
 * the level of the chickens' heads (a condition of stocking above 33 kg/m², Art. 3(3)).
 *
 * Judged per hour from the hourly rollups of the house's devices: an hour's value of a gas is the highest
 * of the devices' hourly means (the worst-placed sensor decides, as "does not exceed" applies anywhere
 * in the house). An hour is
 * - compliant: both gases measured and within their limits;
 * - over: a gas measured above its limit (whether the other was measured or not);
 * - partial: only one gas measured, within its limit (not counted as compliant);
 * - no_data: neither measured.
 * The compliant share is compliant hours ÷ all hours of the period: hours without data are not compliant.
 */
import type { BucketStats } from '../iot/rollups.js';
import { dayStartMs, isoHour } from '../../platform/calendar.js';

export const NH3_MAX_PPM = 20;
export const CO2_MAX_PPM = 3000;

/** One hour's gases: the highest device mean of the hour, null when no device measured it. */
export interface AirHour {
  /** UTC hour, `YYYY-MM-DDTHH` (the rollups' bucket). */
  hour: string;
  nh3Ppm: number | null;
  co2Ppm: number | null;
}

export type AirHourStatus = 'compliant' | 'over' | 'partial' | 'no_data';

export function airHourStatus(h: Pick<AirHour, 'nh3Ppm' | 'co2Ppm'>): AirHourStatus {
  if ((h.nh3Ppm !== null && h.nh3Ppm > NH3_MAX_PPM) || (h.co2Ppm !== null && h.co2Ppm > CO2_MAX_PPM)) return 'over';
  if (h.nh3Ppm !== null && h.co2Ppm !== null) return 'compliant';
  return h.nh3Ppm === null && h.co2Ppm === null ? 'no_data' : 'partial';
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The highest device mean per hour and gas, from each device's hourly rollups. */
export function worstHourlyMeans(devices: ReadonlyArray<ReadonlyArray<{ bucket: string; stats: BucketStats }>>): Map<string, Omit<AirHour, 'hour'>> {
  const out = new Map<string, Omit<AirHour, 'hour'>>();
  for (const rollups of devices)
    for (const r of rollups) {
      const h = out.get(r.bucket) ?? { nh3Ppm: null, co2Ppm: null };
      for (const [metric, key] of [
        ['nh3Ppm', 'nh3Ppm'],
        ['co2Ppm', 'co2Ppm'],
      ] as const) {
        const s = r.stats[metric];
        if (!s || !(s.n > 0)) continue;
        const mean = round2(s.sum / s.n);
        const prev = h[key];
        h[key] = prev === null || mean > prev ? mean : prev;
      }
      out.set(r.bucket, h);
    }
  return out;
}

/**
 * The UTC hours (`YYYY-MM-DDTHH`) of the farm-local days `from` to `to` (inclusive) that ended by
 * `nowMs`: the hours whose start falls on one of those days on the farm's clock (`localDateOf`).
 */
export function hoursOfDays(from: string, to: string, nowMs: number, localDateOf: (ms: number) => string): string[] {
  const HOUR = 3_600_000;
  const out: string[] = [];
  // a farm-local day starts at most 14 h before and ends at most 12 h after the UTC day of the same date
  const first = dayStartMs(from) - 14 * HOUR;
  const last = Math.min(Date.parse(`${to}T23:00:00Z`) + 14 * HOUR, nowMs - HOUR);
  for (let ms = first; ms <= last; ms += HOUR) {
    const d = localDateOf(ms);
    if (d >= from && d <= to) out.push(isoHour(ms));
  }
  return out;
}

export interface HouseAir {
  houseId: string;
  houseName: string | null;
  hours: number;
  compliant: number;
  over: number;
  partial: number;
  noData: number;
  /** compliant ÷ hours, %, null without hours. */
  compliantPct: number | null;
  /** The highest hourly value of each gas, and its hour. */
  worst: { nh3Ppm: { ppm: number; hour: string } | null; co2Ppm: { ppm: number; hour: string } | null };
  /** The hours over a limit, oldest first. */
  overHours: AirHour[];
}

/** A house's hours of the period judged one by one. */
export function houseAir(house: { id: string; name: string | null }, hours: readonly string[], means: ReadonlyMap<string, Omit<AirHour, 'hour'>>): HouseAir {
  const counts = { compliant: 0, over: 0, partial: 0, no_data: 0 };
  const worst: HouseAir['worst'] = { nh3Ppm: null, co2Ppm: null };
  const overHours: AirHour[] = [];
  for (const hour of hours) {
    const m = means.get(hour) ?? { nh3Ppm: null, co2Ppm: null };
    const status = airHourStatus(m);
    counts[status] += 1;
    if (status === 'over') overHours.push({ hour, ...m });
    for (const key of ['nh3Ppm', 'co2Ppm'] as const) {
      const v = m[key];
      if (v !== null && (worst[key] === null || v > worst[key]!.ppm)) worst[key] = { ppm: v, hour };
    }
  }
  return {
    houseId: house.id,
    houseName: house.name,
    hours: hours.length,
    compliant: counts.compliant,
    over: counts.over,
    partial: counts.partial,
    noData: counts.no_data,
    compliantPct: hours.length ? Math.round((counts.compliant / hours.length) * 1000) / 10 : null,
    worst,
    overHours,
  };
}

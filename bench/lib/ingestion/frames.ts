/** The frames the ingestion bench sends: a device's readings one a minute back in time, of a climate sensor or a multi-sensor controller. */
import { round } from '../stats.js';

export const BATCH = 500;
export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

export type Metrics = Record<string, number>;

/** A device's frames, one every `stepMs` (a minute) back in time from `newestMs`: frames [from, from + count) counting back. */
export function framesBack(
  newestMs: number,
  from: number,
  count: number,
  metricsOf: (i: number) => Metrics,
  stepMs = MINUTE_MS,
): Array<{ ts: string; metrics: Metrics }> {
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    return { ts: new Date(newestMs - i * stepMs).toISOString(), metrics: metricsOf(i) };
  });
}

/** Plausible house climate, inside every threshold for a broiler flock of about 3 weeks (no breaches: the steady state). */
export const climate = (i: number): Metrics => ({
  temperatureC: round(24.5 + Math.sin(i / 90), 1),
  humidityPct: round(60 + 5 * Math.cos(i / 70), 1),
});

/** A multi-sensor controller: nine metrics per frame, a silo among them (so it also feeds the house's daily feed figure). */
export const multi = (i: number): Metrics => ({
  ...climate(i),
  nh3Ppm: round(8 + Math.sin(i / 50), 1),
  co2Ppm: Math.round(1800 + 200 * Math.sin(i / 40)),
  coPpm: round(2 + Math.sin(i / 30), 1),
  staticPressurePa: round(-20 + 3 * Math.sin(i / 20), 1),
  lux: Math.round(40 + 10 * Math.cos(i / 60)),
  siloKg: round(9000 - i * 0.5, 1),
});

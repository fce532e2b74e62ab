/**
 * A simulated broiler farm (pure and deterministic for a seed): N houses × M devices, one frame per device
 * per simulated minute, with the values a real house shows. `npm run sensors` (scripts/sensors.ts) publishes
 * them over MQTT; the MQTT e2e test publishes them and posts the same frames over HTTP.
 *
 * The house, roughly (the same rules of thumb as docs/domain.md):
 * - temperature follows the broiler age curve (33 °C at day 0, 3 °C less a week, 21 °C from day 28), a
 *   little warmer in the afternoon, with sensor noise; relative humidity 50–70 %;
 * - NH₃ 5–15 ppm (rising with the litter's age), CO₂ 1000–2500 ppm (higher at night, when ventilation
 *   runs at its minimum), CO 1–4 ppm (heaters), static pressure 15–25 Pa;
 * - lights (UTC hours): ≈ 25 lx by day, 0 during the dark period (default 22:00–04:00, 18 h light);
 * - the water meter's running total grows by ≈ age × 5.7 ml per bird per day, nearly all of it while the
 *   lights are on, most just after lights-on and before lights-off (a tenth of the rate in the dark);
 * - the silo's load cells lose what the birds eat (water ÷ 1.8, the middle of the 1.6–2.0 water:feed
 *   ratio), and a delivery of 9 t arrives when less than 1.5 t is left.
 * Faults on demand, from a given minute: `flatline` (the house's first climate sensor repeats its last values)
 * and `water-drop` (the house drinks 40 % of its normal intake: a blocked line, or birds falling ill).
 */
import type { DeviceKind, SensorMetric } from '../../schemas/vocabulary.js';
import { KIND_METRICS } from '../../shared/domain/iot/metrics.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The device kinds of a house, in the order they are added (`devicesPerHouse` takes the first M; beyond 6, more climate sensors). */
export const HOUSE_DEVICE_KINDS = ['climate', 'air_quality', 'water_meter', 'feed_silo', 'light', 'pressure'] as const satisfies readonly DeviceKind[];
export type SimDeviceKind = (typeof HOUSE_DEVICE_KINDS)[number];

export const FAULT_KINDS = ['flatline', 'water-drop'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultSpec {
  kind: FaultKind;
  /** The house (0-based). */
  house: number;
  /** From this simulated minute on (0-based). */
  fromMinute: number;
}

export interface FarmSimOptions {
  houses: number;
  devicesPerHouse: number;
  /** Time of the first frame (ms since the epoch). */
  startMs: number;
  /** Simulated minutes: frames at startMs + i minutes, 0 ≤ i < minutes. */
  minutes: number;
  /** Age of the flocks at startMs, days (default 21). */
  ageDays?: number;
  /** Birds per house (default 20,000). */
  birdsPerHouse?: number;
  /** Lights-off hours, UTC, [from, to) (default [22, 4]: 18 h of light). */
  darkHours?: readonly [number, number];
  faults?: readonly FaultSpec[];
  /** A water meter's running total (l) or a silo's load (kg) to start from, by device name: to carry on after frames already stored. */
  initialLevels?: Readonly<Record<string, number>>;
  /** Same seed, same frames (default 1). */
  seed?: number;
}

export interface SimDevice {
  /** 0-based house and position in the house. */
  house: number;
  slot: number;
  kind: SimDeviceKind;
  /** `House 2 climate` (a second climate sensor: `House 2 climate 2`). */
  name: string;
  metrics: readonly SensorMetric[];
}

export type SimMetrics = Partial<Record<SensorMetric, number>>;

export interface SimFrame {
  device: SimDevice;
  tsMs: number;
  /** ISO 8601, UTC. */
  ts: string;
  metrics: SimMetrics;
}

export interface SimMinute {
  minute: number;
  tsMs: number;
  frames: SimFrame[];
}

/** Broiler house temperature by age: 33 °C at day 0, 3 °C less each week, 21 °C from day 28. */
export function broilerTargetC(ageDays: number): number {
  return 33 - (12 * Math.min(Math.max(ageDays, 0), 28)) / 28;
}

/** Expected broiler water intake, litres per bird per day (≈ age × 5.7 ml; day 0 counts as day 1). */
export const waterLitersPerBirdDay = (ageDays: number): number => (Math.max(ageDays, 1) * 5.7) / 1000;

/** Water to feed, l/kg: the middle of the normal 1.6–2.0. */
export const WATER_FEED_RATIO = 1.8;
export const SILO_REFILL_BELOW_KG = 1500;
export const SILO_DELIVERY_KG = 9000;
/** Share of the normal water intake in a house with the `water-drop` fault. */
export const WATER_DROP_FACTOR = 0.4;

export function isDark(tsMs: number, darkHours: readonly [number, number]): boolean {
  const h = (((tsMs % DAY_MS) + DAY_MS) % DAY_MS) / 3_600_000;
  const [from, to] = darkHours;
  return from <= to ? h >= from && h < to : h >= from || h < to;
}

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const round = (x: number, decimals: number) => {
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
};
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
/** A sine over the day, peaking at `peakHour` UTC. */
const daily = (tsMs: number, peakHour: number) => Math.cos((2 * Math.PI * ((tsMs % DAY_MS) / 3_600_000 - peakHour)) / 24);

/**
 * The relative drinking (and eating) rate at each minute of the UTC day, normalised to sum to 1 over the
 * day: a tenth of the light rate in the dark, peaks just after lights-on and before lights-off.
 */
function intakeShape(darkHours: readonly [number, number]): Float64Array {
  const [off, on] = darkHours;
  const weights = new Float64Array(1440);
  for (let m = 0; m < 1440; m++) {
    if (isDark(m * MINUTE_MS, darkHours)) {
      weights[m] = 0.1;
      continue;
    }
    const sinceOn = (m - on * 60 + 1440) % 1440;
    const untilOff = (off * 60 - m + 1440) % 1440;
    weights[m] = 1 + 0.5 * Math.exp(-sinceOn / 90) + 0.5 * Math.exp(-untilOff / 90);
  }
  const total = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => w / total);
}

interface DeviceState {
  device: SimDevice;
  random: () => number;
  gauss: () => number;
  drift: number;
  /** Water meter: running total (l); silo: load (kg). */
  level: number;
  last?: SimMetrics;
  frozen?: SimMetrics;
}

/** The devices of the farm and a generator of its minutes (each call starts over from minute 0). */
export function simulateFarm(opts: FarmSimOptions): { devices: SimDevice[]; minutes(): Generator<SimMinute> } {
  const ageAtStart = opts.ageDays ?? 21;
  const birds = opts.birdsPerHouse ?? 20_000;
  const darkHours = opts.darkHours ?? ([22, 4] as const);
  const seed = opts.seed ?? 1;
  const faults = opts.faults ?? [];
  const shape = intakeShape(darkHours);
  const devices: SimDevice[] = [];
  for (let house = 0; house < opts.houses; house++) {
    for (let slot = 0; slot < opts.devicesPerHouse; slot++) {
      const kind: SimDeviceKind = HOUSE_DEVICE_KINDS[slot] ?? 'climate';
      const extra = slot >= HOUSE_DEVICE_KINDS.length ? ` ${slot - HOUSE_DEVICE_KINDS.length + 2}` : '';
      devices.push({ house, slot, kind, name: `House ${house + 1} ${kind.replace('_', ' ')}${extra}`, metrics: KIND_METRICS[kind] });
    }
  }
  const faultOf = (kind: FaultKind, house: number, minute: number) => faults.some((f) => f.kind === kind && f.house === house && minute >= f.fromMinute);

  function* minutes(): Generator<SimMinute> {
    const states: DeviceState[] = devices.map((device) => {
      const random = prng(seed * 7919 + device.house * 101 + device.slot * 13 + 1);
      // Box–Muller: a standard normal
      const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
      const fresh =
        device.kind === 'water_meter' ? 40_000 + device.house * 7_321.4 + random() * 1000 : device.kind === 'feed_silo' ? 2_500 + random() * 6_000 : 0;
      const level = opts.initialLevels?.[device.name] ?? fresh;
      return { device, random, gauss, drift: 0, level };
    });
    for (let minute = 0; minute < opts.minutes; minute++) {
      const tsMs = opts.startMs + minute * MINUTE_MS;
      const ts = new Date(tsMs).toISOString();
      const age = ageAtStart + (tsMs - opts.startMs) / DAY_MS;
      const dark = isDark(tsMs, darkHours);
      const minuteOfDay = Math.floor((((tsMs % DAY_MS) + DAY_MS) % DAY_MS) / MINUTE_MS);
      const waterThisMinute = waterLitersPerBirdDay(age) * birds * shape[minuteOfDay]!;
      const frames: SimFrame[] = [];
      for (const s of states) {
        const { device, gauss } = s;
        s.drift = 0.9 * s.drift + 0.1 * gauss();
        let metrics: SimMetrics;
        switch (device.kind) {
          case 'climate':
            metrics = {
              temperatureC: round(broilerTargetC(age) + 0.5 * daily(tsMs, 15) + 0.3 * s.drift + 0.1 * gauss(), 1),
              humidityPct: round(clamp(60 + 5 * daily(tsMs, 5) + 2 * s.drift + 0.5 * gauss(), 50.5, 69.5), 1),
            };
            break;
          case 'air_quality':
            metrics = {
              nh3Ppm: round(clamp(7 + (4 * Math.min(age, 42)) / 42 + 1.5 * daily(tsMs, 4) + s.drift + 0.3 * gauss(), 5, 15), 1),
              co2Ppm: Math.round(clamp(1500 + (dark ? 500 : 0) + 250 * daily(tsMs, 3) + 80 * s.drift + 30 * gauss(), 1000, 2500)),
              coPpm: round(clamp(2.5 + 0.8 * s.drift + 0.2 * gauss(), 1, 4), 1),
            };
            break;
          case 'water_meter': {
            const factor = faultOf('water-drop', device.house, minute) ? WATER_DROP_FACTOR : 1;
            s.level += Math.max(0, waterThisMinute * factor * (1 + 0.05 * gauss()));
            metrics = { waterLitersTotal: round(s.level, 1) };
            break;
          }
          case 'feed_silo':
            s.level = Math.max(0, s.level - Math.max(0, (waterThisMinute / WATER_FEED_RATIO) * (1 + 0.05 * gauss())));
            if (s.level < SILO_REFILL_BELOW_KG) s.level += SILO_DELIVERY_KG;
            metrics = { siloKg: round(Math.max(0, s.level + 0.5 * gauss()), 1) };
            break;
          case 'light':
            metrics = { lux: dark ? 0 : round(25 + 0.5 * gauss(), 1) };
            break;
          case 'pressure':
            metrics = { staticPressurePa: round(clamp(20 + 2.5 * daily(tsMs, 14) + s.drift + 0.3 * gauss(), 15, 25), 1) };
            break;
        }
        if (device.kind === 'climate' && device.slot === 0 && faultOf('flatline', device.house, minute)) {
          s.frozen ??= s.last ?? metrics;
          metrics = { ...s.frozen };
        }
        s.last = metrics;
        frames.push({ device, tsMs, ts, metrics });
      }
      yield { minute, tsMs, frames };
    }
  }
  return { devices, minutes };
}

/**
 * Device failure risk (pure), from the hourly rollups of the 24 full hours before the evaluation and the
 * device's last seen. The four factors and their tolerances: docs/predictive.md ("Device failure risk").
 */
import type { DeviceKind, DeviceStatus, SensorMetric } from '../../../schemas/vocabulary.js';
import { TEMPERATURE_TOLERANCE_C } from '../iot/climate.js';
import { deviceStatus, type HealthFactors } from '../iot/device-health.js';
import type { BucketStats } from '../iot/rollups.js';
import { isoHour } from '../../platform/calendar.js';
import { clamp01, combinedScore, riskLevel, round1, round2 } from './model.js';
import type { DeviceRisk } from './records.js';

export const RISK_WINDOW_HOURS = 24;
export const FLAT_LINE_MIN_HOURS = 6;
export const FLAT_LINE_FULL_HOURS = 12;
const HOUR_MS = 3_600_000;
const WEIGHTS = { silent: 1, gaps: 0.6, flat_line: 0.8, drift: 0.7 } as const;
const FLAT_LINE_METRICS: readonly SensorMetric[] = ['temperatureC', 'humidityPct', 'co2Ppm', 'staticPressurePa'];
export const DRIFT_TOLERANCE: Partial<Record<SensorMetric, number>> = {
  temperatureC: TEMPERATURE_TOLERANCE_C,
  humidityPct: 10,
  co2Ppm: 500,
  nh3Ppm: 5,
  staticPressurePa: 10,
};

export interface DeviceInfo {
  id: string;
  farmId: string;
  houseId: string;
  name: string;
  kind: DeviceKind;
  metrics: readonly SensorMetric[];
  reportingIntervalSeconds: number;
  lastSeen: string | null;
  createdAt: string;
}

export interface DeviceSeries {
  device: DeviceInfo;
  /** Hourly rollups (`yyyy-mm-ddThh` buckets) of the window; hours without readings are absent. */
  hours: ReadonlyArray<{ bucket: string; stats: BucketStats }>;
}

/** The window: the 24 full UTC hours before the hour of `nowMs`, as bucket names (oldest first) and times. */
export function riskWindow(nowMs: number): { buckets: string[]; from: string; to: string } {
  const end = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
  const start = end - RISK_WINDOW_HOURS * HOUR_MS;
  return {
    buckets: Array.from({ length: RISK_WINDOW_HOURS }, (_, i) => isoHour(start + i * HOUR_MS)),
    from: new Date(start).toISOString(),
    to: new Date(end).toISOString(),
  };
}

type Factor = DeviceRisk['factors'][number];
const factor = (kind: Factor['kind'], metric: SensorMetric | null, severity: number, detail: string): Factor => ({
  kind,
  metric,
  severity: round2(severity),
  contribution: round1(100 * WEIGHTS[kind] * severity),
  detail,
});

function silentFactor(d: DeviceInfo, status: DeviceStatus): Factor | null {
  if (status === 'online') return null;
  const since = d.lastSeen ? `since ${d.lastSeen}` : 'ever since it was registered';
  return factor('silent', null, status === 'offline' ? 1 : 0.5, `${status}: no reading ${since} (interval ${d.reportingIntervalSeconds} s)`);
}

function gapsFactor(s: DeviceSeries, buckets: readonly string[]): Factor | null {
  const since = isoHour(Date.parse(s.device.createdAt));
  const due = buckets.filter((b) => b >= since);
  if (due.length === 0) return null;
  const expected = Math.min(due.length, Math.floor((due.length * 3600) / s.device.reportingIntervalSeconds));
  if (expected === 0) return null;
  const seen = new Set(s.hours.filter((h) => Object.values(h.stats).some((m) => m && m.n > 0)).map((h) => h.bucket));
  const reported = due.filter((b) => seen.has(b)).length;
  const missing = clamp01(1 - reported / expected);
  if (missing < 0.1) return null;
  return factor('gaps', null, missing, `readings in ${reported} of the ${expected} hours it should have reported in`);
}

function flatLineFactors(s: DeviceSeries, buckets: readonly string[]): Factor[] {
  const byBucket = new Map(s.hours.map((h) => [h.bucket, h.stats]));
  return FLAT_LINE_METRICS.filter((m) => s.device.metrics.includes(m)).flatMap((m) => {
    let best = 0;
    let bestValue = 0;
    let run = 0;
    let value: number | null = null;
    for (const b of buckets) {
      const st = byBucket.get(b)?.[m];
      if (st && st.n > 0 && st.min === st.max && (run === 0 || st.min === value)) {
        run++;
        value = st.min;
      } else if (st && st.n > 0 && st.min === st.max) {
        run = 1;
        value = st.min;
      } else {
        run = 0;
        value = null;
      }
      if (run > best) {
        best = run;
        bestValue = value ?? 0;
      }
    }
    if (best < FLAT_LINE_MIN_HOURS) return [];
    return [factor('flat_line', m, clamp01(best / FLAT_LINE_FULL_HOURS), `${m} read ${bestValue} and nothing else for ${best} consecutive hours`)];
  });
}

function meanOf(s: DeviceSeries, m: SensorMetric): number | null {
  let n = 0;
  let sum = 0;
  for (const h of s.hours) {
    const st = h.stats[m];
    if (st && st.n > 0) {
      n += st.n;
      sum += st.sum;
    }
  }
  return n > 0 ? sum / n : null;
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

function driftFactors(s: DeviceSeries, all: readonly DeviceSeries[]): Factor[] {
  return (Object.entries(DRIFT_TOLERANCE) as [SensorMetric, number][]).flatMap(([m, tol]) => {
    const own = s.device.metrics.includes(m) ? meanOf(s, m) : null;
    if (own === null) return [];
    const neighbours = all
      .filter((o) => o.device.id !== s.device.id && o.device.houseId === s.device.houseId && o.device.metrics.includes(m))
      .map((o) => meanOf(o, m))
      .filter((v): v is number => v !== null);
    if (neighbours.length < 2) return [];
    const ref = median(neighbours);
    const delta = Math.abs(own - ref);
    if (delta <= tol) return [];
    return [
      factor(
        'drift',
        m,
        clamp01((delta - tol) / (2 * tol)),
        `${m} mean ${round2(own)} against ${round2(ref)}, the median of ${neighbours.length} neighbours (tolerance ${tol})`,
      ),
    ];
  });
}

/** The failure risk of every device of a farm (neighbours are the devices of the same house in `all`), highest first. */
export function deviceFailureRisks(all: readonly DeviceSeries[], nowMs: number, health: HealthFactors, computedAt: string, modelVersion: string): DeviceRisk[] {
  const window = riskWindow(nowMs);
  return all
    .map((s) => {
      const d = s.device;
      const status = deviceStatus(d.lastSeen ? Date.parse(d.lastSeen) : null, d.reportingIntervalSeconds, nowMs, health);
      const factors = [silentFactor(d, status), gapsFactor(s, window.buckets), ...flatLineFactors(s, window.buckets), ...driftFactors(s, all)]
        .filter((f): f is Factor => f !== null)
        .sort((a, b) => b.contribution - a.contribution || a.kind.localeCompare(b.kind) || (a.metric ?? '').localeCompare(b.metric ?? ''));
      const score = combinedScore(factors.map((f) => f.contribution / 100));
      return {
        deviceId: d.id,
        farmId: d.farmId,
        houseId: d.houseId,
        name: d.name,
        kind: d.kind,
        status,
        lastSeen: d.lastSeen,
        score,
        level: riskLevel(score),
        window: { from: window.from, to: window.to, hours: RISK_WINDOW_HOURS },
        factors,
        computedAt,
        modelVersion,
      };
    })
    .sort(byRisk);
}

/** Highest score first, then by house and name. */
export const byRisk = (a: DeviceRisk, b: DeviceRisk): number => b.score - a.score || a.houseId.localeCompare(b.houseId) || a.name.localeCompare(b.name);

/**
 * A device's health from the time of its newest reading (pure): online, stale after `sensorStaleFactor` ×
 * its reporting interval without data, offline after `sensorOfflineFactor` × (analytics thresholds, 2
 * and 4 by default). Worked out when read, so no job has to scan for it;
 * the health job only records the transitions (for the dashboard and incidents).
 */
import type { DeviceStatus } from '../../../schemas/vocabulary.js';
import type { ThresholdsConfig } from '../../../schemas/analytics-config.js';

/** The analytics thresholds' factors (the configuration's `thresholds` section can be passed as it is). */
export type HealthFactors = Pick<ThresholdsConfig, 'sensorStaleFactor' | 'sensorOfflineFactor'>;

export const DEFAULT_HEALTH_FACTORS: HealthFactors = { sensorStaleFactor: 2, sensorOfflineFactor: 4 };

export function deviceStatus(lastSeenMs: number | null, intervalSeconds: number, nowMs: number, f: HealthFactors = DEFAULT_HEALTH_FACTORS): DeviceStatus {
  if (lastSeenMs === null) return 'offline';
  const silentMs = nowMs - lastSeenMs;
  if (silentMs > f.sensorOfflineFactor * intervalSeconds * 1000) return 'offline';
  if (silentMs > f.sensorStaleFactor * intervalSeconds * 1000) return 'stale';
  return 'online';
}

/** When a device last seen at `lastSeenMs` next changes status if it stays silent (null once offline). */
export function nextStatusChangeAt(lastSeenMs: number, intervalSeconds: number, nowMs: number, f: HealthFactors = DEFAULT_HEALTH_FACTORS): number | null {
  const status = deviceStatus(lastSeenMs, intervalSeconds, nowMs, f);
  if (status === 'online') return lastSeenMs + f.sensorStaleFactor * intervalSeconds * 1000 + 1;
  if (status === 'stale') return lastSeenMs + f.sensorOfflineFactor * intervalSeconds * 1000 + 1;
  return null;
}

/** Last seen is the newest reading's time, never later than its arrival: a backlog upload does not make a silent sensor look online. */
export const lastSeenOf = (newestReadingMs: number, receivedAtMs: number): number => Math.min(newestReadingMs, receivedAtMs);

/**
 * Last seen is written at most once per minute of readings per device: a reading moves it only from a
 * later calendar minute than the stored one. A device reporting on time (intervals of 60 s or more) is
 * written at every frame, whatever the jitter; faster frames, a backlog or compressed time move it once a
 * minute of their own time, so it lags the newest reading by less than a minute and never by more.
 */
export const minuteOf = (ms: number): number => Math.floor(ms / 60_000) * 60_000;
export const movesLastSeen = (storedMs: number | null, newMs: number): boolean => storedMs === null || minuteOf(newMs) > minuteOf(storedMs);

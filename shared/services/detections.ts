import { commit } from '../db/commit.js';
import { detectorDayWrite, detectorLastDay, StaleDetectorDay } from '../db/rules.js';
import type { CommandContext } from '../domain/command.js';
import { detectCycleDays } from '../domain/detection/daily.js';
import type { Detection } from '../domain/detection/engine.js';
import { daysToJudge, decideDetectorFiring, detectionsBetween, judgedAt, type DetectionTarget } from '../domain/detection/firings.js';
import { addDays, isoDate } from '../platform/calendar.js';
import { log } from '../platform/log.js';
import { climateAround, type AlarmData } from './rules/alarm-data.js';
import { intakeLevels } from '../domain/analytics/kpis/feed-water.js';
import { raiseAnomaly } from './anomalies/raising.js';

/**
 * The statistical detectors as a use case: the same `detectCycleDays` that GET /api/v2/analytics/anomalies
 * shows under `detections`, run over a flock's active cycle, each detection of a day not judged before
 * stored as an anomaly (source `detector`). One anomaly per flock, metric, detector and direction while
 * it is open: a detection on the next day updates it (occurrences + 1) instead of opening another.
 * Decided in shared/domain/detection/firings.ts.
 */

/** Raises the anomaly of one detection: reads the house's climate around its day, decides the firing. */
async function raise(ctx: CommandContext, data: AlarmData, target: DetectionTarget, d: Detection) {
  const { series, ctx: analytics } = await data.cycle(target.flockId, target.cycleId);
  const { climate, houseName } = await climateAround({ id: `flock:${target.flockId}`, kind: 'flock' as const, ...target }, data, judgedAt(d));
  const { ammoniaMaxPpm, humidityMaxPct, dailyMortalityPct } = analytics.config.thresholds;
  const firing = decideDetectorFiring(target, series, d, {
    houseName,
    climate,
    thresholds: { ammoniaMaxPpm, humidityMaxPct, dailyMortalityPct },
    requestId: ctx.requestId,
    waterLevel: intakeLevels(analytics.inputs, analytics.config),
  });
  return raiseAnomaly(ctx, firing);
}

/**
 * Runs the detectors on a flock's active cycle: over `day` (new data of that day), or over the days after
 * the last judged one up to `until` (the job). Returns how many detections were stored.
 */
export async function detectOnFlock(
  ctx: CommandContext,
  data: AlarmData,
  flock: { farmId: string; flockId: string },
  period: { day: string } | { until: string },
): Promise<number> {
  const active = (await data.flocks(flock.farmId)).find((f) => f.id === flock.flockId && f.activeCycleId);
  if (!active) return 0;
  const cycleId = active.activeCycleId!;
  const days = daysToJudge(period, 'day' in period ? null : await detectorLastDay(flock.flockId, cycleId));
  if (!days) return 0;
  const { ctx: cycle, series } = await data.cycle(flock.flockId, cycleId);
  const found = detectionsBetween(detectCycleDays(cycle.inputs, series, cycle.config.thresholds.significance), days);
  const target = { farmId: flock.farmId, flockId: flock.flockId, cycleId, houseId: active.houseId ?? null };
  for (const d of found) await raise(ctx, data, target, d);
  try {
    await commit(ctx, { writes: [detectorDayWrite(flock.flockId, cycleId, days.to)] });
  } catch (err) {
    // a later day was recorded by a faster run: it stands
    if (!(err instanceof StaleDetectorDay)) throw err;
  }
  return found.length;
}

/** The job's detector pass: every active flock of these farms, over the days completed since the last run (yesterday, UTC, at the latest). */
export async function runDetectorJob(ctx: CommandContext, farmIds: readonly string[], data: AlarmData) {
  const until = addDays(isoDate(ctx.now), -1);
  const result = { flocks: 0, detections: 0, errors: [] as Array<{ flockId: string; error: string }> };
  for (const farmId of farmIds) {
    const flocks = await data.flocks(farmId);
    for (const f of flocks.filter((x) => x.activeCycleId)) {
      result.flocks++;
      try {
        result.detections += await detectOnFlock(ctx, data, { farmId, flockId: f.id }, { until });
      } catch (err) {
        const error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
        log.warn('detectors failed', { flockId: f.id, error });
        result.errors.push({ flockId: f.id, error });
      }
    }
  }
  return result;
}

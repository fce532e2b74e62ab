import { commit } from '../db/commit.js';
import { detectorDayWrite, detectorLastDay, StaleDetectorDay } from '../db/rules.js';
import type { CommandContext } from '../domain/command.js';
import { detectDaily } from '../domain/detection/daily.js';
import type { Detection } from '../domain/detection/engine.js';
import { rankHypotheses } from '../domain/diagnosis/hypotheses.js';
import { signalsOfDay } from '../domain/diagnosis/signals.js';
import { addDays, daysBetween, isoDate } from '../platform/calendar.js';
import { log } from '../platform/log.js';
import { climateAround, type AlarmData } from './rules/alarm-data.js';
import { raiseAnomaly } from './anomalies/raising.js';

/**
 * The statistical detectors as a use case: the same `detectDaily` that GET /api/v2/analytics/anomalies
 * shows under `detections`, run over a flock's active cycle, each detection of a day not judged before
 * stored as an anomaly (source `detector`). One anomaly per flock, metric, detector and direction while
 * it is open: a detection on the next day updates it (occurrences + 1) instead of opening another.
 */

/** The unit of each detected metric (the residual the detectors judge is in the metric's own unit). */
const UNITS: Record<string, string> = {
  waterPctOfExpected: '% of expected',
  feedGramsPerBird: 'g/bird/day',
  dailyMortalityPct: '%',
  bodyWeightVsStandard: '% of standard',
};

/** At most this many days are judged per flock and run (a longer pause is caught up over the next runs). */
const MAX_DAYS_PER_RUN = 14;

async function raise(ctx: CommandContext, data: AlarmData, flock: { farmId: string; flockId: string; cycleId: string; houseId: string | null }, d: Detection) {
  const { series, ctx: analytics } = await data.cycle(flock.flockId, flock.cycleId);
  const target = { id: `flock:${flock.flockId}`, kind: 'flock' as const, ...flock };
  const at = `${addDays(d.bucket, 1)}T00:00:00.000Z`;
  const { climate, houseName } = await climateAround(target, data, at);
  const t = analytics.config.thresholds;
  const signals = signalsOfDay(series, d.bucket, {
    metric: d.metric,
    houseName,
    climate,
    // a detection on water: its distance from the flock's own baseline is the water change it saw
    waterChangePct: d.metric === 'waterPctOfExpected' && d.expected > 0 ? Math.round((d.deviation / d.expected) * 1000) / 10 : null,
    thresholds: { ammoniaMaxPpm: t.ammoniaMaxPpm, humidityMaxPct: t.humidityMaxPct, dailyMortalityPct: t.dailyMortalityPct },
  });
  return raiseAnomaly(ctx, {
    farmId: flock.farmId,
    houseId: flock.houseId,
    flockId: flock.flockId,
    cycleId: flock.cycleId,
    source: 'detector',
    ruleId: null,
    detector: { name: d.detector, parameters: d.parameters },
    metric: d.metric,
    unit: UNITS[d.metric] ?? '',
    observed: d.observed,
    expected: d.expected,
    deviation: d.deviation,
    // the baseline's first day to the end of the judged day, as instants
    window: { from: `${d.window.from}T00:00:00.000Z`, to: at, duration: `P${daysBetween(d.window.from, d.window.to) + 1}D` },
    severity: d.severity,
    title: d.message,
    evidence: { ...d.evidence, day: d.bucket, score: d.score, direction: d.direction, signals, requestId: ctx.requestId },
    hypotheses: rankHypotheses(signals),
    dedupKey: `detector:${flock.flockId}:${d.metric}:${d.detector}:${d.direction}`,
    at,
  });
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
  let from: string;
  let to: string;
  if ('day' in period) {
    from = period.day;
    to = period.day;
  } else {
    const last = await detectorLastDay(flock.flockId, cycleId);
    to = period.until;
    from = last ? addDays(last, 1) : to;
    if (from > to) return 0;
    let earliest = to;
    for (let i = 1; i < MAX_DAYS_PER_RUN; i++) earliest = addDays(earliest, -1);
    if (from < earliest) from = earliest;
  }
  const { series } = await data.cycle(flock.flockId, cycleId);
  const found = detectDaily(series).filter((d) => d.bucket >= from && d.bucket <= to);
  const target = { farmId: flock.farmId, flockId: flock.flockId, cycleId, houseId: active.houseId ?? null };
  for (const d of found) await raise(ctx, data, target, d);
  try {
    await commit(ctx, { writes: [detectorDayWrite(flock.flockId, cycleId, to)] });
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

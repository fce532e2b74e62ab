import { addDays, daysBetween } from '../../platform/calendar.js';
import type { DailyKpis } from '../analytics/kpis/types.js';
import { rankHypotheses } from '../diagnosis/hypotheses.js';
import { signalsOfDay, type ClimateSignals } from '../diagnosis/signals.js';
import type { Detection } from './engine.js';

/**
 * The statistical detectors as a use case, decided without I/O: which days of a flock's active cycle a run
 * judges, and the anomaly firing each detection of those days raises (its signals, hypotheses, window and
 * dedup key: one anomaly per flock, metric, detector and direction while it is open).
 */

/** The unit of each detected metric (the residual the detectors judge is in the metric's own unit). */
const UNITS: Record<string, string> = {
  waterPctOfExpected: '% of expected',
  feedGramsPerBird: 'g/bird/day',
  dailyMortalityPct: '%',
  bodyWeightVsStandard: '% of standard',
};

/** At most this many days are judged per flock and run (a longer pause is caught up over the next runs). */
export const MAX_DAYS_PER_RUN = 14;

/**
 * The days a run judges: `day` (new data of that day), or the days after the last judged one (`lastJudged`,
 * none: only `until`) up to `until`, the newest MAX_DAYS_PER_RUN of them. Undefined: nothing left to judge.
 */
export function daysToJudge(period: { day: string } | { until: string }, lastJudged: string | null): { from: string; to: string } | undefined {
  if ('day' in period) return { from: period.day, to: period.day };
  const to = period.until;
  const from = lastJudged ? addDays(lastJudged, 1) : to;
  if (from > to) return undefined;
  const earliest = addDays(to, -(MAX_DAYS_PER_RUN - 1));
  return { from: from < earliest ? earliest : from, to };
}

/** The detections of the days judged. */
export const detectionsBetween = (found: readonly Detection[], days: { from: string; to: string }): Detection[] =>
  found.filter((d) => d.bucket >= days.from && d.bucket <= days.to);

/** The instant a day's detection is about: the end of that day (UTC), where its climate is looked up. */
export const judgedAt = (d: Pick<Detection, 'bucket'>): string => `${addDays(d.bucket, 1)}T00:00:00.000Z`;

/** The flock a run judges, with its active cycle and house. */
export interface DetectionTarget {
  farmId: string;
  flockId: string;
  cycleId: string;
  houseId: string | null;
}

/** What a firing reads besides the series: the house's climate around the day and its name, the farm's thresholds. */
export interface FiringContext {
  houseName: string | null;
  climate: ClimateSignals;
  thresholds: NonNullable<Parameters<typeof signalsOfDay>[2]['thresholds']>;
  requestId: string | null;
  /** The day's water against its growth alone (`intakeLevels` of the cycle), when known. */
  waterLevel?: Parameters<typeof signalsOfDay>[2]['waterLevel'];
}

/** The anomaly a detection raises (source `detector`), with the signals of its day and the cause hypotheses they rank. */
export function decideDetectorFiring(target: DetectionTarget, series: readonly DailyKpis[], d: Detection, context: FiringContext) {
  const at = judgedAt(d);
  const signals = signalsOfDay(series, d.bucket, {
    metric: d.metric,
    houseName: context.houseName,
    climate: context.climate,
    // a detection on water: its distance from the flock's own baseline is the water change it saw
    waterChangePct: d.metric === 'waterPctOfExpected' && d.expected > 0 ? Math.round((d.deviation / d.expected) * 1000) / 10 : null,
    thresholds: context.thresholds,
    waterLevel: context.waterLevel,
  });
  return {
    ...target,
    source: 'detector' as const,
    ruleId: null,
    detector: { name: d.detector, parameters: d.parameters },
    metric: d.metric,
    unit: UNITS[d.metric] ?? '',
    observed: d.observed,
    expected: d.expected,
    deviation: d.deviation,
    // the baseline's first day to the end of the judged day, as instants
    window: { from: `${d.window.from}T00:00:00.000Z`, to: at, duration: `P${daysBetween(d.window.from, d.window.to) + 1}D` },
    startedOn: d.startedOn,
    severity: d.severity,
    title: d.message,
    evidence: { ...d.evidence, day: d.bucket, score: d.score, direction: d.direction, signals, requestId: context.requestId },
    hypotheses: rankHypotheses(signals),
    dedupKey: `detector:${target.flockId}:${d.metric}:${d.detector}:${d.direction}`,
    at,
  };
}

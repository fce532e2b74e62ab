/**
 * When an anomaly's event began (pure), one basis for every surface: the detections of
 * GET /api/v2/analytics/anomalies, the anomalies the detectors store and those a rule's firing raises.
 * A change of a flock's daily figure began at the change point of the detectors' episode
 * (`Detection.startedOn`, ./engine.ts); a rule's breach that the detectors do not see began on the first
 * day of the breach. Why: docs/analytics.md ("When an anomaly started").
 */
import type { Detection } from './engine.js';

/** The detected metric and direction a rule input's breach is a change of (the rule inputs whose figure the detectors judge too). */
const DETECTED_AS: Readonly<Record<string, { metric: string; direction: 'up' | 'down' }>> = {
  // a water drop: water as % of the expected intake, down
  waterDropPct: { metric: 'waterPctOfExpected', direction: 'down' },
  dailyMortalityPct: { metric: 'dailyMortalityPct', direction: 'up' },
};

/** Whether the detectors judge the change a rule on this input watches (so its firing reads their detections). */
export const detectedByDetectors = (input: string): boolean => input in DETECTED_AS;

/**
 * The day the event of a rule's firing began. `breach`: the days of the unbroken run of evaluations whose
 * condition held, up to the firing (`breachOf`, ../rules/evaluation.ts). When the detectors detected the
 * same change on a day of the breach, the start of their episode (the newest such day's: every day of an
 * episode names the same start), so the rule's anomaly and the detectors' say the same day; else the
 * breach's first day.
 */
export function ruleEventStart(input: string, breach: { from: string; to: string }, detections: readonly Detection[]): string {
  const as = DETECTED_AS[input];
  const seen = as ? detections.filter((d) => d.metric === as.metric && d.direction === as.direction && d.bucket >= breach.from && d.bucket <= breach.to) : [];
  const newest = seen.reduce<Detection | undefined>((n, d) => (!n || d.bucket > n.bucket ? d : n), undefined);
  return newest?.startedOn ?? breach.from;
}

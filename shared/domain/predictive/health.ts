/**
 * The health risk of a cycle (pure), from the threshold breaches of the analytics engine (the same
 * `thresholdBreaches` the Analytics V2 anomaly route answers with) over the last 7 days up to asOf.
 * Factors, weights and the score: docs/predictive.md ("Health risk").
 */
import type { ThresholdBreach } from '../analytics/threshold-breaches.js';
import type { AnomalyMetric } from '../../../schemas/vocabulary.js';
import { combinedScore, riskLevel, round1 } from './model.js';
import type { HealthRisk } from './records.js';
import { addDays, daysBetween } from '../../platform/calendar.js';

export const HEALTH_WINDOW_DAYS = 7;
export const HEALTH_WEIGHTS: Record<AnomalyMetric, number> = {
  dailyMortality: 0.5,
  cumulativeMortality: 0.35,
  waterFeedRatio: 0.25,
  lowWaterIntake: 0.45,
  henDayDrop: 0.45,
  weightBelowStandard: 0.3,
  fcrAboveStandard: 0.2,
  lowUniformity: 0.2,
  crackedEggs: 0.15,
  waterPh: 0.2,
};
const SEVERITY = { warning: 0.6, critical: 1 } as const;
const RECENCY = 0.85;

/** The health risk of the threshold breaches found up to `asOf` (only the last 7 days count). */
export function healthRisk(breaches: readonly ThresholdBreach[], asOf: string): HealthRisk {
  const from = addDays(asOf, -(HEALTH_WINDOW_DAYS - 1));
  const recent = breaches.filter((a) => a.date >= from && a.date <= asOf);
  const byMetric = new Map<AnomalyMetric, ThresholdBreach[]>();
  for (const a of recent) byMetric.set(a.metric, [...(byMetric.get(a.metric) ?? []), a]);
  const factors = [...byMetric].map(([metric, list]) => {
    const latest = list.reduce((a, b) => (b.date >= a.date ? b : a));
    const severity = list.some((a) => a.severity === 'critical') ? 'critical' : 'warning';
    const c = HEALTH_WEIGHTS[metric] * SEVERITY[severity] * RECENCY ** daysBetween(latest.date, asOf);
    return { metric, severity, occurrences: new Set(list.map((a) => a.date)).size, lastDate: latest.date, c, message: latest.message } as const;
  });
  factors.sort((a, b) => b.c - a.c || a.metric.localeCompare(b.metric));
  const score = combinedScore(factors.map((f) => f.c));
  return {
    score,
    level: riskLevel(score),
    window: { from, to: asOf },
    factors: factors.map(({ c, ...f }) => ({ ...f, contribution: round1(100 * c) })),
  };
}

/**
 * What every predictive record shares (pure): the model version stamped on each forecast, the risk levels
 * and how independent risk factors combine into one score.
 *
 * Scores. A factor has a severity s ∈ [0, 1] and a weight w ∈ [0, 1] (how much that kind of signal can
 * say on its own); its standalone contribution is 100 × w × s points. Factors combine like independent
 * chances: score = 100 × (1 − Π (1 − wᵢ sᵢ)), rounded, so it stays within 0–100, one strong factor
 * dominates and several weak ones add up without ever passing 100. Level: < 25 low, < 50 moderate,
 * < 75 high, else critical.
 */
import type { RiskLevel } from '../../../schemas/predictive.js';

export type { RiskLevel };

/**
 * The version of the predictive models, stamped on every forecast, device risk and accuracy answer.
 * Bump it whenever a rule of this folder (or the weight engine it stands on) changes what it computes,
 * so accuracy can be read per model version.
 */
export const PREDICTIVE_MODEL_VERSION = 'predictive-1.0';

/** The risk level of a 0–100 score. */
export function riskLevel(score: number): RiskLevel {
  if (score < 25) return 'low';
  if (score < 50) return 'moderate';
  if (score < 75) return 'high';
  return 'critical';
}

/** 100 × (1 − Π (1 − cᵢ)) of contributions cᵢ ∈ [0, 1], rounded to an integer. */
export function combinedScore(contributions: readonly number[]): number {
  const clear = contributions.reduce((a, c) => a * (1 - Math.min(1, Math.max(0, c))), 1);
  return Math.round(100 * (1 - clear));
}

export const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));
export const round1 = (x: number): number => Math.round(x * 10) / 10 + 0;
export const round2 = (x: number): number => Math.round(x * 100) / 100 + 0;
export const round3 = (x: number): number => Math.round(x * 1000) / 1000 + 0;

/**
 * Production stages and the mandatory fields of a daily record in each. The stage of a day is the same
 * production phase the weights use (`phaseOf` in ./weights.ts: one set of boundaries, with their sources).
 */
import { PHASES, phaseOf, type BirdType, type Phase } from './weights.js';

export const STAGES = PHASES;
export type Stage = Phase;

export function stageOf(birdType: BirdType, ageDays: number): Stage {
  return phaseOf(birdType, ageDays);
}

/** Every daily record needs mortality, feed and water; brooding adds the house climate; laying and molting add eggs. */
const COMMON = ['deaths', 'feedKg', 'waterLiters'] as const;
export const MANDATORY_FIELDS: Record<Stage, readonly string[]> = {
  brooding: [...COMMON, 'temperatureMinC', 'temperatureMaxC', 'humidityPct'],
  growing: [...COMMON, 'temperatureMinC', 'temperatureMaxC'],
  finishing: [...COMMON, 'temperatureMaxC'],
  rearing: [...COMMON],
  laying: [...COMMON, 'eggsCollected'],
  molting: [...COMMON, 'eggsCollected'],
};

export interface DailyCheck {
  stage: Stage;
  requiredFields: readonly string[];
  missingFields: string[];
  warnings: string[];
}

/** What a daily record lacks for its stage, plus plausibility warnings (never errors). */
export function checkDailyRecord(record: Record<string, unknown>, stage: Stage): DailyCheck {
  const required = MANDATORY_FIELDS[stage];
  const missingFields = required.filter((f) => record[f] === undefined || record[f] === null || record[f] === '');
  const warnings: string[] = [];
  const min = record.temperatureMinC;
  const max = record.temperatureMaxC;
  if (typeof min === 'number' && typeof max === 'number' && min > max) warnings.push('temperatureMinC is above temperatureMaxC');
  const feed = record.feedKg;
  const water = record.waterLiters;
  if (typeof feed === 'number' && typeof water === 'number' && feed > 0) {
    const ratio = water / feed;
    // Water:feed 1.6–2.0 is normal (docs/domain.md).
    if (ratio < 1.6 || ratio > 2.0) warnings.push(`water:feed ratio ${ratio.toFixed(2)} is outside the normal 1.6–2.0`);
  }
  if (typeof record.humidityPct === 'number' && (record.humidityPct < 30 || record.humidityPct > 85))
    warnings.push(`humidity ${record.humidityPct} % is outside 30–85 %`);
  return { stage, requiredFields: required, missingFields, warnings };
}

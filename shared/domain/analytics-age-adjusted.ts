/**
 * Age-adjusted body weight (POST /api/v2/analytics/age-adjusted-data/{flockId}): an observed weight
 * compared with the breed standard at the same age, and expressed at a reference age by the ratio of the
 * standard curve (value × standard(reference) ÷ standard(age)), the way growth is compared across flocks
 * weighed at different ages. Pure.
 */
import { findBreedStandard, standardWeightGrams } from './analytics/breed-standards.js';
import { deviationPct } from './analytics/comparison.js';
import type { BirdType } from './weights.js';

export const DEFAULT_REFERENCE_AGE: Record<BirdType, number> = { broiler: 42, layer: 18 * 7, breeder: 20 * 7 };

export function ageAdjustedWeight(input: { grams: number; ageDays: number; breed: string | null; birdType: BirdType; referenceAgeDays: number }) {
  const standard = findBreedStandard(input.breed, input.birdType);
  if (!standard)
    return { standard: null, deviationPct: null, ageAdjusted: null, reason: `no breed standard for "${input.breed ?? 'no breed'}" (${input.birdType})` };
  const atAge = standardWeightGrams(standard, input.ageDays);
  if (!atAge) return { standard: null, deviationPct: null, ageAdjusted: null, reason: `age ${input.ageDays} days is outside the ${standard.name} table` };
  const atReference = standardWeightGrams(standard, input.referenceAgeDays);
  return {
    standard: { name: standard.name, status: standard.status, value: atAge.grams, interpolated: atAge.interpolated },
    deviationPct: deviationPct(input.grams, atAge.grams),
    ageAdjusted: atReference
      ? {
          referenceAgeDays: input.referenceAgeDays,
          value: Math.round((input.grams * atReference.grams) / atAge.grams),
          method: `value × ${standard.name} standard at ${input.referenceAgeDays} d ÷ standard at ${input.ageDays} d`,
        }
      : null,
    ...(atReference ? {} : { reason: `reference age ${input.referenceAgeDays} days is outside the ${standard.name} table` }),
  };
}

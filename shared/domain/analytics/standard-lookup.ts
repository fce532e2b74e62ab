/**
 * The lookups of a breed standard that need no table (pure): a breed's name matched, a tabulated age in
 * days, a series' value at an age, the body weight. Apart from ./breed-standards.ts, which holds every
 * breed's tables, so that code looking up one kind of standard (./broiler-standards.ts) carries only its
 * tables (the movement writes' bundles: docs/performance.md, "Update: deploy bundles back under 250 KB").
 */
import type { BirdType } from '../weights.js';
import type { AgeUnit, BreedStandard, StandardSeries } from './standards/types.js';

/** "Ross 308", "ross-308", "ROSS308" → "ross308": lower case, only a–z and 0–9 kept. */
export function normalizeBreed(breed: string): string {
  return breed.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The standard of `standards` for this breed and bird type, or null (unknown breed, no breed, other bird type). */
export function standardNamed(standards: readonly BreedStandard[], breed: string | null | undefined, birdType: BirdType): BreedStandard | null {
  if (!breed) return null;
  const key = normalizeBreed(breed);
  if (!key) return null;
  return standards.find((s) => s.birdType === birdType && [s.name, s.id, ...s.aliases].some((name) => normalizeBreed(name) === key)) ?? null;
}

/** Age in days of a tabulated age (week N = N × 7 days). */
export function ageInDays(age: number, unit: AgeUnit): number {
  return unit === 'week' ? age * 7 : age;
}

/** Unrounded value at an age in days of points tabulated by age: linear between two listed ages, null outside them. */
export function pointsValueAt(
  pts: ReadonlyArray<readonly [number, number]>,
  ageUnit: AgeUnit,
  ageDays: number,
): { value: number; interpolated: boolean } | null {
  for (let i = 0; i < pts.length; i++) {
    const [age, value] = pts[i]!;
    const at = ageInDays(age, ageUnit);
    if (ageDays === at) return { value, interpolated: false };
    if (ageDays < at) {
      if (i === 0) return null;
      const [prevAge, prevValue] = pts[i - 1]!;
      const from = ageInDays(prevAge, ageUnit);
      return { value: prevValue + ((ageDays - from) / (at - from)) * (value - prevValue), interpolated: true };
    }
  }
  return null;
}

/** Unrounded value of a series at an age in days, or null outside its tabulated range. */
export function seriesValueAt(series: StandardSeries, ageUnit: AgeUnit, ageDays: number): { value: number; interpolated: boolean } | null {
  return pointsValueAt(series.points, ageUnit, ageDays);
}

/** The standard's body weight in GRAMS at an age in days (kg tables converted), unrounded; null when it has none at that age. */
export function standardWeightGrams(standard: BreedStandard, ageDays: number): { grams: number; interpolated: boolean } | null {
  const s = standard.series.find((x) => x.key === 'bodyWeight');
  const hit = s ? seriesValueAt(s, standard.ageUnit, ageDays) : null;
  if (!s || !hit) return null;
  return { grams: s.unit === 'kg' ? hit.value * 1000 : hit.value, interpolated: hit.interpolated };
}

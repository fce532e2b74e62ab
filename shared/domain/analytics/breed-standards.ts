/**
 * Breed standards (pure, no I/O): the breeders' tables (one file per breed under ./standards, sources in
 * docs/breed-standards.md) with their publisher, document, edition and an `official | approximate` flag,
 * and the lookups the analytics need.
 * Ages, interpolation and breed matching: docs/analytics-reports.md ("Breed standards").
 */
import type { BirdType } from '../weights.js';
import { round } from '../weights.js';
import { COBB_500 } from './standards/cobb-500.js';
import { HY_LINE_BROWN } from './standards/hy-line-brown.js';
import { LOHMANN_BROWN_CLASSIC } from './standards/lohmann-brown-classic.js';
import { ROSS_308 } from './standards/ross-308.js';
import type { AgeUnit, BreedStandard, SeriesKey, SeriesUnit, StandardSeries, StandardStatus } from './standards/types.js';

export type { AgeUnit, BreedStandard, SeriesKey, SeriesUnit, StandardSeries, StandardStatus };

export const INTERPOLATION_NOTE =
  'values as tabulated (the broiler tables list every day); linear interpolation only between the ages a table lists, as the weekly layer guides space them; no value outside the tabulated range (no extrapolation)';

export const BREED_STANDARDS: readonly BreedStandard[] = [ROSS_308, COBB_500, HY_LINE_BROWN, LOHMANN_BROWN_CLASSIC];

/** "Ross 308", "ross-308", "ROSS308" → "ross308": lower case, only a–z and 0–9 kept. */
export function normalizeBreed(breed: string): string {
  return breed.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The shipped standard for this breed and bird type, or null (unknown breed, no breed, other bird type). See the module note on matching. */
export function findBreedStandard(breed: string | null | undefined, birdType: BirdType): BreedStandard | null {
  if (!breed) return null;
  const key = normalizeBreed(breed);
  if (!key) return null;
  return BREED_STANDARDS.find((s) => s.birdType === birdType && [s.name, s.id, ...s.aliases].some((name) => normalizeBreed(name) === key)) ?? null;
}

/** Age in days of a tabulated age (week N = N × 7 days). */
export function ageInDays(age: number, unit: AgeUnit): number {
  return unit === 'week' ? age * 7 : age;
}

export interface StandardValue {
  key: SeriesKey;
  label: string;
  unit: SeriesUnit;
  /** null outside the tabulated range (see `reason`). */
  value: number | null;
  /** True when the age falls between two tabulated ages. */
  interpolated: boolean;
  reason?: string;
}

export interface StandardAtAge {
  standardId: string;
  ageDays: number;
  values: Partial<Record<SeriesKey, StandardValue>>;
}

/** Unrounded value of a series at an age in days, or null outside its tabulated range. */
export function seriesValueAt(series: StandardSeries, ageUnit: AgeUnit, ageDays: number): { value: number; interpolated: boolean } | null {
  const pts = series.points;
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

/** First and last tabulated age of a series, in days. */
export function seriesRangeDays(series: StandardSeries, ageUnit: AgeUnit): { from: number; to: number } {
  return { from: ageInDays(series.points[0]![0], ageUnit), to: ageInDays(series.points.at(-1)![0], ageUnit) };
}

function rangeText(series: StandardSeries, ageUnit: AgeUnit): string {
  const first = series.points[0]![0];
  const last = series.points.at(-1)![0];
  return `${ageUnit} ${first} to ${ageUnit} ${last}`;
}

/** Every series of the standard at an age in days: the value (rounded to the series' decimals), whether it was interpolated, or null outside the table. */
export function standardAt(standard: BreedStandard, ageDays: number): StandardAtAge {
  const values: Partial<Record<SeriesKey, StandardValue>> = {};
  for (const s of standard.series) {
    const hit = seriesValueAt(s, standard.ageUnit, ageDays);
    values[s.key] = hit
      ? { key: s.key, label: s.label, unit: s.unit, value: round(hit.value, s.decimals), interpolated: hit.interpolated }
      : {
          key: s.key,
          label: s.label,
          unit: s.unit,
          value: null,
          interpolated: false,
          reason: `age ${ageDays} days is outside the ${standard.name} ${s.label[0]!.toLowerCase()}${s.label.slice(1)} table (${rangeText(s, standard.ageUnit)}); standards are not extrapolated`,
        };
  }
  return { standardId: standard.id, ageDays, values };
}

/** The standard's body weight in GRAMS at an age in days (kg tables converted), unrounded; null when it has none at that age. */
export function standardWeightGrams(standard: BreedStandard, ageDays: number): { grams: number; interpolated: boolean } | null {
  const s = standard.series.find((x) => x.key === 'bodyWeight');
  const hit = s ? seriesValueAt(s, standard.ageUnit, ageDays) : null;
  if (!s || !hit) return null;
  return { grams: s.unit === 'kg' ? hit.value * 1000 : hit.value, interpolated: hit.interpolated };
}

/** Unrounded value of one series (cumulative FCR, hen-day %) at an age in days; null when the standard has no such series or no value at that age. */
export function standardValue(standard: BreedStandard, key: SeriesKey, ageDays: number): { value: number; interpolated: boolean } | null {
  const s = standard.series.find((x) => x.key === key);
  return s ? seriesValueAt(s, standard.ageUnit, ageDays) : null;
}

/**
 * The day's feed intake per bird (g) at an age in days, and how it was read: the printed daily intake; else
 * the growth of the printed cumulative feed over that day (Ross prints day 1 only as the cumulative 12 g);
 * else, for days before the first printed cumulative, its mean per day (Cobb prints the first week only as
 * its 180 g total). Day 0, the day of placement, counts as day 1. Null outside the table.
 */
export function standardFeedIntake(standard: BreedStandard, ageDays: number): { grams: number; basis: string } | null {
  const day = Math.max(1, Math.round(ageDays));
  const printed = standardValue(standard, 'dailyFeedIntake', day);
  if (printed) return { grams: printed.value, basis: `${standard.name} daily feed intake at day ${day}` };
  const cumulative = standard.series.find((x) => x.key === 'cumulativeFeed');
  if (!cumulative) return null;
  const today = seriesValueAt(cumulative, standard.ageUnit, day);
  const before = day === 1 ? { value: 0 } : seriesValueAt(cumulative, standard.ageUnit, day - 1);
  if (today && before) return { grams: today.value - before.value, basis: `${standard.name} cumulative feed, day ${day} less day ${day - 1}` };
  const [firstAge, firstValue] = cumulative.points[0]!;
  const first = ageInDays(firstAge, standard.ageUnit);
  if (day > first) return null;
  return { grams: firstValue / first, basis: `${standard.name} cumulative feed of the first ${first} days (${firstValue} g), a mean per day` };
}

// ---------------------------------------------------------------------------------------------------
// GET /api/v2/analytics/breeds

export interface BreedStandardSummary {
  id: string;
  name: string;
  birdType: BirdType;
  aliases: string[];
  source: { publisher: string; document: string; transcription: string };
  edition: number | null;
  status: StandardStatus;
  ageUnit: AgeUnit;
  note: string | null;
  interpolation: string;
  series: Array<{
    key: SeriesKey;
    label: string;
    unit: SeriesUnit;
    ageRange: { from: number; to: number; unit: AgeUnit };
    ageRangeDays: { from: number; to: number };
    points: Array<{ age: number; ageDays: number; value: number }>;
  }>;
}

/** Every shipped standard with its tabulated points (JSON-ready). */
export function listBreedStandards(): BreedStandardSummary[] {
  return BREED_STANDARDS.map((s) => ({
    id: s.id,
    name: s.name,
    birdType: s.birdType,
    aliases: [...s.aliases],
    source: { ...s.source },
    edition: s.edition,
    status: s.status,
    ageUnit: s.ageUnit,
    note: s.note,
    interpolation: INTERPOLATION_NOTE,
    series: s.series.map((x) => ({
      key: x.key,
      label: x.label,
      unit: x.unit,
      ageRange: { from: x.points[0]![0], to: x.points.at(-1)![0], unit: s.ageUnit },
      ageRangeDays: seriesRangeDays(x, s.ageUnit),
      points: x.points.map(([age, value]) => ({ age, ageDays: ageInDays(age, s.ageUnit), value })),
    })),
  }));
}

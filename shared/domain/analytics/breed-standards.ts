/**
 * Breed standards (pure, no I/O): the breeders' tables (one file per breed under ./standards, sources in
 * docs/breed-standards.md) with their publisher, document, edition and an `official | approximate` flag,
 * and the lookups the analytics need.
 * Ages, interpolation and breed matching: docs/analytics-reports.md ("Breed standards").
 */
import type { BirdType } from '../weights.js';
import { round } from '../weights.js';
import { BROILER_STANDARDS } from './broiler-standards.js';
import { ageInDays, pointsValueAt, seriesValueAt, standardNamed } from './standard-lookup.js';
import { HY_LINE_BROWN } from './standards/hy-line-brown.js';
import { LOHMANN_BROWN_CLASSIC } from './standards/lohmann-brown-classic.js';
import type { AgeUnit, BreedStandard, SeriesBasis, SeriesKey, SeriesUnit, StandardSeries, StandardStatus } from './standards/types.js';

export type { AgeUnit, BreedStandard, SeriesBasis, SeriesKey, SeriesUnit, StandardSeries, StandardStatus };

export const INTERPOLATION_NOTE =
  'values as tabulated (the broiler tables list every day); linear interpolation only between the ages a table lists, as the weekly layer guides space them; no value outside the tabulated range (no extrapolation)';

export const BREED_STANDARDS: readonly BreedStandard[] = [...BROILER_STANDARDS, HY_LINE_BROWN, LOHMANN_BROWN_CLASSIC];

export { ageInDays, normalizeBreed, seriesValueAt, standardWeightGrams } from './standard-lookup.js';

/** The shipped standard for this breed and bird type, or null (unknown breed, no breed, other bird type). See the module note on matching. */
export const findBreedStandard = (breed: string | null | undefined, birdType: BirdType): BreedStandard | null =>
  standardNamed(BREED_STANDARDS, breed, birdType);

export interface StandardValue {
  key: SeriesKey;
  label: string;
  unit: SeriesUnit;
  /** null outside the tabulated range (see `reason`). */
  value: number | null;
  /** True when the age falls between two tabulated ages. */
  interpolated: boolean;
  /** How the guide gives the value: as printed, the midpoint of a printed band, or derived (`StandardSeries.basis`). */
  basis: SeriesBasis;
  /** The printed band at that age (interpolated like the value), when the guide prints one. */
  band?: { low: number; high: number };
  reason?: string;
}

export interface StandardAtAge {
  standardId: string;
  ageDays: number;
  values: Partial<Record<SeriesKey, StandardValue>>;
}

/** The printed band of a series at an age in days (each edge interpolated like the value), or null without one. */
export function seriesBandAt(series: StandardSeries, ageUnit: AgeUnit, ageDays: number): { low: number; high: number } | null {
  if (!series.band) return null;
  const low = pointsValueAt(
    series.band.map(([age, lo]) => [age, lo] as const),
    ageUnit,
    ageDays,
  );
  const high = pointsValueAt(
    series.band.map(([age, , hi]) => [age, hi] as const),
    ageUnit,
    ageDays,
  );
  return low && high ? { low: low.value, high: high.value } : null;
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
    const band = hit ? seriesBandAt(s, standard.ageUnit, ageDays) : null;
    values[s.key] = hit
      ? {
          key: s.key,
          label: s.label,
          unit: s.unit,
          value: round(hit.value, s.decimals),
          interpolated: hit.interpolated,
          basis: s.basis,
          ...(band ? { band: { low: round(band.low, s.decimals), high: round(band.high, s.decimals) } } : {}),
        }
      : {
          key: s.key,
          label: s.label,
          unit: s.unit,
          value: null,
          interpolated: false,
          basis: s.basis,
          reason: `age ${ageDays} days is outside the ${standard.name} ${s.label[0]!.toLowerCase()}${s.label.slice(1)} table (${rangeText(s, standard.ageUnit)}); standards are not extrapolated`,
        };
  }
  return { standardId: standard.id, ageDays, values };
}

/** Unrounded value of one series (cumulative FCR, hen-day %, water intake…) at an age in days; null when the standard has no such series or no value at that age. */
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

/** "week 18", or "day 130 (between weeks 18 and 19)" for an age between two rows of a weekly table. */
function ageText(standard: BreedStandard, ageDays: number, interpolated: boolean): string {
  if (standard.ageUnit === 'day') return `day ${ageDays}`;
  const week = ageDays / 7;
  return interpolated ? `day ${ageDays} (between weeks ${Math.floor(week)} and ${Math.ceil(week)})` : `week ${week}`;
}

/**
 * The day's water intake of one bird (ml) at an age in days from the standard's water table (Hy-Line Brown
 * prints a band per week: its midpoint), with the basis; null when the standard has no water at that age.
 */
export function standardWaterIntake(standard: BreedStandard, ageDays: number): { ml: number; basis: string } | null {
  const s = standard.series.find((x) => x.key === 'waterIntake');
  const hit = s ? seriesValueAt(s, standard.ageUnit, ageDays) : null;
  if (!s || !hit) return null;
  const band = seriesBandAt(s, standard.ageUnit, ageDays);
  const how = band ? `midpoint of the published ${round(band.low, 1)}–${round(band.high, 1)} ml band` : 'as published';
  return {
    ml: hit.value,
    basis: `${standard.name} water intake at ${ageText(standard, ageDays, hit.interpolated)}: ${round(hit.value, 1)} ml per bird (${how})`,
  };
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
    basis: SeriesBasis;
    derivation: string | null;
    /** `low` and `high`: the printed band at that age, when the guide prints one. */
    points: Array<{ age: number; ageDays: number; value: number; low?: number; high?: number }>;
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
      basis: x.basis,
      derivation: x.derivation ?? null,
      points: x.points.map(([age, value]) => {
        const band = x.band?.find(([at]) => at === age);
        return { age, ageDays: ageInDays(age, s.ageUnit), value, ...(band ? { low: band[1], high: band[2] } : {}) };
      }),
    })),
  }));
}

/**
 * Breed standards as data (pure, no I/O): the breeders' tables of docs/domain.md as typed constants, with
 * their publisher, document, edition and an `official | approximate` flag, plus the lookups the analytics need.
 * Ages, interpolation and breed matching: docs/analytics-reports.md ("Breed standards").
 */
import type { BirdType } from '../weights.js';
import { round } from '../weights.js';

export type StandardStatus = 'official' | 'approximate';
/** What a series measures: body weight (g or kg), cumulative FCR (kg feed ÷ kg body weight), hen-day production (%). */
export type SeriesKey = 'bodyWeight' | 'cumulativeFcr' | 'henDayPct';
export type SeriesUnit = 'g' | 'kg' | 'kg/kg' | '%';
export type AgeUnit = 'day' | 'week';

export interface StandardSeries {
  key: SeriesKey;
  label: string;
  unit: SeriesUnit;
  /** Decimals of the values `standardAt` answers (one more than the table's). */
  decimals: number;
  /** [age in the standard's age unit, value], ascending ages. */
  points: ReadonlyArray<readonly [age: number, value: number]>;
}

export interface BreedStandard {
  id: string;
  name: string;
  birdType: BirdType;
  /** Other spellings that match (compared normalized, see `normalizeBreed`). */
  aliases: readonly string[];
  source: { publisher: string; document: string; transcription: string };
  /** Year of the edition, null when the transcription does not name it. */
  edition: number | null;
  status: StandardStatus;
  ageUnit: AgeUnit;
  series: readonly StandardSeries[];
  /** Anything a reader of the figures should know about the data. */
  note: string | null;
}

export const INTERPOLATION_NOTE = 'linear interpolation between tabulated ages; no value outside the tabulated range (no extrapolation)';

/** Where the tables are written out with their sources (answered by GET /api/v2/analytics/breeds). */
const TRANSCRIBED_IN = 'docs/domain.md of the Flockwise repository (domain reference)';

const days = (ages: number[], values: Array<number | null>): Array<readonly [number, number]> =>
  ages.flatMap((a, i) => (values[i] === null || values[i] === undefined ? [] : [[a, values[i]] as const]));

const BROILER_DAYS = [0, 7, 14, 21, 28, 35, 42, 49, 56];
const HYLINE_WEEKS = [18, 20, 22, 24, 26, 28, 30, 35, 40, 50, 60, 70, 80];

export const ROSS_308: BreedStandard = {
  id: 'ross-308',
  name: 'Ross 308',
  birdType: 'broiler',
  aliases: ['Ross 308', 'Ross308', 'Aviagen Ross 308'],
  source: { publisher: 'Aviagen', document: 'Ross 308 Broiler: Performance Objectives (as-hatched)', transcription: TRANSCRIBED_IN },
  edition: 2022,
  status: 'official',
  ageUnit: 'day',
  series: [
    {
      key: 'bodyWeight',
      label: 'Body weight, as-hatched',
      unit: 'g',
      decimals: 1,
      points: days(BROILER_DAYS, [44, 213, 533, 1012, 1616, 2296, 2998, 3681, 4318]),
    },
    {
      key: 'cumulativeFcr',
      label: 'Cumulative FCR',
      unit: 'kg/kg',
      decimals: 4,
      points: days(BROILER_DAYS, [null, 0.78, 1.005, 1.142, 1.269, 1.399, 1.531, 1.663, 1.793]),
    },
  ],
  note: 'Weights agree across several public transcriptions of the Aviagen objectives.',
};

export const COBB_500: BreedStandard = {
  id: 'cobb-500',
  name: 'Cobb 500',
  birdType: 'broiler',
  aliases: ['Cobb 500', 'Cobb500', 'Cobb-Vantress Cobb 500'],
  source: { publisher: 'Cobb-Vantress', document: 'Cobb 500 Broiler Performance & Nutrition Supplement (as-hatched)', transcription: TRANSCRIBED_IN },
  edition: 2022,
  status: 'official',
  ageUnit: 'day',
  series: [
    {
      key: 'bodyWeight',
      label: 'Body weight, as-hatched',
      unit: 'g',
      decimals: 1,
      points: days(BROILER_DAYS, [42, 202, 570, 1116, 1783, 2521, 3278, 4001, 4641]),
    },
    {
      key: 'cumulativeFcr',
      label: 'Cumulative FCR',
      unit: 'kg/kg',
      decimals: 4,
      points: days(BROILER_DAYS, [null, 0.891, 1.029, 1.182, 1.322, 1.441, 1.555, 1.686, 1.842]),
    },
  ],
  note: 'Transcribed from public repositories; unlike the Ross weights, not cross-checked between transcriptions.',
};

export const HY_LINE_BROWN: BreedStandard = {
  id: 'hy-line-brown',
  name: 'Hy-Line Brown',
  birdType: 'layer',
  aliases: ['Hy-Line Brown', 'HyLine Brown', 'Hy Line Brown'],
  source: {
    publisher: 'Hy-Line International',
    document: 'Hy-Line Brown Commercial Layers Performance Standards Guide (cage), low end of the band',
    transcription: TRANSCRIBED_IN,
  },
  edition: null,
  status: 'approximate',
  ageUnit: 'week',
  series: [
    {
      key: 'henDayPct',
      label: 'Hen-day production',
      unit: '%',
      decimals: 2,
      points: days(HYLINE_WEEKS, [6.7, 52.5, 87.0, 92.4, 93.6, 93.5, 93.3, 92.7, 91.9, 90.0, 87.4, 83.6, 79.7]),
    },
    {
      key: 'bodyWeight',
      label: 'Body weight, minimum of the band',
      unit: 'kg',
      decimals: 3,
      points: days(HYLINE_WEEKS, [1.41, 1.52, 1.64, 1.74, 1.81, 1.85, 1.86, 1.9, 1.92, 1.94, 1.95, 1.95, 1.96]),
    },
  ],
  note: 'Secondary transcription (low end of the published band); the edition is not named.',
};

export const LOHMANN_BROWN_CLASSIC: BreedStandard = {
  id: 'lohmann-brown-classic',
  name: 'Lohmann Brown-Classic',
  birdType: 'layer',
  aliases: ['Lohmann Brown-Classic', 'Lohmann Brown Classic', 'Lohmann Brown', 'LB-Classic'],
  source: {
    publisher: 'Lohmann Breeders',
    document: 'Lohmann Brown-Classic Management Guide, body weight (midpoints of the range)',
    transcription: TRANSCRIBED_IN,
  },
  edition: null,
  status: 'approximate',
  ageUnit: 'week',
  series: [
    {
      key: 'bodyWeight',
      label: 'Body weight, midpoint of the range',
      unit: 'g',
      decimals: 1,
      points: days([4, 8, 12, 16, 18, 20, 24, 40, 60], [273, 677, 1047, 1351, 1493, 1635, 1846, 1946, 1996]),
    },
  ],
  note: 'Rearing and early-lay body weights only (no production curve); neither the edition nor a second transcription is known.',
};

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

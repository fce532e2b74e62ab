import type { BirdType } from '../../weights.js';

/** The shape of a breed standard as the breeder's table gives it (the tables themselves: one file per breed here). */
export type StandardStatus = 'official' | 'approximate';
/**
 * What a series measures: body weight (g or kg), the day's gain (g), the day's feed intake per bird (g),
 * cumulative feed per bird (g), cumulative FCR (kg feed ÷ kg body weight), hen-day production (%).
 */
export type SeriesKey = 'bodyWeight' | 'dailyGain' | 'dailyFeedIntake' | 'cumulativeFeed' | 'cumulativeFcr' | 'henDayPct';
export type SeriesUnit = 'g' | 'g/bird/day' | 'kg' | 'kg/kg' | '%';
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

/** A daily series from a table that lists every day from `first` on: `[[first, v0], [first + 1, v1], …]`. */
export const fromDay = (first: number, values: readonly number[]): Array<readonly [number, number]> => values.map((v, i) => [first + i, v] as const);

/** A series at the listed ages, skipping the ages the table leaves blank (`null`). */
export const atAges = (ages: readonly number[], values: ReadonlyArray<number | null>): Array<readonly [number, number]> =>
  ages.flatMap((a, i) => (values[i] === null || values[i] === undefined ? [] : [[a, values[i]] as const]));

type Points = ReadonlyArray<readonly [number, number]>;

/** The five series of a broiler's published daily objectives, named, united and rounded the same for every breed. */
export function dailyBroilerSeries(t: Record<'bodyWeight' | 'dailyGain' | 'dailyFeedIntake' | 'cumulativeFeed' | 'cumulativeFcr', Points>): StandardSeries[] {
  return [
    { key: 'bodyWeight', label: 'Body weight, as-hatched', unit: 'g', decimals: 1, points: t.bodyWeight },
    { key: 'dailyGain', label: 'Daily gain', unit: 'g', decimals: 1, points: t.dailyGain },
    { key: 'dailyFeedIntake', label: 'Daily feed intake', unit: 'g/bird/day', decimals: 1, points: t.dailyFeedIntake },
    { key: 'cumulativeFeed', label: 'Cumulative feed intake', unit: 'g', decimals: 1, points: t.cumulativeFeed },
    { key: 'cumulativeFcr', label: 'Cumulative FCR', unit: 'kg/kg', decimals: 4, points: t.cumulativeFcr },
  ];
}

import type { BirdType } from '../../weights.js';
import { round } from '../../weights.js';

/** The shape of a breed standard as the breeder's table gives it (the tables themselves: one file per breed here). */
export type StandardStatus = 'official' | 'approximate';
/**
 * What a series measures: body weight (g or kg), the day's gain (g), the day's feed intake per bird (g),
 * cumulative feed per bird (g), cumulative FCR (kg feed ÷ kg body weight), the day's water intake per
 * bird (ml), hen-day and hen-housed production (%), cumulative eggs per hen (hen-day and hen-housed),
 * egg weight (g; the week's and the cumulative average), egg mass (g per hen-day), cumulative egg mass per
 * hen housed (kg), cumulative mortality and livability (%) of the rearing period (from the day-old
 * chicks) and of the laying period (from housing in lay).
 */
export type SeriesKey =
  | 'bodyWeight'
  | 'dailyGain'
  | 'dailyFeedIntake'
  | 'cumulativeFeed'
  | 'cumulativeFcr'
  | 'waterIntake'
  | 'henDayPct'
  | 'henHousedPct'
  | 'henDayEggs'
  | 'henHousedEggs'
  | 'eggWeight'
  | 'eggWeightAverage'
  | 'eggMass'
  | 'henHousedEggMass'
  | 'rearingMortality'
  | 'rearingLivability'
  | 'mortality'
  | 'livability';
export type SeriesUnit = 'g' | 'g/bird/day' | 'kg' | 'kg/kg' | '%' | 'ml/bird/day' | 'eggs/hen' | 'g/hen/day';
export type AgeUnit = 'day' | 'week';
/**
 * How a series' values come from the guide: `published` as printed (a target the guide prints);
 * `band midpoint` where the guide prints only a band (low–high) and no target: the value is (low + high)
 * ÷ 2, a derivation, and `band` keeps the printed edges; `derived` computed from other printed columns, as
 * `derivation` says.
 */
export type SeriesBasis = 'published' | 'band midpoint' | 'derived';

export interface StandardSeries {
  key: SeriesKey;
  label: string;
  unit: SeriesUnit;
  /** Decimals of the values `standardAt` answers (one more than the table's). */
  decimals: number;
  /** [age in the standard's age unit, value], ascending ages: the target served (see `basis`). */
  points: ReadonlyArray<readonly [age: number, value: number]>;
  basis: SeriesBasis;
  /** What a `derived` series is computed from. */
  derivation?: string;
  /** The band the guide prints, [age, low, high], at the ages of `points`. */
  band?: ReadonlyArray<readonly [age: number, low: number, high: number]>;
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

type Points = ReadonlyArray<readonly [number, number]>;
type BandPoints = ReadonlyArray<readonly [number, number, number]>;
/** A printed band, its low and its high edge at consecutive ages. */
export interface Band {
  low: readonly number[];
  high: readonly number[];
}

/** A series at consecutive ages from `first` on: `[[first, v0], [first + 1, v1], …]`. */
export const fromAge = (first: number, values: readonly number[]): Array<readonly [number, number]> => values.map((v, i) => [first + i, v] as const);

/** A daily series from a table that lists every day from `first` on. */
export const fromDay = fromAge;

/** A band at consecutive ages from `first` on: `[[first, low0, high0], …]`. */
export function bandFrom(first: number, band: Band): Array<readonly [number, number, number]> {
  if (band.low.length !== band.high.length) throw new RangeError(`a band needs as many low as high values (${band.low.length} ≠ ${band.high.length})`);
  return band.low.map((low, i) => [first + i, low, band.high[i]!] as const);
}

/** Two bands of consecutive ages, one after the other (a guide's rearing and production tables). */
export const joinBands = (a: Band, b: Band): Band => ({ low: [...a.low, ...b.low], high: [...a.high, ...b.high] });

type Meta = Pick<StandardSeries, 'key' | 'label' | 'unit' | 'decimals'>;

/** A series as the guide prints it (with the band it prints around the target, if any). */
export const publishedSeries = (meta: Meta, points: Points, band?: BandPoints): StandardSeries => ({
  ...meta,
  points,
  basis: 'published',
  ...(band ? { band } : {}),
});

/** A series the guide prints only as a band: the midpoint of each band (rounded to the series' decimals) is the value served. */
export const bandMidpointSeries = (meta: Meta, band: BandPoints): StandardSeries => ({
  ...meta,
  points: band.map(([age, low, high]) => [age, round((low + high) / 2, meta.decimals)] as const),
  basis: 'band midpoint',
  band,
});

/** A series computed from other printed columns (rounded to the series' decimals). */
export const derivedSeries = (meta: Meta, points: Points, derivation: string): StandardSeries => ({
  ...meta,
  points: points.map(([age, v]) => [age, round(v, meta.decimals)] as const),
  basis: 'derived',
  derivation,
});

/** The five series of a broiler's published daily objectives, named, united and rounded the same for every breed. */
export function dailyBroilerSeries(t: Record<'bodyWeight' | 'dailyGain' | 'dailyFeedIntake' | 'cumulativeFeed' | 'cumulativeFcr', Points>): StandardSeries[] {
  return [
    publishedSeries({ key: 'bodyWeight', label: 'Body weight, as-hatched', unit: 'g', decimals: 1 }, t.bodyWeight),
    publishedSeries({ key: 'dailyGain', label: 'Daily gain', unit: 'g', decimals: 1 }, t.dailyGain),
    publishedSeries({ key: 'dailyFeedIntake', label: 'Daily feed intake', unit: 'g/bird/day', decimals: 1 }, t.dailyFeedIntake),
    publishedSeries({ key: 'cumulativeFeed', label: 'Cumulative feed intake', unit: 'g', decimals: 1 }, t.cumulativeFeed),
    publishedSeries({ key: 'cumulativeFcr', label: 'Cumulative FCR', unit: 'kg/kg', decimals: 4 }, t.cumulativeFcr),
  ];
}

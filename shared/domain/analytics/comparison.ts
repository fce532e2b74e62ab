/**
 * Actual vs breed standard per day (GET /api/v2/analytics/breed/{flockId}/{cycleId}), pure.
 *
 * One entry per day of the daily series on which the flock's standard has at least one value:
 * - body weight (g): the weighing OF THAT DATE (a carried-forward or standard weight is no measurement
 *   of that day) vs the standard weight at that age (kg tables converted to g);
 * - cumulative FCR (broiler standards): the day's FCR, on weighing days only (a carried-forward weight
 *   would inflate it day after day), vs the standard's cumulative FCR;
 * - hen-day % (layer standards with a production curve): the day's hen-day % vs the standard;
 * - the day's feed and water per bird vs the standard's daily feed and water intake;
 * - layers: egg weight and egg mass (days with the eggs weighed: the `fallbacks.eggWeightGrams` of an
 *   unweighed day is no measurement), hen-housed eggs to date, and livability vs the guide's livability in
 *   rearing (weeks 1–17, from the day-old chicks) and in lay (from housing at 18 weeks): the cycle counts
 *   both from its own housed birds (placed + transferred in), which the comparison says.
 * Deviation % = (actual − standard) ÷ standard × 100, from the reported (rounded) actual and standard.
 * A standard printed as a band is served as its midpoint (`standardBasis: 'band midpoint'`, the band in
 * `standardBand`); derived standards say so (`standardBasis: 'derived'`).
 * Standard values between tabulated ages are interpolated linearly (`interpolated: true`); outside the
 * table there is no standard (no extrapolation). An unknown breed answers `standard: null` with the reason.
 */
import type { AnalyticsSections } from '../../../schemas/analytics-config.js';
import { round } from '../weights.js';
import {
  findBreedStandard,
  INTERPOLATION_NOTE,
  standardAt,
  type BreedStandard,
  type SeriesBasis,
  type SeriesKey,
  type StandardValue,
} from './breed-standards.js';
import type { CycleInputs } from './inputs.js';
import { dailySeries } from './kpis/daily.js';
import type { DailyKpis } from './kpis/types.js';

export interface MetricComparison {
  actual: number | null;
  standard: number | null;
  unit: string;
  /** (actual − standard) ÷ standard × 100, %; null unless both are known. */
  deviationPct: number | null;
  /** The standard value was interpolated between two tabulated ages. */
  interpolated: boolean;
  /** A standard that is not a value as printed says how it was obtained: the midpoint of a printed band, or derived. */
  standardBasis?: Exclude<SeriesBasis, 'published'>;
  /** The band (or range) the guide prints at that age, when it prints one. */
  standardBand?: { low: number; high: number };
  /** Why actual, standard or deviation is null. */
  reason?: string;
  assumptions?: string[];
}

export interface ComparisonDay {
  date: string;
  ageDays: number;
  bodyWeight: MetricComparison;
  cumulativeFcr: MetricComparison;
  henDayPct: MetricComparison;
  dailyFeedIntake: MetricComparison;
  waterIntake: MetricComparison;
  eggWeight: MetricComparison;
  eggMass: MetricComparison;
  henHousedEggs: MetricComparison;
  livability: MetricComparison;
}

export interface StandardRef {
  id: string;
  name: string;
  status: 'official' | 'approximate';
  edition: number | null;
  source: { publisher: string; document: string; transcription: string };
}

export interface BreedComparison {
  breed: string | null;
  standard: StandardRef | null;
  /** Why there is no standard (unknown breed). */
  reason?: string;
  interpolation: string;
  days: ComparisonDay[];
}

const UNITS: Partial<Record<SeriesKey, string>> = {
  bodyWeight: 'g',
  cumulativeFcr: 'kg/kg',
  henDayPct: '%',
  dailyFeedIntake: 'g/bird/day',
  waterIntake: 'ml/bird/day',
  eggWeight: 'g',
  eggMass: 'g/hen/day',
  henHousedEggs: 'eggs/hen',
  rearingLivability: '%',
  livability: '%',
};

export function noStandardReason(breed: string | null, birdType: string): string {
  return breed ? `no standard for breed ${breed} (${birdType})` : 'no standard: the flock has no breed';
}

export function standardRef(s: BreedStandard): StandardRef {
  return { id: s.id, name: s.name, status: s.status, edition: s.edition, source: { ...s.source } };
}

/** Deviation % of a reported actual from a reported standard (2 decimals). */
export function deviationPct(actual: number, standard: number): number {
  return round(((actual - standard) / standard) * 100, 2) + 0;
}

function compare(
  actual: { value: number | null; reason?: string; assumptions?: string[] },
  std: StandardValue | undefined,
  key: SeriesKey,
  standardName: string,
): MetricComparison {
  const unit = UNITS[key] ?? std?.unit ?? '';
  const standard = std?.value ?? null;
  const out: MetricComparison = { actual: actual.value, standard, unit, deviationPct: null, interpolated: std?.interpolated ?? false };
  if (standard !== null && std && std.basis !== 'published') out.standardBasis = std.basis;
  if (standard !== null && std?.band) out.standardBand = std.band;
  if (actual.assumptions?.length) out.assumptions = actual.assumptions;
  if (standard === null) out.reason = std?.reason ?? `${standardName} has no ${key} series`;
  else if (actual.value === null) out.reason = actual.reason ?? 'no actual value';
  else out.deviationPct = deviationPct(actual.value, standard);
  return out;
}

/** The standard's body weight in grams at the row's age (kg tables converted). */
function weightStandard(s: BreedStandard, ageDays: number): StandardValue | undefined {
  const v = standardAt(s, ageDays).values.bodyWeight;
  if (!v || v.value === null || v.unit !== 'kg') return v;
  const g = (kg: number) => round(kg * 1000, 1);
  return { ...v, unit: 'g', value: g(v.value), ...(v.band ? { band: { low: g(v.band.low), high: g(v.band.high) } } : {}) };
}

/** The cycle's livability is counted from its own housed birds; the guide's from the day-old chicks (rearing) or from housing at 18 weeks (lay). */
const LIVABILITY_BASIS =
  'the cycle counts livability from its own housed birds (placed + transferred in); the guide from the day-old chicks in rearing and from housing in lay';

/** An egg figure of a day whose eggs were not weighed rests on `fallbacks.eggWeightGrams`: no measurement to compare. */
function weighedEggs(row: DailyKpis, f: DailyKpis['eggWeightGrams']): { value: number | null; reason?: string; assumptions?: string[] } {
  if (row.eggWeightGrams.value !== null && row.eggWeightGrams.assumptions?.length)
    return { value: null, reason: 'no eggs weighed on this day (the assumed egg weight is not compared)' };
  return f;
}

/** The livability comparison: rearing weeks against the guide's rearing livability, lay against its livability in lay. */
function livabilityComparison(s: BreedStandard, row: DailyKpis, at: Partial<Record<SeriesKey, StandardValue>>): MetricComparison {
  const std = at.rearingLivability?.value != null ? at.rearingLivability : at.livability;
  const out = compare(row.livabilityPct, std, 'livability', s.name);
  if (out.standard !== null) out.assumptions = [...(out.assumptions ?? []), LIVABILITY_BASIS];
  return out;
}

function comparisonDay(s: BreedStandard, row: DailyKpis): ComparisonDay | null {
  const at = standardAt(s, row.ageDays).values;
  if (!Object.values(at).some((v) => v?.value !== null)) return null;
  const weighedToday = row.bodyWeight.source === 'weighing' && row.bodyWeight.date === row.date;
  const noWeighing = { value: null, reason: 'no weighing on this day' };
  return {
    date: row.date,
    ageDays: row.ageDays,
    bodyWeight: compare(weighedToday ? row.bodyWeight : noWeighing, weightStandard(s, row.ageDays), 'bodyWeight', s.name),
    cumulativeFcr: compare(
      weighedToday ? row.fcr : { value: null, reason: 'FCR is compared on weighing days only (a carried-forward weight would bias it)' },
      at.cumulativeFcr,
      'cumulativeFcr',
      s.name,
    ),
    henDayPct: compare(row.henDayPct, at.henDayPct, 'henDayPct', s.name),
    dailyFeedIntake: compare(row.feedGramsPerBird, at.dailyFeedIntake, 'dailyFeedIntake', s.name),
    waterIntake: compare(row.waterMlPerBird, at.waterIntake, 'waterIntake', s.name),
    eggWeight: compare(weighedEggs(row, row.eggWeightGrams), at.eggWeight, 'eggWeight', s.name),
    eggMass: compare(weighedEggs(row, row.eggMassGrams), at.eggMass, 'eggMass', s.name),
    henHousedEggs: compare(row.henHousedEggs, at.henHousedEggs, 'henHousedEggs', s.name),
    livability: livabilityComparison(s, row, at),
  };
}

/** Actual vs standard for every day of the series that has a standard value. */
export function compareWithStandard(inputs: CycleInputs, config: AnalyticsSections, series?: readonly DailyKpis[]): BreedComparison {
  const { breed, birdType } = inputs.cycle;
  const s = findBreedStandard(breed, birdType);
  if (!s) return { breed, standard: null, reason: noStandardReason(breed, birdType), interpolation: INTERPOLATION_NOTE, days: [] };
  const rows = series ?? dailySeries(inputs, config);
  return {
    breed,
    standard: standardRef(s),
    interpolation: INTERPOLATION_NOTE,
    days: rows.map((r) => comparisonDay(s, r)).filter((d): d is ComparisonDay => d !== null),
  };
}

/**
 * Actual vs breed standard per day (GET /api/v2/analytics/breed/{flockId}/{cycleId}), pure.
 *
 * One entry per day of the daily series on which the flock's standard has at least one value:
 * - body weight (g): the weighing OF THAT DATE (a carried-forward or standard weight is no measurement
 *   of that day) vs the standard weight at that age (kg tables converted to g);
 * - cumulative FCR (broiler standards): the day's FCR, on weighing days only (a carried-forward weight
 *   would inflate it day after day), vs the standard's cumulative FCR;
 * - hen-day % (layer standards with a production curve): the day's hen-day % vs the standard.
 * Deviation % = (actual − standard) ÷ standard × 100, from the reported (rounded) actual and standard.
 * Standard values between tabulated ages are interpolated linearly (`interpolated: true`); outside the
 * table there is no standard (no extrapolation). An unknown breed answers `standard: null` with the reason.
 */
import type { AnalyticsSections } from '../../../schemas/analytics-config.js';
import { round } from '../weights.js';
import { findBreedStandard, INTERPOLATION_NOTE, standardAt, type BreedStandard, type SeriesKey, type StandardValue } from './breed-standards.js';
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

const UNITS: Record<SeriesKey, string> = {
  bodyWeight: 'g',
  dailyGain: 'g',
  dailyFeedIntake: 'g/bird/day',
  cumulativeFeed: 'g',
  cumulativeFcr: 'kg/kg',
  henDayPct: '%',
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
  const unit = UNITS[key];
  const standard = std?.value ?? null;
  const out: MetricComparison = { actual: actual.value, standard, unit, deviationPct: null, interpolated: std?.interpolated ?? false };
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
  return { ...v, unit: 'g', value: round(v.value * 1000, 1) };
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

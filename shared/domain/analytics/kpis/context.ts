/**
 * What the KPI modules share: units and rounding, and the inputs of a cycle prepared once (the series
 * window, the effective weighings, the placement weight, the breed standard).
 *
 * Rounding: % 2 decimals, g 1, kg 3, FCR and kg/kg 3, g/day 1, EPEF 0; every figure is computed from
 * unrounded inputs.
 *
 * Placement weight (ADG since placement starts from it): Σ inflow quantity × averageWeightGrams ÷ birds
 * weighed; else the breed standard at the age at placement (`fallbacks.placementWeightFromBreedStandard`);
 * else `fallbacks.placementWeightGrams`, which stands for DAY-OLD birds only (not used when the birds
 * were older at placement); else null.
 */
import type { AnalyticsSections } from '../../../../schemas/analytics-config.js';
import { agesAt, type BirdType, type Confidence } from '../../weights.js';
import { findBreedStandard, standardWeightGrams, type BreedStandard } from '../breed-standards.js';
import { fmt, ledgerByDate } from '../figures.js';
import { emptyDay, type CycleFacts, type CycleInputs, type DayTotals, type WeighingPoint } from '../inputs.js';
import type { DailyKpis } from './types.js';
import { dateRange } from '../../../platform/calendar.js';

// ---------------------------------------------------------------------------------------------------
// Units and rounding

export const PCT = '%';
/** The unit of a dimensionless index (EPEF). */
export const INDEX = 'index';
export const D_PCT = 2;
export const D_G = 1;
export const D_KG = 3;
export const D_RATIO = 3;
const LAYING_TYPES: readonly BirdType[] = ['layer', 'breeder'];
export const BROILERS_ONLY = 'broilers only (layers: feed per kg egg and per dozen eggs)';
export const LAYERS_ONLY = 'layers and breeders only';

export const isLayingType = (t: BirdType): boolean => LAYING_TYPES.includes(t);

// ---------------------------------------------------------------------------------------------------
// Inputs prepared once per cycle

/** What the calendar of a cycle's days needs: its start and end, the days and how far they run. */
export type SeriesBounds = Pick<CycleInputs, 'days' | 'asOf'> & { cycle: Pick<CycleFacts, 'startDate' | 'endDate'> };

/** The last day the series covers: asOf, or the end date of a closed cycle when earlier. */
export function seriesEnd(inputs: Pick<SeriesBounds, 'asOf' | 'cycle'>): string {
  const end = inputs.cycle.endDate;
  return end && end < inputs.asOf ? end : inputs.asOf.slice(0, 10);
}

/**
 * The last day a cycle's figures cover, given the farm's today: a closed cycle's end date, else today (the
 * start date for a cycle that starts later).
 */
export const asOfFor = (cycle: Pick<CycleFacts, 'startDate' | 'endDate'>, today: string): string =>
  cycle.endDate ?? (today < cycle.startDate ? cycle.startDate : today);

/** The ledger day of every calendar date from the cycle's start to the series end (zeros where nothing moved). */
export function calendarDays(inputs: SeriesBounds): DayTotals[] {
  const byDate = ledgerByDate(inputs.days);
  return dateRange(inputs.cycle.startDate, seriesEnd(inputs)).map((date) => byDate.get(date) ?? emptyDay(date));
}

const CONFIDENCE_RANK: Record<Confidence, number> = { high: 3, medium: 2, low: 1 };

/** One weighing per date, ascending: the most confident of a date, then the largest sample, then the last given. */
export function effectiveWeighings(weighings: readonly WeighingPoint[]): WeighingPoint[] {
  const byDate = new Map<string, WeighingPoint>();
  for (const w of weighings) {
    const date = w.date.slice(0, 10);
    const prev = byDate.get(date);
    const better =
      !prev ||
      CONFIDENCE_RANK[w.confidence] > CONFIDENCE_RANK[prev.confidence] ||
      (CONFIDENCE_RANK[w.confidence] === CONFIDENCE_RANK[prev.confidence] && (w.sampleSize ?? 0) >= (prev.sampleSize ?? 0));
    if (better) byDate.set(date, { ...w, date });
  }
  return [...byDate.values()].sort((a, b) => a.date.localeCompare(b.date));
}

export type PlacementWeight =
  | { grams: number; date: string; ageDays: number; source: 'inflow' | 'breed_standard' | 'fallback'; assumptions: string[] }
  | { grams: null; date: string; ageDays: number; reason: string };

/** The first day birds were placed (else the start date). */
export function placementDate(inputs: CycleInputs): string {
  const end = seriesEnd(inputs);
  const first = [...inputs.days]
    .filter((d) => d.placed > 0 && d.date >= inputs.cycle.startDate && d.date <= end)
    .sort((a, b) => a.date.localeCompare(b.date))[0];
  return first?.date ?? inputs.cycle.startDate;
}

/** The placement weight ADG starts from (see the module doc), with the fallback it used. */
export function placementWeight(inputs: CycleInputs, config: AnalyticsSections, standard: BreedStandard | null): PlacementWeight {
  const date = placementDate(inputs);
  const { ageDays } = agesAt(date, inputs.cycle);
  const end = seriesEnd(inputs);
  const inRange = inputs.days.filter((d) => d.date >= inputs.cycle.startDate && d.date <= end);
  const weighed = inRange.reduce((a, d) => a + d.birdsInflowWeighed, 0);
  const gramsSum = inRange.reduce((a, d) => a + d.inflowWeightGramsSum, 0);
  if (weighed > 0) return { grams: gramsSum / weighed, date, ageDays, source: 'inflow', assumptions: [] };
  const f = config.fallbacks;
  const std = f.placementWeightFromBreedStandard && standard ? standardWeightGrams(standard, ageDays) : null;
  if (std) {
    return {
      grams: std.grams,
      date,
      ageDays,
      source: 'breed_standard',
      assumptions: [
        `placement weight: no inflow gave a weight; ${standard!.name} standard at day ${ageDays} (${fmt(std.grams)} g) used (fallbacks.placementWeightFromBreedStandard)`,
      ],
    };
  }
  if (f.placementWeightGrams !== null && ageDays === 0) {
    return {
      grams: f.placementWeightGrams,
      date,
      ageDays,
      source: 'fallback',
      assumptions: [`placement weight: no inflow gave a weight; ${fmt(f.placementWeightGrams)} g assumed (fallbacks.placementWeightGrams)`],
    };
  }
  const why =
    ageDays > 0 && f.placementWeightGrams !== null
      ? `the birds were ${ageDays} days old at placement and fallbacks.placementWeightGrams stands for day-old birds`
      : 'fallbacks.placementWeightGrams is null';
  return { grams: null, date, ageDays, reason: `no placement weight: no inflow gave averageWeightGrams, no breed standard weight at placement, and ${why}` };
}

export interface Context {
  inputs: CycleInputs;
  config: AnalyticsSections;
  standard: BreedStandard | null;
  weighings: WeighingPoint[];
  placement: PlacementWeight;
  laying: boolean;
  broiler: boolean;
}

export function contextOf(inputs: CycleInputs, config: AnalyticsSections): Context {
  const standard = findBreedStandard(inputs.cycle.breed, inputs.cycle.birdType);
  const end = seriesEnd(inputs);
  return {
    inputs,
    config,
    standard,
    weighings: effectiveWeighings(inputs.weighings).filter((w) => w.date <= end),
    placement: placementWeight(inputs, config, standard),
    laying: isLayingType(inputs.cycle.birdType),
    broiler: inputs.cycle.birdType === 'broiler',
  };
}

/** Σ of a number over rows of the daily series. */
export const sum = (rows: readonly DailyKpis[], pick: (r: DailyKpis) => number): number => rows.reduce((a, r) => a + pick(r), 0);

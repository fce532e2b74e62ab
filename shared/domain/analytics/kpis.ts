/**
 * The KPI engine (pure): every KPI of ../shared/DOMAIN.md per calendar day of a cycle (`dailySeries`)
 * and for the whole cycle (`cycleKpis`), from the cycle's daily ledger totals and weighings plus the
 * analytics configuration. Each KPI is a `Figure`: a rounded value with its unit, or null with the
 * reason it cannot be computed; `assumptions` names every fallback that stood in for a missing input.
 *
 * Conventions (the same as the cycle summary, ../cycle-summary.ts):
 * - Days. The series runs from the cycle's start date to `asOf` (for a closed cycle never past its end
 *   date), one entry per calendar day; a day without a rollup is a day of zeros. Rollups outside that
 *   range are ignored. Age in days is counted from the hatch date when known, else from the start date
 *   (`agesAt` in ../weights.ts); the phase is `phaseOf` of that age.
 * - Birds. alive = placed + transferred in − deaths − culls − sold − transferred out, never below zero.
 *   `aliveStart` is the previous day's closing count, `present` adds the day's placements and transfers
 *   in (birds placed on a day are at risk that day; otherwise the placement day would divide by zero),
 *   `aliveEnd` is the closing count. Housed = placed + transferred in (birds transferred in count as
 *   placed). Daily mortality and every per-bird daily figure (feed and water per bird, expected water,
 *   hen-day) divide by `present`.
 * - Mortality % (cumulative) = deaths ÷ housed × 100 (culls, sales and transfers kept apart).
 *   Livability % = (alive + sold + transferred out) ÷ housed × 100 (birds shipped alive count).
 * - Body weight of a day: the latest weighing on or before it, if at most `fallbacks.carryForwardWeightDays`
 *   old (several weighings on one date: the most confident, then the largest sample); else the breed
 *   standard at that age when `fallbacks.weightFromBreedStandard`; else null.
 * - FCR = cumulative feed kg ÷ (birds alive at the end of the day × body weight kg); on the day the flock
 *   is depleted (no bird left at the end of it) the birds that left alive that day (sold, transferred out)
 *   stand for "birds alive", so a closed cycle keeps its final FCR and EPEF. FCR, corrected FCR and EPEF
 *   are broiler KPIs (layers: feed per kg egg and per dozen).
 * - Corrected FCR = FCR + ratios.correctedFcrPer100Grams × (ratios.correctedFcrReferenceGrams − weight g) ÷ 100.
 * - ADG since placement = (weight − placement weight) ÷ days from the first placement to the weighing's
 *   date. Placement weight: Σ inflow quantity × averageWeightGrams ÷ birds weighed; else the breed
 *   standard at the age at placement (`fallbacks.placementWeightFromBreedStandard`); else
 *   `fallbacks.placementWeightGrams`, which stands for DAY-OLD birds only (not used when the birds were
 *   older at placement); else null. ADG since last weighing = difference of the two latest weighings ÷
 *   the days between them.
 * - EPEF = livability % × weight kg × 100 ÷ (age days × FCR), integer.
 * - Eggs (layers and breeders; for breeders every bird counts as a hen, the ledger has no sex split):
 *   hen-day % = eggs ÷ birds present × 100; hen-housed % (a day) = eggs ÷ housed × 100; hen-housed eggs
 *   = cumulative eggs ÷ housed; egg weight = the day's Σ eggs × weight ÷ eggs weighed, else
 *   `fallbacks.eggWeightGrams`; egg mass g/hen/day = hen-day fraction × egg weight; feed per kg egg =
 *   feed kg ÷ (eggs × egg weight kg); feed per dozen = feed kg × 12 ÷ eggs; cracked/dirty % of the eggs collected.
 * - Water: a day with no water (or no feed) recorded has no per-bird figure and no water:feed ratio (a
 *   zero in the ledger cannot be told from a missing record). Expected intake: broilers age days ×
 *   consumption.broilerWaterMlPerBirdPerAgeDay per bird; laying hens (laying phase) consumption.layerWaterMlPerBirdPerDay
 *   (20 °C figure; no house temperature is known here); pullets in rearing have no expected intake.
 * - Stocking density = birds alive at the end of the day × weight kg ÷ house m² (and birds ÷ m²).
 *
 * Rounding: % 2 decimals, g 1, kg 3, FCR and kg/kg 3, g/day 1, EPEF 0; every figure is computed from
 * unrounded inputs.
 */
import type { AnalyticsSections } from '../../../schemas/analytics-config.js';
import { daysBetween } from '../cycle-summary.js';
import { agesAt, phaseOf, type BirdType, type Confidence, type Phase } from '../weights.js';
import { findBreedStandard, standardWeightGrams, type BreedStandard } from './breed-standards.js';
import { addDays, dateRange, figure, fmt, ledgerByDate, missing } from './figures.js';
import { emptyDay, type CycleInputs, type DayTotals, type Figure, type WeighingPoint } from './inputs.js';

// ---------------------------------------------------------------------------------------------------
// Output shapes

/** A body weight: grams, the date it was measured (the weighing's, or the day's for a standard) and where it came from. */
export interface WeightFigure extends Figure {
  date: string | null;
  source: 'weighing' | 'breed_standard' | null;
}

/** A figure measured on a date (uniformity, CV of a weighing). */
export interface DatedFigure extends Figure {
  date: string | null;
}

export interface DayBirds {
  /** Birds alive at the end of the previous day. */
  aliveStart: number;
  placed: number;
  transferredIn: number;
  /** aliveStart + placed + transferredIn: the divisor of the day's per-bird figures. */
  present: number;
  deaths: number;
  culls: number;
  sold: number;
  transferredOut: number;
  /** Birds alive at the end of the day (never below zero). */
  aliveEnd: number;
  /** Placed + transferred in since the start of the cycle. */
  housed: number;
}

/** Weight and growth figures, of a day (DailyKpis) or of the cycle at its performance date (CycleKpis). */
export interface GrowthFigures {
  /** Body weight, g. */
  bodyWeight: WeightFigure;
  /** Birds alive (at the day's end, or at asOf for the cycle) × body weight, kg. */
  liveWeightKg: Figure;
  /** Cumulative feed ÷ live weight, kg/kg. */
  fcr: Figure;
  /** kg/kg. */
  correctedFcr: Figure;
  /** g/day. */
  adgSincePlacement: Figure;
  /** g/day. */
  adgSinceLastWeighing: Figure;
  /** European Production Efficiency Factor (dimensionless). */
  epef: Figure;
}

export interface DailyKpis extends EggFigures, GrowthFigures {
  date: string;
  /** Days since the cycle's start date (0 on the start date). */
  dayOfCycle: number;
  /** Age in days (from the hatch date when known, else the start date). */
  ageDays: number;
  phase: Phase;
  birds: DayBirds;
  deathsByCause: Record<string, number>;
  /** Deaths ÷ birds present × 100, %. */
  dailyMortalityPct: Figure;
  /** Deaths to date ÷ housed × 100, %. */
  cumulativeMortalityPct: Figure;
  /** (Alive + sold + transferred out) ÷ housed × 100, %. */
  livabilityPct: Figure;
  /** Feed consumed that day, kg. */
  feedKg: Figure;
  /** Feed consumed since the start, kg. */
  cumulativeFeedKg: Figure;
  /** Feed ÷ birds present, g/bird/day. */
  feedGramsPerBird: Figure;
  /** Water that day, l. */
  waterLiters: Figure;
  /** Water ÷ birds present, ml/bird/day. */
  waterMlPerBird: Figure;
  /** Litres of water ÷ kg of feed, same day, l/kg. */
  waterFeedRatio: Figure;
  /** Expected water of the birds present, l. */
  expectedWaterLiters: Figure;
  /** Water ÷ expected water × 100, %. */
  waterPctOfExpected: Figure;
  eggs: { collected: number; cracked: number; dirty: number; doubleYolk: number; cumulative: number };
  /** kg/m². */
  stockingDensityKgPerM2: Figure;
  /** birds/m². */
  stockingDensityBirdsPerM2: Figure;
}

export interface LatestWeighing {
  date: string;
  ageDays: number;
  grams: number;
  method: WeighingPoint['method'];
  confidence: Confidence;
  sampleSize: number | null;
}

export interface PeakProduction {
  /** Highest weekly hen-day % (complete age weeks of the laying period only). */
  henDayPct: Figure;
  /** Age week of the peak (week N = ages 7N−6 … 7N days). */
  ageWeek: number | null;
  from: string | null;
  to: string | null;
}

export interface CycleKpis extends EggFigures, GrowthFigures {
  cycleId: string;
  flockId: string;
  birdType: BirdType;
  breed: string | null;
  breedStandard: { id: string; name: string; status: 'official' | 'approximate' } | null;
  status: 'active' | 'closed';
  startDate: string;
  /** Last day the figures cover. */
  asOf: string;
  /** Days in the series (start to asOf, both included). */
  days: number;
  ageDays: number | null;
  phase: Phase | null;
  /** The day the performance figures (weight, FCR, ADG, EPEF) are of: the last day with birds in the house. */
  performanceDate: string | null;
  birds: { placed: number; transferredIn: number; housed: number; deaths: number; culls: number; sold: number; transferredOut: number; alive: number };
  deathsByCause: Record<string, number>;
  mortalityPct: Figure;
  livabilityPct: Figure;
  feedConsumedKg: Figure;
  feedDeliveredKg: Figure;
  waterLiters: Figure;
  /** Cycle litres ÷ cycle kg, over the days with both water and feed recorded, l/kg. */
  waterFeedRatio: Figure;
  latestWeighing: LatestWeighing | null;
  uniformityPct: DatedFigure;
  cvPct: DatedFigure;
  eggs: { collected: number; cracked: number; dirty: number; doubleYolk: number };
  /** From the first day eggs were collected to asOf. */
  layingPeriod: { from: string; to: string; days: number } | null;
  peakProduction: PeakProduction;
  stockingDensityKgPerM2: Figure;
  stockingDensityBirdsPerM2: Figure;
}

// ---------------------------------------------------------------------------------------------------
// Units and rounding

const PCT = '%';
const D_PCT = 2;
const D_G = 1;
const D_KG = 3;
const D_RATIO = 3;
const LAYING_TYPES: readonly BirdType[] = ['layer', 'breeder'];
const BROILERS_ONLY = 'broilers only (layers: feed per kg egg and per dozen eggs)';
const LAYERS_ONLY = 'layers and breeders only';

export const isLayingType = (t: BirdType): boolean => LAYING_TYPES.includes(t);

// ---------------------------------------------------------------------------------------------------
// Inputs prepared once per cycle

/** The last day the series covers: asOf, or the end date of a closed cycle when earlier. */
export function seriesEnd(inputs: CycleInputs): string {
  const end = inputs.cycle.endDate;
  return end && end < inputs.asOf ? end : inputs.asOf.slice(0, 10);
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

/** The placement weight ADG starts from (see the module note), with the fallback it used. */
export function placementWeight(inputs: CycleInputs, config: AnalyticsSections, standard: BreedStandard | null): PlacementWeight {
  const date = placementDate(inputs);
  const { ageDays } = agesAt(date, inputs.cycle);
  const end = seriesEnd(inputs);
  const inRange = inputs.days.filter((d) => d.date >= inputs.cycle.startDate && d.date <= end);
  const weighed = inRange.reduce((a, d) => a + d.birdsInflowWeighed, 0);
  const sum = inRange.reduce((a, d) => a + d.inflowWeightGramsSum, 0);
  if (weighed > 0) return { grams: sum / weighed, date, ageDays, source: 'inflow', assumptions: [] };
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

interface Context {
  inputs: CycleInputs;
  config: AnalyticsSections;
  standard: BreedStandard | null;
  weighings: WeighingPoint[];
  placement: PlacementWeight;
  laying: boolean;
  broiler: boolean;
}

function contextOf(inputs: CycleInputs, config: AnalyticsSections): Context {
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

// ---------------------------------------------------------------------------------------------------
// Body weight of a day

interface WeightOnDay {
  grams: number | null;
  figure: WeightFigure;
}

/** The latest weighing on or before `date` (any age), or undefined. */
export function latestWeighingOn(weighings: readonly WeighingPoint[], date: string): WeighingPoint | undefined {
  let found: WeighingPoint | undefined;
  for (const w of weighings) if (w.date <= date) found = w;
  return found;
}

function weightOn(ctx: Context, date: string, ageDays: number): WeightOnDay {
  const f = ctx.config.fallbacks;
  const latest = latestWeighingOn(ctx.weighings, date);
  const age = latest ? daysBetween(latest.date, date) : null;
  if (latest && age !== null && age <= f.carryForwardWeightDays) {
    const assumptions =
      age > 0
        ? [
            `weight of the weighing on ${latest.date} (${age} day${age === 1 ? '' : 's'} earlier) carried forward (fallbacks.carryForwardWeightDays = ${f.carryForwardWeightDays})`,
          ]
        : [];
    return { grams: latest.grams, figure: { ...figure(latest.grams, 'g', D_G, assumptions), date: latest.date, source: 'weighing' } };
  }
  const noWeighing = latest
    ? `the latest weighing (${latest.date}) is ${age} days old, more than fallbacks.carryForwardWeightDays (${f.carryForwardWeightDays})`
    : 'no weighing yet';
  if (f.weightFromBreedStandard && ctx.standard) {
    const std = standardWeightGrams(ctx.standard, ageDays);
    if (std) {
      const a = `${noWeighing}: ${ctx.standard.name} standard weight at day ${ageDays}${std.interpolated ? ' (interpolated)' : ''} stands in (fallbacks.weightFromBreedStandard)`;
      return { grams: std.grams, figure: { ...figure(std.grams, 'g', D_G, [a]), date, source: 'breed_standard' } };
    }
  }
  const why = !f.weightFromBreedStandard
    ? ''
    : ctx.standard
      ? `; the ${ctx.standard.name} standard has no weight at day ${ageDays}`
      : `; no breed standard for ${ctx.inputs.cycle.breed ? `breed ${ctx.inputs.cycle.breed}` : 'a flock without a breed'}`;
  return { grams: null, figure: { ...missing('g', `${noWeighing}${why}`), date: null, source: null } };
}

// ---------------------------------------------------------------------------------------------------
// One day

interface Running {
  alive: number;
  housed: number;
  deaths: number;
  sold: number;
  transferredOut: number;
  feedKg: number;
  eggs: number;
}

const START: Running = { alive: 0, housed: 0, deaths: 0, sold: 0, transferredOut: 0, feedKg: 0, eggs: 0 };

function birdsOfDay(day: DayTotals, run: Running): DayBirds {
  const present = run.alive + day.placed + day.transferredIn;
  const aliveEnd = Math.max(0, present - day.deaths - day.culls - day.sold - day.transferredOut);
  return {
    aliveStart: run.alive,
    placed: day.placed,
    transferredIn: day.transferredIn,
    present,
    deaths: day.deaths,
    culls: day.culls,
    sold: day.sold,
    transferredOut: day.transferredOut,
    aliveEnd,
    housed: run.housed + day.placed + day.transferredIn,
  };
}

function advance(run: Running, day: DayTotals, birds: DayBirds): Running {
  return {
    alive: birds.aliveEnd,
    housed: birds.housed,
    deaths: run.deaths + day.deaths,
    sold: run.sold + day.sold,
    transferredOut: run.transferredOut + day.transferredOut,
    feedKg: run.feedKg + day.feedConsumedKg,
    eggs: run.eggs + day.eggsCollected,
  };
}

/** Cumulative mortality %: deaths to date ÷ housed × 100. */
export function mortalityPct(deaths: number, housed: number): Figure {
  return housed > 0 ? figure((deaths / housed) * 100, PCT, D_PCT) : missing(PCT, 'no birds placed yet');
}

/** Livability %: (alive + sold + transferred out) ÷ housed × 100. */
export function livabilityPct(alive: number, sold: number, transferredOut: number, housed: number): Figure {
  return housed > 0 ? figure(((alive + sold + transferredOut) / housed) * 100, PCT, D_PCT) : missing(PCT, 'no birds placed yet');
}

/** Per bird per day: `amount` (kg or l) × 1000 ÷ birds present → g or ml. */
function perBird(amount: number, present: number, unit: string, what: string): Figure {
  if (present <= 0) return missing(unit, 'no birds in the house');
  if (amount <= 0) return missing(unit, `no ${what} recorded that day`);
  return figure((amount * 1000) / present, unit, D_G);
}

/** Litres of water ÷ kg of feed (same day). */
export function waterFeedRatio(waterLiters: number, feedKg: number): Figure {
  if (feedKg <= 0) return missing('l/kg', 'no feed consumption recorded');
  if (waterLiters <= 0) return missing('l/kg', 'no water recorded');
  return figure(waterLiters / feedKg, 'l/kg', 2);
}

/** Expected water intake of the birds present, litres (see the module note), with the assumption it makes. */
function expectedWater(ctx: Context, ageDays: number, phase: Phase, present: number): Figure {
  const c = ctx.config.consumption;
  if (present <= 0) return missing('l', 'no birds in the house');
  if (ctx.broiler) return figure((ageDays * c.broilerWaterMlPerBirdPerAgeDay * present) / 1000, 'l', D_KG);
  if (phase !== 'laying') return missing('l', `no expected water intake for ${phase} birds (the consumption config gives broilers and laying hens)`);
  const breeder = ctx.inputs.cycle.birdType === 'breeder' ? ['breeder: the laying hen figure consumption.layerWaterMlPerBirdPerDay used'] : [];
  return figure((c.layerWaterMlPerBirdPerDay * present) / 1000, 'l', D_KG, breeder);
}

function pctOfExpected(waterLiters: number, expected: Figure): Figure {
  if (expected.value === null) return missing(PCT, expected.reason ?? 'no expected intake');
  if (expected.value <= 0) return missing(PCT, 'expected intake is zero at age 0');
  if (waterLiters <= 0) return missing(PCT, 'no water recorded that day');
  return figure((waterLiters / expected.value) * 100, PCT, D_PCT, expected.assumptions);
}

/** Birds the live weight is measured on: alive at the end of the day, or on the depletion day the birds that left alive. */
function liveWeightBirds(b: DayBirds): { birds: number; assumptions: string[] } {
  if (b.aliveEnd > 0) return { birds: b.aliveEnd, assumptions: [] };
  const shipped = b.sold + b.transferredOut;
  return shipped > 0
    ? { birds: shipped, assumptions: [`depletion day: the ${shipped} birds shipped alive stand for the birds alive`] }
    : { birds: 0, assumptions: [] };
}

function noBirdsReason(b: DayBirds): string {
  if (b.housed === 0) return 'no birds placed yet';
  return 'no live birds: every bird died or was culled';
}

/** FCR = cumulative feed kg ÷ (birds × weight kg). */
export function fcrOf(cumulativeFeedKg: number, birds: number, weightGrams: number | null, weightFig: Figure, extra: readonly string[] = []): Figure {
  if (weightGrams === null) return missing('kg/kg', `no body weight: ${weightFig.reason}`);
  if (cumulativeFeedKg <= 0) return missing('kg/kg', 'no feed consumption recorded');
  return figure(cumulativeFeedKg / ((birds * weightGrams) / 1000), 'kg/kg', D_RATIO, [...(weightFig.assumptions ?? []), ...extra]);
}

/** Corrected FCR = FCR + per100 × (reference − weight g) ÷ 100 (ratios config), from the unrounded FCR. */
export function correctedFcrOf(fcr: number, weightGrams: number, ratios: AnalyticsSections['ratios']): number {
  return fcr + (ratios.correctedFcrPer100Grams * (ratios.correctedFcrReferenceGrams - weightGrams)) / 100;
}

/** EPEF = livability % × weight kg × 100 ÷ (age days × FCR), from unrounded inputs. */
export function epefOf(livabilityPct: number, weightGrams: number, ageDays: number, fcr: number): number {
  return (livabilityPct * (weightGrams / 1000) * 100) / (ageDays * fcr);
}

interface BroilerFigures {
  fcr: Figure;
  correctedFcr: Figure;
  epef: Figure;
}

function broilerFigures(
  ctx: Context,
  b: DayBirds,
  cumFeedKg: number,
  weight: WeightOnDay,
  livability: Figure,
  livabilityRaw: number,
  ageDays: number,
): BroilerFigures {
  const w = weight.grams;
  if (!ctx.broiler) return { fcr: missing('kg/kg', BROILERS_ONLY), correctedFcr: missing('kg/kg', BROILERS_ONLY), epef: missing('', BROILERS_ONLY) };
  const lw = liveWeightBirds(b);
  if (lw.birds === 0) {
    const why = noBirdsReason(b);
    return { fcr: missing('kg/kg', why), correctedFcr: missing('kg/kg', why), epef: missing('', why) };
  }
  const fcr = fcrOf(cumFeedKg, lw.birds, w, weight.figure, lw.assumptions);
  if (fcr.value === null || w === null) {
    return { fcr, correctedFcr: missing('kg/kg', fcr.reason!), epef: missing('', fcr.reason!) };
  }
  const rawFcr = cumFeedKg / ((lw.birds * w) / 1000);
  const correctedFcr = figure(correctedFcrOf(rawFcr, w, ctx.config.ratios), 'kg/kg', D_RATIO, fcr.assumptions);
  const epef =
    ageDays <= 0
      ? missing('', 'EPEF needs an age above 0 days')
      : livability.value === null
        ? missing('', livability.reason!)
        : figure(epefOf(livabilityRaw, w, ageDays, rawFcr), '', 0, fcr.assumptions);
  return { fcr, correctedFcr, epef };
}

/** Birds alive at the end of the day × body weight, kg (0 when no bird is alive). */
function liveWeightKg(aliveEnd: number, weight: WeightOnDay): Figure {
  if (aliveEnd === 0) return figure(0, 'kg', D_KG);
  if (weight.grams === null) return missing('kg', `no body weight: ${weight.figure.reason}`);
  return figure((aliveEnd * weight.grams) / 1000, 'kg', D_KG, weight.figure.assumptions);
}

/** ADG since placement, g/day: (weight − placement weight) ÷ days from placement to the weight's date. */
function adgSincePlacement(ctx: Context, weight: WeightOnDay): Figure {
  const p = ctx.placement;
  if (weight.grams === null || weight.figure.date === null) return missing('g/day', `no body weight: ${weight.figure.reason}`);
  if (p.grams === null) return missing('g/day', p.reason);
  const days = daysBetween(p.date, weight.figure.date);
  if (days <= 0) return missing('g/day', 'the weight was taken on (or before) the placement day');
  return figure((weight.grams - p.grams) / days, 'g/day', D_G, [...(weight.figure.assumptions ?? []), ...p.assumptions]);
}

/** ADG between the two latest weighings on or before `date` (the latest within the carry-forward window), g/day. */
function adgSinceLastWeighing(ctx: Context, date: string): Figure {
  const upto = ctx.weighings.filter((w) => w.date <= date);
  const last = upto.at(-1);
  const prev = upto.at(-2);
  if (!last || !prev) return missing('g/day', 'needs two weighings');
  const age = daysBetween(last.date, date);
  if (age > ctx.config.fallbacks.carryForwardWeightDays) {
    return missing(
      'g/day',
      `the latest weighing (${last.date}) is ${age} days old, more than fallbacks.carryForwardWeightDays (${ctx.config.fallbacks.carryForwardWeightDays})`,
    );
  }
  return figure((last.grams - prev.grams) / daysBetween(prev.date, last.date), 'g/day', D_G);
}

/** Egg weight of a day: Σ eggs × weight ÷ eggs weighed, else the fallback, else null. */
function eggWeightOf(ctx: Context, gramsSum: number, eggsWeighed: number, eggs: number): Figure {
  if (eggs <= 0) return missing('g', 'no eggs collected');
  if (eggsWeighed > 0) return figure(gramsSum / eggsWeighed, 'g', D_G);
  const fallback = ctx.config.fallbacks.eggWeightGrams;
  if (fallback !== null) return figure(fallback, 'g', D_G, [`no egg weight recorded: ${fmt(fallback)} g assumed (fallbacks.eggWeightGrams)`]);
  return missing('g', 'no egg weight recorded and fallbacks.eggWeightGrams is null');
}

/** The egg figures of a day (layers and breeders; null with a reason otherwise). */
export interface EggFigures {
  /** %. */
  henDayPct: Figure;
  /** Eggs that day ÷ hens housed × 100, %. */
  henHousedPct: Figure;
  /** Cumulative eggs ÷ hens housed, eggs/hen. */
  henHousedEggs: Figure;
  /** g. */
  eggWeightGrams: Figure;
  /** g/hen/day. */
  eggMassGrams: Figure;
  /** kg feed/kg egg. */
  feedPerKgEgg: Figure;
  /** kg feed/dozen eggs. */
  feedPerDozenEggs: Figure;
  /** %. */
  crackedPct: Figure;
  /** %. */
  dirtyPct: Figure;
}

interface EggTotals {
  eggs: number;
  cracked: number;
  dirty: number;
  eggWeightGramsSum: number;
  eggsWeighed: number;
  feedKg: number;
  /** Σ birds present over the days (hen-days). */
  henDays: number;
  housed: number;
  /** Days of the period (hen-housed %). */
  days: number;
  cumulativeEggs: number;
}

/** Egg KPIs of a period (one day, or the laying period of a cycle). */
function eggFigures(ctx: Context, t: EggTotals): EggFigures {
  if (!ctx.laying) {
    const m = (unit: string) => missing(unit, LAYERS_ONLY);
    return {
      henDayPct: m(PCT),
      henHousedPct: m(PCT),
      henHousedEggs: m('eggs/hen'),
      eggWeightGrams: m('g'),
      eggMassGrams: m('g/hen/day'),
      feedPerKgEgg: m('kg/kg'),
      feedPerDozenEggs: m('kg/dozen'),
      crackedPct: m(PCT),
      dirtyPct: m(PCT),
    };
  }
  const hens = ctx.inputs.cycle.birdType === 'breeder' ? ['breeder: every bird counted as a hen (the ledger has no sex split)'] : [];
  const henDayPct = t.henDays > 0 ? figure((t.eggs / t.henDays) * 100, PCT, D_PCT, hens) : missing(PCT, 'no hens in the house');
  const henHousedPct = t.housed > 0 && t.days > 0 ? figure((t.eggs / (t.housed * t.days)) * 100, PCT, D_PCT, hens) : missing(PCT, 'no hens housed');
  const henHousedEggs = t.housed > 0 ? figure(t.cumulativeEggs / t.housed, 'eggs/hen', 2, hens) : missing('eggs/hen', 'no hens housed');
  const eggWeightGrams = eggWeightOf(ctx, t.eggWeightGramsSum, t.eggsWeighed, t.eggs);
  const eggW = eggWeightGrams.value === null ? null : t.eggsWeighed > 0 ? t.eggWeightGramsSum / t.eggsWeighed : eggWeightGrams.value;
  const eggMassGrams =
    henDayPct.value === null
      ? missing('g/hen/day', henDayPct.reason!)
      : eggW === null
        ? missing('g/hen/day', eggWeightGrams.reason!)
        : figure((t.eggs / t.henDays) * eggW, 'g/hen/day', 2, [...hens, ...(eggWeightGrams.assumptions ?? [])]);
  const noEggs = 'no eggs collected';
  const noFeed = 'no feed consumption recorded';
  const feedPerKgEgg =
    t.eggs <= 0
      ? missing('kg/kg', noEggs)
      : t.feedKg <= 0
        ? missing('kg/kg', noFeed)
        : eggW === null
          ? missing('kg/kg', eggWeightGrams.reason!)
          : figure(t.feedKg / ((t.eggs * eggW) / 1000), 'kg/kg', D_RATIO, eggWeightGrams.assumptions);
  const feedPerDozenEggs =
    t.eggs <= 0 ? missing('kg/dozen', noEggs) : t.feedKg <= 0 ? missing('kg/dozen', noFeed) : figure((t.feedKg * 12) / t.eggs, 'kg/dozen', D_RATIO);
  const crackedPct = t.eggs > 0 ? figure((t.cracked / t.eggs) * 100, PCT, D_PCT) : missing(PCT, noEggs);
  const dirtyPct = t.eggs > 0 ? figure((t.dirty / t.eggs) * 100, PCT, D_PCT) : missing(PCT, noEggs);
  return { henDayPct, henHousedPct, henHousedEggs, eggWeightGrams, eggMassGrams, feedPerKgEgg, feedPerDozenEggs, crackedPct, dirtyPct };
}

/** Stocking density: live kg ÷ m² and birds ÷ m². */
function stockingDensity(ctx: Context, aliveEnd: number, weight: WeightOnDay): { kg: Figure; birds: Figure } {
  const area = ctx.inputs.cycle.houseAreaM2;
  if (area === null || area <= 0) {
    const why = 'house area unknown (the flock has no house with a usable area)';
    return { kg: missing('kg/m²', why), birds: missing('birds/m²', why) };
  }
  const birds = figure(aliveEnd / area, 'birds/m²', 2);
  if (aliveEnd === 0) return { kg: figure(0, 'kg/m²', 2), birds };
  if (weight.grams === null) return { kg: missing('kg/m²', `no body weight: ${weight.figure.reason}`), birds };
  return { kg: figure((aliveEnd * weight.grams) / 1000 / area, 'kg/m²', 2, weight.figure.assumptions), birds };
}

function dayKpis(ctx: Context, day: DayTotals, run: Running): DailyKpis {
  const { date } = day;
  const { daysInCycle, ageDays } = agesAt(date, ctx.inputs.cycle);
  const phase = phaseOf(ctx.inputs.cycle.birdType, ageDays);
  const b = birdsOfDay(day, run);
  const after = advance(run, day, b);
  const livabilityRaw = b.housed > 0 ? ((b.aliveEnd + after.sold + after.transferredOut) / b.housed) * 100 : 0;
  const livability = livabilityPct(b.aliveEnd, after.sold, after.transferredOut, b.housed);
  const weight = weightOn(ctx, date, ageDays);
  const expected = expectedWater(ctx, ageDays, phase, b.present);
  const broiler = broilerFigures(ctx, b, after.feedKg, weight, livability, livabilityRaw, ageDays);
  const density = stockingDensity(ctx, b.aliveEnd, weight);
  const eggs = eggFigures(ctx, {
    eggs: day.eggsCollected,
    cracked: day.eggsCracked,
    dirty: day.eggsDirty,
    eggWeightGramsSum: day.eggWeightGramsSum,
    eggsWeighed: day.eggsWeighed,
    feedKg: day.feedConsumedKg,
    henDays: b.present,
    housed: b.housed,
    days: 1,
    cumulativeEggs: after.eggs,
  });
  return {
    date,
    dayOfCycle: daysInCycle,
    ageDays,
    phase,
    birds: b,
    deathsByCause: { ...day.deathsByCause },
    dailyMortalityPct: b.present > 0 ? figure((day.deaths / b.present) * 100, PCT, D_PCT) : missing(PCT, 'no birds in the house'),
    cumulativeMortalityPct: mortalityPct(after.deaths, b.housed),
    livabilityPct: livability,
    feedKg: figure(day.feedConsumedKg, 'kg', D_KG),
    cumulativeFeedKg: figure(after.feedKg, 'kg', D_KG),
    feedGramsPerBird: perBird(day.feedConsumedKg, b.present, 'g/bird/day', 'feed consumption'),
    waterLiters: figure(day.waterLiters, 'l', D_KG),
    waterMlPerBird: perBird(day.waterLiters, b.present, 'ml/bird/day', 'water'),
    waterFeedRatio: waterFeedRatio(day.waterLiters, day.feedConsumedKg),
    expectedWaterLiters: expected,
    waterPctOfExpected: pctOfExpected(day.waterLiters, expected),
    bodyWeight: weight.figure,
    liveWeightKg: liveWeightKg(b.aliveEnd, weight),
    ...broiler,
    adgSincePlacement: adgSincePlacement(ctx, weight),
    adgSinceLastWeighing: adgSinceLastWeighing(ctx, date),
    eggs: { collected: day.eggsCollected, cracked: day.eggsCracked, dirty: day.eggsDirty, doubleYolk: day.eggsDoubleYolk, cumulative: after.eggs },
    ...eggs,
    stockingDensityKgPerM2: density.kg,
    stockingDensityBirdsPerM2: density.birds,
  };
}

// ---------------------------------------------------------------------------------------------------
// The series

/** The ledger day of every calendar date from the cycle's start to the series end (zeros where nothing moved). */
export function calendarDays(inputs: CycleInputs): DayTotals[] {
  const byDate = ledgerByDate(inputs.days);
  return dateRange(inputs.cycle.startDate, seriesEnd(inputs)).map((date) => byDate.get(date) ?? emptyDay(date));
}

/** Every KPI per calendar day from the cycle's start to asOf (see the module note). */
export function dailySeries(inputs: CycleInputs, config: AnalyticsSections): DailyKpis[] {
  const ctx = contextOf(inputs, config);
  let run = START;
  return calendarDays(inputs).map((day) => {
    const row = dayKpis(ctx, day, run);
    run = advance(run, day, row.birds);
    return row;
  });
}

// ---------------------------------------------------------------------------------------------------
// The whole cycle

const sum = (rows: readonly DailyKpis[], pick: (r: DailyKpis) => number): number => rows.reduce((a, r) => a + pick(r), 0);

/** Age week of an age in days: week N holds ages 7N−6 … 7N (week 18 ends on day 126); day 0 is week 0. */
export function ageWeekOf(ageDays: number): number {
  return Math.ceil(ageDays / 7);
}

/** Highest weekly hen-day % over the complete age weeks (7 days in the series) of the laying rows. */
function peakProduction(ctx: Context, laying: readonly DailyKpis[]): PeakProduction {
  const none = (reason: string): PeakProduction => ({ henDayPct: missing(PCT, reason), ageWeek: null, from: null, to: null });
  if (!ctx.laying) return none(LAYERS_ONLY);
  const weeks = new Map<number, DailyKpis[]>();
  for (const r of laying) weeks.set(ageWeekOf(r.ageDays), [...(weeks.get(ageWeekOf(r.ageDays)) ?? []), r]);
  let best: { week: number; pct: number; rows: DailyKpis[] } | null = null;
  for (const [week, rows] of weeks) {
    const henDays = sum(rows, (r) => r.birds.present);
    if (rows.length < 7 || henDays === 0) continue;
    const pct = (sum(rows, (r) => r.eggs.collected) / henDays) * 100;
    if (!best || pct > best.pct) best = { week, pct, rows };
  }
  if (!best) return none(laying.length ? 'no complete age week of lay yet' : 'no eggs collected');
  return { henDayPct: figure(best.pct, PCT, D_PCT), ageWeek: best.week, from: best.rows[0]!.date, to: best.rows.at(-1)!.date };
}

function weighingFigure(w: WeighingPoint | undefined, pick: 'uniformityPct' | 'cv'): DatedFigure {
  if (!w) return { ...missing(PCT, 'no weighing yet'), date: null };
  const v = w[pick];
  if (v === null) return { ...missing(PCT, `the latest weighing (${w.date}) has no individual weights`), date: w.date };
  return { ...figure(v, PCT, D_PCT), date: w.date };
}

function cycleWaterFeedRatio(rows: readonly DailyKpis[]): Figure {
  const both = rows.filter((r) => (r.waterLiters.value ?? 0) > 0 && (r.feedKg.value ?? 0) > 0);
  if (!both.length) return missing('l/kg', 'no day with both water and feed recorded');
  return waterFeedRatio(
    sum(both, (r) => r.waterLiters.value!),
    sum(both, (r) => r.feedKg.value!),
  );
}

function causesOf(rows: readonly DailyKpis[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of rows) for (const [cause, n] of Object.entries(r.deathsByCause)) out[cause] = (out[cause] ?? 0) + n;
  return out;
}

/**
 * The whole-cycle figures from the daily series. Counts and totals run to asOf; weight, FCR, ADG and
 * EPEF are those of the last day with birds in the house (`performanceDate`: the depletion day of a
 * depleted flock); stocking density and live weight are those of asOf. The egg figures cover the laying
 * period (from the first day eggs were collected): hen-day % = eggs ÷ Σ birds present, hen-housed % =
 * eggs ÷ (housed × laying days) × 100, feed per kg egg and per dozen from the laying period's feed.
 */
export function cycleKpis(inputs: CycleInputs, config: AnalyticsSections, series?: readonly DailyKpis[]): CycleKpis {
  const ctx = contextOf(inputs, config);
  const rows = series ?? dailySeries(inputs, config);
  const last = rows.at(-1);
  const perf = [...rows].reverse().find((r) => r.birds.present > 0) ?? last;
  const days = calendarDays(inputs);
  const total = (pick: (d: DayTotals) => number) => days.reduce((a, d) => a + pick(d), 0);
  const firstEgg = rows.findIndex((r) => r.eggs.collected > 0);
  const laying = firstEgg < 0 ? [] : rows.slice(firstEgg);
  const housed = last?.birds.housed ?? 0;
  const eggs = eggFigures(ctx, {
    eggs: total((d) => d.eggsCollected),
    cracked: total((d) => d.eggsCracked),
    dirty: total((d) => d.eggsDirty),
    eggWeightGramsSum: total((d) => d.eggWeightGramsSum),
    eggsWeighed: total((d) => d.eggsWeighed),
    feedKg: sum(laying, (r) => r.feedKg.value ?? 0),
    henDays: sum(laying, (r) => r.birds.present),
    housed,
    days: laying.length,
    cumulativeEggs: total((d) => d.eggsCollected),
  });
  const noEggs = (f: Figure): Figure => (ctx.laying && !laying.length ? missing(f.unit, 'no eggs collected') : f);
  const latest = ctx.weighings.at(-1);
  const noDays = `the cycle has no day up to ${inputs.asOf}`;
  const pick = (r: DailyKpis | undefined, f: (r: DailyKpis) => Figure, unit: string): Figure => (r ? f(r) : missing(unit, noDays));
  const perfWeight: WeightFigure = perf ? perf.bodyWeight : { ...missing('g', noDays), date: null, source: null };
  return {
    cycleId: inputs.cycle.cycleId,
    flockId: inputs.cycle.flockId,
    birdType: inputs.cycle.birdType,
    breed: inputs.cycle.breed,
    breedStandard: ctx.standard ? { id: ctx.standard.id, name: ctx.standard.name, status: ctx.standard.status } : null,
    status: inputs.cycle.status,
    startDate: inputs.cycle.startDate,
    asOf: seriesEnd(inputs),
    days: rows.length,
    ageDays: last?.ageDays ?? null,
    phase: last?.phase ?? null,
    performanceDate: perf?.date ?? null,
    birds: {
      placed: total((d) => d.placed),
      transferredIn: total((d) => d.transferredIn),
      housed,
      deaths: total((d) => d.deaths),
      culls: total((d) => d.culls),
      sold: total((d) => d.sold),
      transferredOut: total((d) => d.transferredOut),
      alive: last?.birds.aliveEnd ?? 0,
    },
    deathsByCause: causesOf(rows),
    mortalityPct: pick(last, (r) => r.cumulativeMortalityPct, PCT),
    livabilityPct: pick(last, (r) => r.livabilityPct, PCT),
    feedConsumedKg: figure(
      total((d) => d.feedConsumedKg),
      'kg',
      D_KG,
    ),
    feedDeliveredKg: figure(
      total((d) => d.feedDeliveredKg),
      'kg',
      D_KG,
    ),
    waterLiters: figure(
      total((d) => d.waterLiters),
      'l',
      D_KG,
    ),
    waterFeedRatio: cycleWaterFeedRatio(rows),
    bodyWeight: perfWeight,
    liveWeightKg: pick(last, (r) => r.liveWeightKg, 'kg'),
    fcr: pick(perf, (r) => r.fcr, 'kg/kg'),
    correctedFcr: pick(perf, (r) => r.correctedFcr, 'kg/kg'),
    adgSincePlacement: pick(perf, (r) => r.adgSincePlacement, 'g/day'),
    adgSinceLastWeighing: pick(perf, (r) => r.adgSinceLastWeighing, 'g/day'),
    epef: pick(perf, (r) => r.epef, ''),
    latestWeighing: latest
      ? {
          date: latest.date,
          ageDays: agesAt(latest.date, inputs.cycle).ageDays,
          grams: latest.grams,
          method: latest.method,
          confidence: latest.confidence,
          sampleSize: latest.sampleSize,
        }
      : null,
    uniformityPct: weighingFigure(latest, 'uniformityPct'),
    cvPct: weighingFigure(latest, 'cv'),
    eggs: {
      collected: total((d) => d.eggsCollected),
      cracked: total((d) => d.eggsCracked),
      dirty: total((d) => d.eggsDirty),
      doubleYolk: total((d) => d.eggsDoubleYolk),
    },
    layingPeriod: laying.length ? { from: laying[0]!.date, to: laying.at(-1)!.date, days: laying.length } : null,
    henDayPct: noEggs(eggs.henDayPct),
    henHousedPct: noEggs(eggs.henHousedPct),
    henHousedEggs: eggs.henHousedEggs,
    peakProduction: peakProduction(ctx, laying),
    eggWeightGrams: eggs.eggWeightGrams,
    eggMassGrams: noEggs(eggs.eggMassGrams),
    feedPerKgEgg: eggs.feedPerKgEgg,
    feedPerDozenEggs: eggs.feedPerDozenEggs,
    crackedPct: eggs.crackedPct,
    dirtyPct: eggs.dirtyPct,
    stockingDensityKgPerM2: pick(last, (r) => r.stockingDensityKgPerM2, 'kg/m²'),
    stockingDensityBirdsPerM2: pick(last, (r) => r.stockingDensityBirdsPerM2, 'birds/m²'),
  };
}

/** Calendar date of an age in days (day 0 = the hatch date when known, else the start date). */
export function dateOfAge(cycle: CycleInputs['cycle'], ageDays: number): string {
  return addDays(cycle.hatchDate ?? cycle.startDate, ageDays);
}

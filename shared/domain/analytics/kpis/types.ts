/**
 * The KPI engine (pure): every KPI of docs/domain.md per calendar day of a cycle (`dailySeries`,
 * ./daily.ts) and for the whole cycle (`cycleKpis`, ./cycle.ts), from the cycle's daily ledger totals and
 * weighings plus the analytics configuration. Each KPI is a `Figure`: a rounded value with its unit, or
 * null with the reason it cannot be computed; `assumptions` names every fallback that stood in for a
 * missing input.
 *
 * This module: the output shapes. The conventions (the same as the cycle summary, ../../cycle-summary.ts)
 * are written where they are applied: days and the series (./daily.ts), birds, mortality and livability
 * (./birds.ts), body weight, ADG, uniformity and stocking density (./weight.ts), water and feed per bird
 * (./feed-water.ts), FCR, corrected FCR and EPEF (./broiler.ts), eggs (./eggs.ts), units, rounding and
 * the placement weight (./context.ts).
 */
import type { FigureSource } from '../../iot/house-figures.js';
import type { BirdType, Confidence, Phase } from '../../weights.js';
import type { Figure, WeighingPoint } from '../inputs.js';

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
  /** Where the day's water and feed come from: recorded movements (manual), the house's meters and silos (sensor), or none. */
  sources: { waterLiters: FigureSource | null; feedKg: FigureSource | null };
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

/**
 * Flock analytics (pure): the KPIs of a cycle computed from the running counters kept on its record
 * (../db/cycles.ts), so a flock's history, a comparison of flocks and a farm ranking read one item per
 * cycle and never a movement. The layer figures that count days (hen-day, egg mass, feed per kg egg, per
 * egg and per dozen: the laying period's days that are over or have their eggs) are the cycle's layer
 * figures (./analytics/layer-figures.ts) from its daily rollups, passed in by the caller.
 * Conventions (housed, weight, FCR, ADG, EPEF, eggs): docs/analytics-reports.md ("Flock analytics from
 * the running counters").
 */
import type { CycleCounters } from './cycle-summary.js';
import { ageDays as cycleAgeDays, daysBetween, isoDate } from '../platform/calendar.js';
import { findBreedStandard, standardWeightGrams } from './analytics/breed-standards.js';
import { figure, fmt, missing } from './analytics/figures.js';
import type { Figure } from './analytics/inputs.js';
import type { CycleLayerFigures } from './analytics/layer-figures.js';
import { livabilityPct, mortalityPct } from './analytics/kpis/birds.js';
import { epefOf, fcrOf } from './analytics/kpis/broiler.js';
import { INDEX, isLayingType } from './analytics/kpis/context.js';
import { weightOfDay } from './analytics/kpis/weight.js';
import { waterFeedRatio } from './analytics/kpis/feed-water.js';
import type { DatedFigure } from './analytics/kpis/types.js';
import { round, type BirdType } from './weights.js';
import type { AnalyticsSections } from '../../schemas/analytics-config.js';
import { ageOn, ageOrigin, type AgeBasis } from './age.js';

// ---------------------------------------------------------------------------------------------------
// The KPIs of one cycle

/** What the summary reads from a cycle record (../db/cycles.ts CycleRecord satisfies it). */
export interface CycleSummaryInput extends CycleCounters {
  birdType: BirdType;
  startDate: string;
  endDate: string | null;
  hatchDate: string | null;
  /** The first placement (../age.ts); absent or null: the start date stands in. */
  placedOn?: string | null;
  latestWeight: { date: string; grams: number } | null;
}

/** The flock facts the KPIs need (breed for the standard: the placement weight, and the weight FCR and EPEF fall back to). */
export interface FlockFacts {
  birdType: BirdType;
  breed: string | null;
  hatchDate: string | null;
}

export interface CycleSummaryKpis {
  /** Placed + transferred in, birds. */
  birdsHoused: Figure;
  /** birds. */
  birdsAlive: Figure;
  /** %. */
  mortalityPct: Figure;
  /** %. */
  livabilityPct: Figure;
  /** kg. */
  feedConsumedKg: Figure;
  /** kg/kg (broilers). */
  fcr: Figure;
  /** The latest weighing, g, with its date. */
  avgWeight: DatedFigure;
  /** days, at the end date (closed cycles) or today. */
  ageDays: Figure;
  /** ADG since placement, g/day. */
  adg: Figure;
  /** European Production Efficiency Factor (broilers). */
  epef: Figure;
  /** eggs. */
  eggsCollected: Figure;
  /** Eggs ÷ hens housed, eggs/hen (layers and breeders). */
  henHousedEggs: Figure;
  /** Laying-period feed ÷ eggs, g/egg (layers and breeders). */
  feedPerEgg: Figure;
  /** Laying-period feed × 12 ÷ eggs, kg/dozen (layers and breeders). */
  feedPerDozenEggs: Figure;
  /** Water ÷ feed, l/kg. */
  waterFeedRatio: Figure;
  /** Eggs ÷ hen-days of the laying period, % (layers and breeders). */
  henDayPct: Figure;
  /** Hen-day fraction × egg weight, g/hen/day (layers and breeders). */
  eggMassGrams: Figure;
  /** Laying-period feed ÷ egg mass, kg/kg (layers and breeders). */
  feedPerKgEgg: Figure;
}

export type KpiName = keyof CycleSummaryKpis;

/** The analytics configuration's weight fallbacks (completed with the defaults). */
export type WeightFallbacks = AnalyticsSections['fallbacks'];

export const BROILERS_ONLY = 'broilers only (layers: feed per egg and per dozen eggs)';
export const LAYERS_ONLY = 'layers and breeders only';
const NO_BIRDS = 'no birds placed yet';
const NO_LIVE_BIRDS = 'no live birds: every bird died or was culled';

/** The date ADG since placement counts from: the first placement, else the start date (no placement recorded). */
const placedOnOf = (c: { startDate: string; placedOn?: string | null }) => c.placedOn ?? c.startDate;

/** The placement weight ADG starts from: the breed standard at the age at placement, or why there is none. */
export function placementWeightOf(flock: FlockFacts, birdType: BirdType, cycle: AgeBasis): { grams: number; note: string } | { grams: null; reason: string } {
  const standard = findBreedStandard(flock.breed, birdType);
  const placed = placedOnOf(cycle);
  const age = ageOn(cycle, placed);
  if (!standard) {
    return {
      grams: null,
      reason: `no placement weight: the cycle record keeps no inflow weights and there is no breed standard for ${flock.breed ? `breed ${flock.breed}` : 'a flock without a breed'}`,
    };
  }
  const std = standardWeightGrams(standard, age);
  if (!std)
    return {
      grams: null,
      reason: `no placement weight: the cycle record keeps no inflow weights and the ${standard.name} standard has no weight at day ${age}`,
    };
  return {
    grams: std.grams,
    note: `placement weight: ${standard.name} standard at day ${age} (${fmt(round(std.grams, 1))} g) on ${cycle.placedOn ? `the first placement ${placed}` : 'the start date'}; the cycle record keeps no inflow weights`,
  };
}

/** The reason of a layer figure whose cycle's days were not read (a ranking by a KPI of the counters reads none). */
export const DAYS_NOT_READ = 'not computed: the cycle’s daily rollups were not read for this answer';

/**
 * Every KPI the cycle's running counters give (see the module note), each a Figure: a rounded value with
 * its unit, or null with the reason. `fallbacks` (the analytics configuration's) decide the weight FCR and
 * EPEF use; `today` dates an open cycle; `layer`: the cycle's layer figures (layers and breeders).
 */
export function cycleSummaryKpis(
  c: CycleSummaryInput,
  flock: FlockFacts,
  fallbacks: WeightFallbacks,
  today: Date,
  layer: CycleLayerFigures | null = null,
): CycleSummaryKpis {
  const birdType = c.birdType ?? flock.birdType;
  const broiler = birdType === 'broiler';
  const laying = isLayingType(birdType);
  const ageBasis: AgeBasis = { hatchDate: c.hatchDate ?? flock.hatchDate, placedOn: c.placedOn ?? null, startDate: c.startDate };
  const housed = c.placed + c.transferredIn;
  const asOf = c.endDate ?? isoDate(today);
  const age = cycleAgeDays(ageOrigin(ageBasis).date, c.startDate, c.endDate, today);
  const feed = c.feedConsumedKg;
  const eggs = c.eggsCollected;

  const w = c.latestWeight;
  const avgWeight: DatedFigure = w ? { ...figure(w.grams, 'g', 1), date: w.date } : { ...missing('g', 'no weighing yet'), date: null };
  const standard = findBreedStandard(flock.breed, birdType);
  const latest = w && w.date <= asOf ? w : null;

  // FCR and EPEF (broilers)
  let fcr: Figure;
  let epef: Figure;
  const livRaw = housed > 0 ? ((c.alive + c.sold + c.transferredOut) / housed) * 100 : null;
  if (!broiler) {
    fcr = missing('kg/kg', BROILERS_ONLY);
    epef = missing(INDEX, BROILERS_ONLY);
  } else if (housed === 0) {
    fcr = missing('kg/kg', NO_BIRDS);
    epef = missing(INDEX, NO_BIRDS);
  } else {
    const shipped = c.sold + c.transferredOut;
    const birds = c.alive > 0 ? c.alive : shipped;
    if (birds === 0) {
      fcr = missing('kg/kg', NO_LIVE_BIRDS);
      epef = missing(INDEX, NO_LIVE_BIRDS);
    } else {
      const depleted = c.alive > 0 ? [] : [`depleted: the ${shipped} birds shipped alive stand for the birds alive`];
      const weight = weightOfDay({ latest, standard, breed: flock.breed, fallbacks }, asOf, age);
      const grams = weight.grams;
      fcr = fcrOf(feed, birds, grams, weight.figure, depleted);
      if (fcr.value === null || grams === null) epef = missing(INDEX, fcr.reason!);
      else if (age <= 0) epef = missing(INDEX, 'EPEF needs an age above 0 days');
      else epef = figure(epefOf(livRaw!, grams, age, feed / ((birds * grams) / 1000)), INDEX, 0, fcr.assumptions);
    }
  }

  // ADG since placement
  let adg: Figure;
  if (!w) adg = missing('g/day', 'no weighing yet');
  else {
    const p = placementWeightOf(flock, birdType, ageBasis);
    const days = daysBetween(placedOnOf(c), w.date);
    if (p.grams === null) adg = missing('g/day', p.reason);
    else if (days <= 0) adg = missing('g/day', 'the weight was taken on (or before) the placement day');
    else adg = figure((w.grams - p.grams) / days, 'g/day', 1, [p.note]);
  }

  // Eggs (layers and breeders)
  const eggFigure = (unit: string, compute: () => Figure): Figure => (laying ? compute() : missing(unit, LAYERS_ONLY));
  const henHousedEggs = eggFigure('eggs/hen', () => (housed > 0 ? figure(eggs / housed, 'eggs/hen', 2) : missing('eggs/hen', 'no hens housed')));
  const fromDays = (unit: string, pick: (l: CycleLayerFigures) => Figure) => eggFigure(unit, () => (layer ? pick(layer) : missing(unit, DAYS_NOT_READ)));

  return {
    birdsHoused: figure(housed, 'birds', 0),
    birdsAlive: figure(c.alive, 'birds', 0),
    mortalityPct: mortalityPct(c.deaths, housed),
    livabilityPct: livabilityPct(c.alive, c.sold, c.transferredOut, housed),
    feedConsumedKg: figure(feed, 'kg', 3),
    fcr,
    avgWeight,
    ageDays: figure(age, 'days', 0),
    adg,
    epef,
    eggsCollected: figure(eggs, 'eggs', 0),
    henHousedEggs,
    feedPerEgg: fromDays('g/egg', (l) => l.feedPerEgg),
    feedPerDozenEggs: fromDays('kg/dozen', (l) => l.feedPerDozenEggs),
    waterFeedRatio: waterFeedRatio(c.waterLiters, feed),
    henDayPct: fromDays('%', (l) => l.henDayPct),
    eggMassGrams: fromDays('g/hen/day', (l) => l.eggMassGrams),
    feedPerKgEgg: fromDays('kg/kg', (l) => l.feedPerKgEgg),
  };
}

/** The KPIs the cycle summary (GET …/cycles/{cycleId}) and the dashboard's flock cards show: the same Figures as above. */
export const HEADLINE_KPIS = ['mortalityPct', 'livabilityPct', 'fcr', 'epef'] as const;
export type HeadlineKpis = Pick<CycleSummaryKpis, (typeof HEADLINE_KPIS)[number]>;

const headlineOf = (k: CycleSummaryKpis): HeadlineKpis => ({ mortalityPct: k.mortalityPct, livabilityPct: k.livabilityPct, fcr: k.fcr, epef: k.epef });

/**
 * The headline KPIs of a cycle record, with the flock's breed and the configuration's fallbacks (the weight
 * FCR and EPEF use: see the module note); without a cycle, why.
 */
export function headlineKpis(
  c: CycleSummaryInput | null,
  basis: { breed: string | null; fallbacks: WeightFallbacks },
  today: Date,
  noCycle = 'no active cycle',
): HeadlineKpis {
  return headlineOf(c ? cycleSummaryKpis(c, { birdType: c.birdType, breed: basis.breed, hatchDate: c.hatchDate }, basis.fallbacks, today) : noKpis(noCycle));
}

/** Every KPI null with the same reason (an item without a cycle). */
export function noKpis(reason: string): CycleSummaryKpis {
  const m = (unit: string) => missing(unit, reason);
  return {
    birdsHoused: m('birds'),
    birdsAlive: m('birds'),
    mortalityPct: m('%'),
    livabilityPct: m('%'),
    feedConsumedKg: m('kg'),
    fcr: m('kg/kg'),
    avgWeight: { ...m('g'), date: null },
    ageDays: m('days'),
    adg: m('g/day'),
    epef: m(INDEX),
    eggsCollected: m('eggs'),
    henHousedEggs: m('eggs/hen'),
    feedPerEgg: m('g/egg'),
    feedPerDozenEggs: m('kg/dozen'),
    waterFeedRatio: m('l/kg'),
    henDayPct: m('%'),
    eggMassGrams: m('g/hen/day'),
    feedPerKgEgg: m('kg/kg'),
  };
}

/**
 * The layer figures, each defined once (docs/domain.md, "Layer figures: one definition each"): hen-day %,
 * hen-housed %, egg weight, egg mass, feed per kg egg, feed per dozen eggs and per egg, the double-yolk
 * rate. Every answer that gives one computes it here: the daily and cycle KPIs, the breed comparison, the
 * egg-quality trend, the threshold breaches and the recommendations built on them, the production
 * forecast, flock analytics and the dashboard's layer cards.
 *
 * Which days count. The laying period starts on the cycle's first day with eggs collected. A day of it
 * counts in a rate when it is over (before the farm-local today) or has its eggs recorded: today, before
 * its collection is recorded, is a day without its record, missing and not a day of zero eggs. Eggs,
 * hen-days and feed are summed over the days that count.
 *
 * - hen-day % = eggs ÷ Σ hens present × 100 (hens present: alive at the start of the day + that day's
 *   arrivals; breeders: every bird);
 * - hen-housed % = eggs ÷ (hens housed × days) × 100; hen-housed eggs = eggs to date ÷ hens housed;
 * - egg weight = Σ eggs × weight ÷ eggs weighed, else `fallbacks.eggWeightGrams`;
 * - egg mass g/hen/day = hen-day fraction × egg weight;
 * - feed per kg egg = feed kg ÷ (eggs × egg weight kg); per dozen = feed kg × 12 ÷ eggs; per egg = feed g ÷ eggs;
 * - double-yolk % = double yolks ÷ the eggs of the days that recorded double yolks (the graded eggs: a
 *   farm grades on some days only, and the eggs of the other days were never looked at).
 */
import type { BirdType } from '../weights.js';
import { figure, fmt, missing } from './figures.js';
import type { CycleFacts, CycleInputs, DayTotals, Figure } from './inputs.js';
import { advance, birdsOfDay, START } from './kpis/birds.js';
import { asOfFor, calendarDays, D_G, D_PCT, D_RATIO, isLayingType, LAYERS_ONLY, PCT } from './kpis/context.js';

export const NO_EGGS = 'no eggs collected';
export const BEFORE_LAY = 'before the laying period (it starts on the first day with eggs collected)';
export const NOT_OVER = 'the day is not over and its eggs are not recorded yet';
const NO_FEED = 'no feed consumption recorded';
const BREEDER = 'breeder: every bird counted as a hen (the ledger has no sex split)';

// ---------------------------------------------------------------------------------------------------
// Which days count

export interface EggCalendar {
  /** The first day with eggs collected: the laying period starts there (null: no egg yet). */
  firstEggDate: string | null;
  /** The farm-local today: a day from it on is not over (null: every day given is over). */
  today: string | null;
}

/** The egg calendar of a cycle's days (any order, a date may repeat). */
export function eggCalendar(days: ReadonlyArray<Pick<DayTotals, 'date' | 'eggsCollected'>>, today: string | null | undefined): EggCalendar {
  let first: string | null = null;
  for (const d of days) if (d.eggsCollected > 0 && (first === null || d.date < first)) first = d.date;
  return { firstEggDate: first, today: today ?? null };
}

/** Why a day does not count in the egg rates (null: it counts). */
export function eggDayExclusion(cal: EggCalendar, date: string, eggs: number): string | null {
  if (cal.firstEggDate === null) return NO_EGGS;
  if (date < cal.firstEggDate) return BEFORE_LAY;
  if (cal.today !== null && date >= cal.today && eggs <= 0) return NOT_OVER;
  return null;
}

export const countsForEggs = (cal: EggCalendar, date: string, eggs: number): boolean => eggDayExclusion(cal, date, eggs) === null;

// ---------------------------------------------------------------------------------------------------
// The figures of a set of days

/** One day as the layer figures read it. */
export interface LayerDay {
  date: string;
  /** Hens present (null: unknown). */
  hens: number | null;
  eggs: number;
  feedKg: number;
  doubleYolk: number;
  eggWeightGramsSum: number;
  eggsWeighed: number;
}

export const layerDayOf = (d: DayTotals, hens: number | null): LayerDay => ({
  date: d.date,
  hens,
  eggs: d.eggsCollected,
  feedKg: d.feedConsumedKg,
  doubleYolk: d.eggsDoubleYolk,
  eggWeightGramsSum: d.eggWeightGramsSum,
  eggsWeighed: d.eggsWeighed,
});

export interface LayerBasis {
  calendar: EggCalendar;
  birdType: BirdType;
  /** Hens housed (placed + transferred in), for hen-housed %. */
  housed: number;
  /** `fallbacks.eggWeightGrams` (null: no egg weight without a weighing). */
  eggWeightFallback: number | null;
  /** The words of a missing figure where the caller has its own (the egg-quality trend speaks of periods). */
  reasons?: { noEggs?: string; unknownHens?: string; noHens?: string; noWeight?: string };
}

export interface LayerFigures {
  /** The days that count (see the module note): first and last, and how many. */
  counted: { from: string; to: string; days: number } | null;
  /** Σ hens present over the days that count (null: a day of them has no hen count). */
  henDays: number | null;
  henDayPct: Figure;
  henHousedPct: Figure;
  eggWeightGrams: Figure;
  eggMassGrams: Figure;
  feedPerKgEgg: Figure;
  feedPerDozenEggs: Figure;
  feedPerEgg: Figure;
  doubleYolkPct: Figure;
}

const total = (days: readonly LayerDay[], pick: (d: LayerDay) => number) => days.reduce((a, d) => a + pick(d), 0);

/** Eggs per hen-day over the days given (unrounded; × 100 = hen-day %): null when a day has no hen count or no hen was present. */
export function henDayRatio(days: readonly LayerDay[]): number | null {
  if (days.some((d) => d.hens === null)) return null;
  const henDays = total(days, (d) => d.hens!);
  return henDays > 0 ? total(days, (d) => d.eggs) / henDays : null;
}

function notLaying(): LayerFigures {
  const m = (unit: string) => missing(unit, LAYERS_ONLY);
  return {
    counted: null,
    henDays: null,
    henDayPct: m(PCT),
    henHousedPct: m(PCT),
    eggWeightGrams: m('g'),
    eggMassGrams: m('g/hen/day'),
    feedPerKgEgg: m('kg/kg'),
    feedPerDozenEggs: m('kg/dozen'),
    feedPerEgg: m('g/egg'),
    doubleYolkPct: m(PCT),
  };
}

/** The layer figures of the days given (a day, a week, a cycle), counting the days the calendar counts. */
export function layerFigures(days: readonly LayerDay[], basis: LayerBasis): LayerFigures {
  if (!isLayingType(basis.birdType)) return notLaying();
  const r = basis.reasons ?? {};
  const counted = days.filter((d) => countsForEggs(basis.calendar, d.date, d.eggs));
  const why = counted.length
    ? null
    : (days.map((d) => eggDayExclusion(basis.calendar, d.date, d.eggs)).find((x) => x !== null && x !== NO_EGGS) ?? r.noEggs ?? NO_EGGS);
  const hens = basis.birdType === 'breeder' ? [BREEDER] : [];
  const eggs = total(counted, (d) => d.eggs);
  const feedKg = total(counted, (d) => d.feedKg);
  const henDays = counted.some((d) => d.hens === null) ? null : total(counted, (d) => d.hens!);
  const ratio = henDayRatio(counted);
  const noEggs = why ?? r.noEggs ?? NO_EGGS;

  const henDayPct =
    why !== null
      ? missing(PCT, why)
      : henDays === null
        ? missing(PCT, r.unknownHens ?? 'hens present unknown on a day')
        : ratio === null
          ? missing(PCT, r.noHens ?? 'no hens in the house')
          : figure(ratio * 100, PCT, D_PCT, hens);
  const henHousedPct =
    why !== null
      ? missing(PCT, why)
      : basis.housed > 0
        ? figure((eggs / (basis.housed * counted.length)) * 100, PCT, D_PCT, hens)
        : missing(PCT, 'no hens housed');

  const weighed = total(counted, (d) => d.eggsWeighed);
  const fallback = basis.eggWeightFallback;
  const eggWeightGrams =
    eggs <= 0
      ? missing('g', noEggs)
      : weighed > 0
        ? figure(total(counted, (d) => d.eggWeightGramsSum) / weighed, 'g', D_G)
        : fallback !== null
          ? figure(fallback, 'g', D_G, [`no egg weight recorded: ${fmt(fallback)} g assumed (fallbacks.eggWeightGrams)`])
          : missing('g', r.noWeight ?? 'no egg weight recorded and fallbacks.eggWeightGrams is null');
  // from unrounded inputs: the weighed mean, else the fallback as given
  const eggW = eggWeightGrams.value === null ? null : weighed > 0 ? total(counted, (d) => d.eggWeightGramsSum) / weighed : fallback;
  const eggMassGrams =
    henDayPct.value === null || ratio === null
      ? missing('g/hen/day', henDayPct.reason ?? noEggs)
      : eggW === null
        ? missing('g/hen/day', eggWeightGrams.reason!)
        : figure(ratio * eggW, 'g/hen/day', 2, [...hens, ...(eggWeightGrams.assumptions ?? [])]);

  const perEggs = (unit: string, value: () => number, digits: number, assumptions: readonly string[] = []): Figure =>
    eggs <= 0 ? missing(unit, noEggs) : feedKg <= 0 ? missing(unit, NO_FEED) : figure(value(), unit, digits, assumptions);
  const feedPerKgEgg =
    eggs > 0 && feedKg > 0 && eggW === null
      ? missing('kg/kg', eggWeightGrams.reason!)
      : perEggs('kg/kg', () => feedKg / ((eggs * eggW!) / 1000), D_RATIO, eggWeightGrams.assumptions);

  const graded = counted.filter((d) => d.doubleYolk > 0);
  const gradedEggs = total(graded, (d) => d.eggs);
  const doubleYolkPct =
    eggs <= 0
      ? missing(PCT, noEggs)
      : gradedEggs > 0
        ? figure((total(graded, (d) => d.doubleYolk) / gradedEggs) * 100, PCT, D_PCT)
        : missing(PCT, 'no double yolks recorded: no day of it was graded');

  return {
    counted: counted.length ? { from: counted[0]!.date, to: counted.at(-1)!.date, days: counted.length } : null,
    henDays,
    henDayPct,
    henHousedPct,
    eggWeightGrams,
    eggMassGrams,
    feedPerKgEgg,
    feedPerDozenEggs: perEggs('kg/dozen', () => (feedKg * 12) / eggs, D_RATIO),
    feedPerEgg: perEggs('g/egg', () => (feedKg * 1000) / eggs, D_G),
    doubleYolkPct,
  };
}

/** Eggs to date ÷ hens housed (a count per hen, not a rate of days). */
export function henHousedEggsOf(eggs: number, housed: number, birdType: BirdType): Figure {
  if (!isLayingType(birdType)) return missing('eggs/hen', LAYERS_ONLY);
  return housed > 0 ? figure(eggs / housed, 'eggs/hen', 2, birdType === 'breeder' ? [BREEDER] : []) : missing('eggs/hen', 'no hens housed');
}

// ---------------------------------------------------------------------------------------------------
// A cycle

/** What a cycle's layer figures are computed from: its days (the rollups), how far they run and the farm's today. */
export type LayerCycleInputs = Pick<CycleInputs, 'days' | 'asOf' | 'today'> & { cycle: Pick<CycleFacts, 'startDate' | 'endDate' | 'birdType'> };

export interface CycleLayerFigures extends LayerFigures {
  henHousedEggs: Figure;
  calendar: EggCalendar;
}

/**
 * The layer figures of a cycle, from its start to asOf: every calendar day (zeros where nothing moved),
 * the hens present of each by the ledger's bird counts (./kpis/birds.ts, as the daily series counts them).
 */
export function cycleLayerFigures(inputs: LayerCycleInputs, eggWeightFallback: number | null): CycleLayerFigures {
  const days = calendarDays(inputs);
  const calendar = eggCalendar(days, inputs.today);
  let run = START;
  const layer = days.map((d) => {
    const birds = birdsOfDay(d, run);
    run = advance(run, d, birds);
    return layerDayOf(d, birds.present);
  });
  const { birdType } = inputs.cycle;
  return {
    ...layerFigures(layer, { calendar, birdType, housed: run.housed, eggWeightFallback }),
    henHousedEggs: henHousedEggsOf(run.eggs, run.housed, birdType),
    calendar,
  };
}

/** The layer figures of a cycle on the farm's today, its days running to where the cycle analytics end them (`asOfFor`). */
export function cycleLayerFiguresOn(
  cycle: LayerCycleInputs['cycle'],
  days: readonly DayTotals[],
  today: string,
  eggWeightFallback: number | null,
): CycleLayerFigures {
  return cycleLayerFigures({ cycle, days: [...days], asOf: asOfFor(cycle, today), today }, eggWeightFallback);
}

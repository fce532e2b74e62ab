/**
 * The egg KPIs (layers and breeders; for breeders every bird counts as a hen, the ledger has no sex split)
 * of a period (a day, or the laying period of a cycle), and the peak of production.
 *
 * - hen-day % = eggs ÷ birds present × 100; hen-housed % (a day) = eggs ÷ housed × 100; hen-housed eggs
 *   = cumulative eggs ÷ housed; egg weight = the day's Σ eggs × weight ÷ eggs weighed, else
 *   `fallbacks.eggWeightGrams`; egg mass g/hen/day = hen-day fraction × egg weight; feed per kg egg =
 *   feed kg ÷ (eggs × egg weight kg); feed per dozen = feed kg × 12 ÷ eggs; cracked/dirty % of the eggs collected.
 */
import { figure, fmt, missing } from '../figures.js';
import type { Figure } from '../inputs.js';
import { D_G, D_PCT, D_RATIO, LAYERS_ONLY, PCT, sum, type Context } from './context.js';
import type { DailyKpis, EggFigures, PeakProduction } from './types.js';

/** Egg weight of a day: Σ eggs × weight ÷ eggs weighed, else the fallback, else null. */
function eggWeightOf(ctx: Context, gramsSum: number, eggsWeighed: number, eggs: number): Figure {
  if (eggs <= 0) return missing('g', 'no eggs collected');
  if (eggsWeighed > 0) return figure(gramsSum / eggsWeighed, 'g', D_G);
  const fallback = ctx.config.fallbacks.eggWeightGrams;
  if (fallback !== null) return figure(fallback, 'g', D_G, [`no egg weight recorded: ${fmt(fallback)} g assumed (fallbacks.eggWeightGrams)`]);
  return missing('g', 'no egg weight recorded and fallbacks.eggWeightGrams is null');
}

export interface EggTotals {
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
export function eggFigures(ctx: Context, t: EggTotals): EggFigures {
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

/** Age week of an age in days: week N holds ages 7N−6 … 7N (week 18 ends on day 126); day 0 is week 0. */
export function ageWeekOf(ageDays: number): number {
  return Math.ceil(ageDays / 7);
}

/** Highest weekly hen-day % over the complete age weeks (7 days in the series) of the laying rows. */
export function peakProduction(ctx: Context, laying: readonly DailyKpis[]): PeakProduction {
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

/**
 * The egg KPIs of a day of the series (layers and breeders; for breeders every bird counts as a hen, the
 * ledger has no sex split), and the peak of production. Every egg rate is the layer figure of
 * ../layer-figures.ts, where each is defined once with the days it counts; cracked and dirty % are of the
 * eggs collected.
 */
import { figure, missing } from '../figures.js';
import type { DayTotals, Figure } from '../inputs.js';
import { henDayRatio, henHousedEggsOf, layerDayOf, layerFigures, type EggCalendar, type LayerDay, type LayerFigures } from '../layer-figures.js';
import { D_PCT, LAYERS_ONLY, PCT, type Context } from './context.js';
import type { DailyKpis, DayBirds, EggFigures, PeakProduction } from './types.js';

const NO_EGGS = 'no eggs collected';

/** The EggFigures of layer figures, with hen-housed eggs and the cracked and dirty shares of the eggs collected. */
export function eggFiguresOf(ctx: Context, l: LayerFigures, henHousedEggs: Figure, eggs: { collected: number; cracked: number; dirty: number }): EggFigures {
  const share = (n: number) =>
    !ctx.laying ? missing(PCT, LAYERS_ONLY) : eggs.collected > 0 ? figure((n / eggs.collected) * 100, PCT, D_PCT) : missing(PCT, NO_EGGS);
  return {
    henDayPct: l.henDayPct,
    henHousedPct: l.henHousedPct,
    henHousedEggs,
    eggWeightGrams: l.eggWeightGrams,
    eggMassGrams: l.eggMassGrams,
    feedPerKgEgg: l.feedPerKgEgg,
    feedPerDozenEggs: l.feedPerDozenEggs,
    crackedPct: share(eggs.cracked),
    dirtyPct: share(eggs.dirty),
  };
}

/** The egg figures of one day: the layer figures of that day alone (a day not over and without its eggs counts in none). */
export function dayEggFigures(ctx: Context, day: DayTotals, birds: DayBirds, cumulativeEggs: number, calendar: EggCalendar): EggFigures {
  const { birdType } = ctx.inputs.cycle;
  const l = layerFigures([layerDayOf(day, birds.present)], {
    calendar,
    birdType,
    housed: birds.housed,
    eggWeightFallback: ctx.config.fallbacks.eggWeightGrams,
  });
  return eggFiguresOf(ctx, l, henHousedEggsOf(cumulativeEggs, birds.housed, birdType), {
    collected: day.eggsCollected,
    cracked: day.eggsCracked,
    dirty: day.eggsDirty,
  });
}

/** Age week of an age in days: week N holds ages 7N−6 … 7N (week 18 ends on day 126); day 0 is week 0. */
export function ageWeekOf(ageDays: number): number {
  return Math.ceil(ageDays / 7);
}

/** A row of the daily series as a layer day (hen-days, eggs, feed and double yolks; the rows carry no egg weights). */
export const layerDayOfRow = (r: DailyKpis): LayerDay => ({
  date: r.date,
  hens: r.birds.present,
  eggs: r.eggs.collected,
  feedKg: r.feedKg.value ?? 0,
  doubleYolk: r.eggs.doubleYolk,
  eggWeightGramsSum: 0,
  eggsWeighed: 0,
});

/** Highest weekly hen-day % over the complete age weeks (7 days that count) of the laying rows (the rows that count). */
export function peakProduction(ctx: Context, laying: readonly DailyKpis[]): PeakProduction {
  const none = (reason: string): PeakProduction => ({ henDayPct: missing(PCT, reason), ageWeek: null, from: null, to: null });
  if (!ctx.laying) return none(LAYERS_ONLY);
  const weeks = new Map<number, DailyKpis[]>();
  for (const r of laying) weeks.set(ageWeekOf(r.ageDays), [...(weeks.get(ageWeekOf(r.ageDays)) ?? []), r]);
  let best: { week: number; pct: number; rows: DailyKpis[] } | null = null;
  for (const [week, rows] of weeks) {
    const ratio = henDayRatio(rows.map(layerDayOfRow));
    if (rows.length < 7 || ratio === null) continue;
    const pct = ratio * 100;
    if (!best || pct > best.pct) best = { week, pct, rows };
  }
  if (!best) return none(laying.length ? 'no complete age week of lay yet' : 'no eggs collected');
  return { henDayPct: figure(best.pct, PCT, D_PCT), ageWeek: best.week, from: best.rows[0]!.date, to: best.rows.at(-1)!.date };
}

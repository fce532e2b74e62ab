/**
 * Daily points of the calculation templates (./calculations.ts) over a cycle: one point per calendar day of
 * the cycle's daily series, the value null (with context.reason) when the figure cannot be computed that day.
 */
import type { AnalyticsSections } from '../../../schemas/analytics-config.js';
import { cycleFinancials } from '../analytics/financials/cycle.js';
import type { CycleInputs, FarmFeed, Figure } from '../analytics/inputs.js';
import { balanceAt } from '../stock-dates.js';
import { addDays } from '../../platform/calendar.js';
import { effectiveWeighings } from '../analytics/kpis/context.js';
import { calendarDays } from '../analytics/kpis/daily.js';
import { baselineOf, waterLevel } from '../analytics/kpis/feed-water.js';
import type { DailyKpis } from '../analytics/kpis/types.js';
import { weighingFigure } from '../analytics/kpis/weight.js';
import { round } from '../weights.js';
import { FEED_USE_DAYS } from './calculations.js';
import type { SeriesPoint } from './evaluation.js';

type Context = Record<string, number | string | null>;

/** A point from a KPI figure: its value, or null with the figure's reason in the context. */
const fromFigure = (row: DailyKpis, f: Figure, context: Context = {}): SeriesPoint => ({
  bucket: row.date,
  value: f.value,
  context: { ageDays: row.ageDays, ...context, ...(f.value === null ? { reason: f.reason ?? null } : {}) },
});

const none = (row: DailyKpis, reason: string, context: Context = {}): SeriesPoint => ({
  bucket: row.date,
  value: null,
  context: { ageDays: row.ageDays, ...context, reason },
});

/**
 * Water drop % per day (see the template's formula): water as % of the expected intake for the age
 * (`waterLevel`) against its mean over the 3 days before (`baselineOf`, as the low-intake anomaly does), with the baseline held at the start of a spell of low days so
 * that a lasting drop does not lower its own reference — otherwise the second day of a 20 % drop would
 * read only ≈ 14 % and two consecutive low days would never be seen. A day without a figure ends a spell.
 * One unit throughout: a day whose water has no expected intake (pullets of a breed without a water table)
 * has no value, and a baseline needs the % on each of its 3 days, so ml per bird is never compared with %.
 */
function waterDropPoints(rows: readonly DailyKpis[], tolerancePct: number): SeriesPoint[] {
  let spellStart: number | null = null;
  return rows.map((row, i) => {
    const ml = row.waterMlPerBird.value;
    const level = waterLevel(row);
    const from = spellStart ?? i;
    const base = baselineOf(rows, from, waterLevel);
    if (level === null || base === null || base <= 0) {
      spellStart = null;
      const why =
        level === null
          ? (row.waterPctOfExpected.reason ?? 'no water as % of the expected intake that day')
          : 'needs water as % of the expected intake on each of the 3 days before';
      return none(row, why, { waterMlPerBird: ml });
    }
    // judged against the expected intake: days before the spell that drank above it (a young flock on a
    // generous expectation) set no higher bar than 100 % of expected, so the spell ends at the expected level
    const bar = Math.min(base, 100);
    const drop = ((bar - level) / bar) * 100;
    spellStart = drop > tolerancePct ? from : null;
    return {
      bucket: row.date,
      value: round(drop, 2) + 0,
      context: {
        ageDays: row.ageDays,
        waterMlPerBird: ml,
        waterPctOfExpected: row.waterPctOfExpected.value,
        baseline: round(bar, 1) + 0,
        baselineFrom: rows[from - 3]!.date,
        baselineTo: rows[from - 1]!.date,
      },
    };
  });
}

/** Days of feed left per day (see the template's formula). */
/**
 * Days of feed left on each day. With the farm's feed stock (deliveries fill it without a cycle): its
 * balance at the end of the day ÷ the farm's mean daily use over the last FEED_USE_DAYS days (what was
 * taken out, every flock together). A stock that lasts until the cycle's planned harvest (its target age)
 * is not running out for it: no value, the reason says so. Without the farm's stock (a caller that did
 * not read it): the cycle's own deliveries less its consumption, as before feed became a farm stock.
 */
function feedLeftPoints(inputs: CycleInputs, rows: readonly DailyKpis[]): SeriesPoint[] {
  return inputs.farmFeed ? farmFeedLeftPoints(inputs.farmFeed, inputs.cycle.targetAgeDays, rows) : cycleFeedLeftPoints(inputs, rows);
}

function farmFeedLeftPoints(feed: FarmFeed, targetAgeDays: number | null, rows: readonly DailyKpis[]): SeriesPoint[] {
  return rows.map((row) => {
    const stock = balanceAt(feed.kg, feed.dated, row.date);
    const recent = Array.from({ length: FEED_USE_DAYS }, (_, k) => feed.out.get(addDays(row.date, -k)) ?? 0);
    const use = recent.reduce((a, b) => a + b, 0) / recent.length;
    const context = { feedStockKg: round(stock, 3) + 0, meanDailyFeedKg: round(use, 3) + 0 };
    if (use <= 0) return none(row, `no feed taken from the farm's stock from ${addDays(row.date, 1 - FEED_USE_DAYS)} to ${row.date}`, context);
    const days = round(stock / use, 1) + 0;
    const toHarvest = targetAgeDays !== null ? targetAgeDays - row.ageDays : null;
    if (toHarvest !== null && toHarvest >= 0 && days >= toHarvest)
      return none(row, `the feed in stock (${days} days) lasts until the planned harvest at ${targetAgeDays} days`, { ...context, daysOfFeed: days });
    return { bucket: row.date, value: days, context: { ageDays: row.ageDays, ...context } };
  });
}

function cycleFeedLeftPoints(inputs: CycleInputs, rows: readonly DailyKpis[]): SeriesPoint[] {
  const ledger = new Map(calendarDays(inputs).map((d) => [d.date, d]));
  const consumed = rows.map((r) => ledger.get(r.date)?.feedConsumedKg ?? 0);
  let stock = 0;
  return rows.map((row, i) => {
    stock += (ledger.get(row.date)?.feedDeliveredKg ?? 0) - consumed[i]!;
    const first = Math.max(0, i - FEED_USE_DAYS + 1);
    const recent = consumed.slice(first, i + 1);
    const use = recent.reduce((a, b) => a + b, 0) / recent.length;
    const context = { feedStockKg: round(stock, 3) + 0, meanDailyFeedKg: round(use, 3) + 0 };
    if (use <= 0) return none(row, `no feed consumption recorded from ${rows[first]!.date} to ${row.date}`, context);
    if (stock < 0) return none(row, 'more feed consumed than delivered in this cycle: the stock it started with is unknown', context);
    return { bucket: row.date, value: round(stock / use, 1) + 0, context: { ageDays: row.ageDays, ...context } };
  });
}

/**
 * The financials of the cycle as they stood at the end of each day: `cycleFinancials` on the ledger days
 * up to that day, with that day's live weight. O(days²) over a cycle, which a backtest of a few hundred
 * days affords.
 */
function costPoints(inputs: CycleInputs, config: AnalyticsSections, rows: readonly DailyKpis[], pick: 'costPerKgLiveweight' | 'costPerEgg'): SeriesPoint[] {
  return rows.map((row) => {
    const live = row.liveWeightKg;
    const f = cycleFinancials({ ...inputs, days: inputs.days.filter((d) => d.date <= row.date), asOf: row.date }, config, {
      kg: live.value,
      ...(live.reason !== undefined ? { reason: live.reason } : {}),
      ...(live.assumptions ? { assumptions: live.assumptions } : {}),
    });
    const extra: Context =
      pick === 'costPerKgLiveweight'
        ? { totalCost: f.costs.total, kgProduced: f.kgProduced.value }
        : { totalCost: f.costs.total, eggsCollected: f.quantities.eggsCollected };
    return fromFigure(row, f[pick], extra);
  });
}

/** Uniformity on the days of a weighing (the weighing's own figure, as the low-uniformity anomaly reads it); null on the other days. */
function uniformityPoints(inputs: CycleInputs, rows: readonly DailyKpis[]): SeriesPoint[] {
  const weighings = new Map(effectiveWeighings(inputs.weighings).map((w) => [w.date, w]));
  return rows.map((row) => {
    const w = weighings.get(row.date);
    if (!w) return none(row, 'no weighing that day');
    return fromFigure(row, weighingFigure(w, 'uniformityPct'), { grams: w.grams, sampleSize: w.sampleSize });
  });
}

/**
 * Daily points of a calculation over a cycle, one per calendar day of the series (value null with no data
 * that day); context carries ageDays and the figures behind the value. `series` is the cycle's
 * `dailySeries(inputs, config)`. Throws on an id that is not a daily calculation.
 *
 * adg is ADG between the two latest weighings (the series' adgSinceLastWeighing): it reacts to a slowdown
 * within a week, where ADG since placement averages the whole cycle.
 */
export function dailyPoints(id: string, cycle: { inputs: CycleInputs; config: AnalyticsSections; series: readonly DailyKpis[] }): SeriesPoint[] {
  const { inputs, config, series: rows } = cycle;
  switch (id) {
    case 'dailyMortalityPct':
      return rows.map((r) => fromFigure(r, r.dailyMortalityPct, { deaths: r.birds.deaths, birdsPresent: r.birds.present }));
    case 'cumulativeMortalityPct': {
      let deaths = 0;
      return rows.map((r) => {
        deaths += r.birds.deaths;
        return fromFigure(r, r.cumulativeMortalityPct, { deaths, birdsHoused: r.birds.housed });
      });
    }
    case 'fcr':
      return rows.map((r) =>
        fromFigure(r, r.fcr, { cumulativeFeedKg: r.cumulativeFeedKg.value, bodyWeightGrams: r.bodyWeight.value, birdsAlive: r.birds.aliveEnd }),
      );
    case 'adg':
      return rows.map((r) => fromFigure(r, r.adgSinceLastWeighing, { bodyWeightGrams: r.bodyWeight.value, bodyWeightDate: r.bodyWeight.date }));
    case 'uniformityPct':
      return uniformityPoints(inputs, rows);
    case 'waterFeedRatio':
      return rows.map((r) => fromFigure(r, r.waterFeedRatio, { waterLiters: r.waterLiters.value, feedKg: r.feedKg.value }));
    case 'epef':
      return rows.map((r) => fromFigure(r, r.epef, { livabilityPct: r.livabilityPct.value, bodyWeightGrams: r.bodyWeight.value, fcr: r.fcr.value }));
    case 'henDayPct':
      return rows.map((r) => fromFigure(r, r.henDayPct, { eggsCollected: r.eggs.collected, birdsPresent: r.birds.present }));
    case 'costPerKgLive':
      return costPoints(inputs, config, rows, 'costPerKgLiveweight');
    case 'costPerEgg':
      return costPoints(inputs, config, rows, 'costPerEgg');
    case 'daysOfFeedLeft':
      return feedLeftPoints(inputs, rows);
    case 'waterDropPct':
      return waterDropPoints(rows, config.consumption.lowIntakeTolerancePct);
    default:
      throw new RangeError(`${id} is not a daily calculation`);
  }
}

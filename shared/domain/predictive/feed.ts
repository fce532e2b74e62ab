/**
 * Feed forecasts (pure): trailing consumption, run-out dates, and the feed a cycle needs until harvest.
 * The formulas: docs/predictive.md ("Feed").
 */
import type { DayTotals } from '../analytics/inputs.js';
import { round1, round3 } from './model.js';
import type { RunOut } from './records.js';
import { addDays } from '../../platform/calendar.js';

/** Days of the trailing consumption window. */
export const TRAILING_DAYS = 3;

export interface TrailingConsumption {
  window: { from: string; to: string };
  dailyKg: number;
  dailyKgByType: Record<string, number>;
}

/** The trailing 3-day mean consumption before `asOf` (see the module note). */
export function trailingConsumption(days: readonly DayTotals[], asOf: string): TrailingConsumption {
  const from = addDays(asOf, -TRAILING_DAYS);
  const to = addDays(asOf, -1);
  const inWindow = days.filter((d) => d.date >= from && d.date <= to);
  const total = inWindow.reduce((a, d) => a + d.feedConsumedKg, 0);
  const byType: Record<string, number> = {};
  for (const d of inWindow) for (const [t, kg] of Object.entries(d.feedConsumedKgByType)) byType[t] = (byType[t] ?? 0) + kg;
  return {
    window: { from, to },
    dailyKg: round3(total / TRAILING_DAYS),
    dailyKgByType: Object.fromEntries(
      Object.entries(byType)
        .filter(([, kg]) => kg > 0)
        .map(([t, kg]) => [t, round3(kg / TRAILING_DAYS)]),
    ),
  };
}

/** Adds consumptions (several cycles of a farm). */
export function addConsumption(parts: ReadonlyArray<Pick<TrailingConsumption, 'dailyKg' | 'dailyKgByType'>>): {
  dailyKg: number;
  dailyKgByType: Record<string, number>;
} {
  const byType: Record<string, number> = {};
  for (const p of parts) for (const [t, kg] of Object.entries(p.dailyKgByType)) byType[t] = round3((byType[t] ?? 0) + kg);
  return { dailyKg: round3(parts.reduce((a, p) => a + p.dailyKg, 0)), dailyKgByType: byType };
}

/** Days left and the run-out date of `stockKg` at `dailyKg` a day from `asOf` (null without consumption). */
export function runOutOf(stockKg: number, dailyKg: number, asOf: string): { daysLeft: number | null; date: string | null } {
  if (!(dailyKg > 0)) return { daysLeft: null, date: null };
  const days = Math.max(0, stockKg) / dailyKg;
  return { daysLeft: round1(days), date: addDays(asOf, Math.floor(days)) };
}

export type FeedSupply =
  /** The house's silos: their load (Σ latest siloKg) and their trailing outflow (null: none measured). */
  | { source: 'silo'; stockKg: number; dailyKg: number | null }
  /** The farm's feed stock per type, and the farm's trailing consumption (every active cycle). */
  | { source: 'farm_stock'; stockKgByType: Record<string, number>; farmDailyKg: number; farmDailyKgByType: Record<string, number> };

/**
 * The run-out a flock faces. Silo: silo kg ÷ the silos' outflow (else the flock's own consumption). Farm
 * stock: for each feed type the flock ate in the window, that type's stock ÷ the farm's consumption of
 * it, the earliest date winning; a flock whose consumption carries no type (sensor figures) takes the
 * total stock ÷ the farm's total.
 */
export function flockRunOut(supply: FeedSupply | null, own: TrailingConsumption, asOf: string): RunOut | null {
  if (!supply) return null;
  if (supply.source === 'silo') {
    const daily = supply.dailyKg && supply.dailyKg > 0 ? supply.dailyKg : own.dailyKg;
    const r = runOutOf(supply.stockKg, daily, asOf);
    return {
      source: 'silo',
      stockKg: round3(supply.stockKg),
      dailyKg: round3(daily),
      ...r,
      feedTypes: [],
      reason: r.date ? null : 'no feed left the silos in the trailing 3 days',
    };
  }
  const types = Object.keys(own.dailyKgByType).sort();
  if (types.length === 0) {
    const stock = Object.values(supply.stockKgByType).reduce((a, b) => a + b, 0);
    const r = runOutOf(stock, supply.farmDailyKg, asOf);
    return {
      source: 'farm_stock',
      stockKg: round3(stock),
      dailyKg: round3(supply.farmDailyKg),
      ...r,
      feedTypes: [],
      reason: r.date ? null : 'no feed consumed on the farm in the trailing 3 days',
    };
  }
  const perType = types.map((t) => ({ t, stock: supply.stockKgByType[t] ?? 0, daily: supply.farmDailyKgByType[t] ?? own.dailyKgByType[t]! }));
  const dated = perType.map((p) => ({ ...p, ...runOutOf(p.stock, p.daily, asOf) }));
  const first = dated.reduce((a, b) => ((b.daysLeft ?? Number.POSITIVE_INFINITY) < (a.daysLeft ?? Number.POSITIVE_INFINITY) ? b : a));
  return {
    source: 'farm_stock',
    stockKg: round3(first.stock),
    dailyKg: round3(first.daily),
    daysLeft: first.daysLeft,
    date: first.date,
    feedTypes: [first.t],
    reason: first.date ? null : 'no feed consumed on the farm in the trailing 3 days',
  };
}

/** The farm's stock by feed type against the farm's trailing consumption. */
export function farmStockRunOut(stockKgByType: Record<string, number>, consumption: { dailyKg: number; dailyKgByType: Record<string, number> }, asOf: string) {
  const totalKg = round3(Object.values(stockKgByType).reduce((a, b) => a + b, 0));
  const types = [...new Set([...Object.keys(stockKgByType), ...Object.keys(consumption.dailyKgByType)])].sort();
  const total = runOutOf(totalKg, consumption.dailyKg, asOf);
  return {
    totalKg,
    dailyKg: round3(consumption.dailyKg),
    daysLeft: total.daysLeft,
    runOutDate: total.date,
    byType: types.map((feedType) => {
      const stockKg = round3(stockKgByType[feedType] ?? 0);
      const dailyKg = round3(consumption.dailyKgByType[feedType] ?? 0);
      const r = runOutOf(stockKg, dailyKg, asOf);
      return { feedType, stockKg, dailyKg, daysLeft: r.daysLeft, runOutDate: r.date };
    }),
  };
}

export interface FeedNeedInput {
  asOfAge: number;
  /** The age the need runs to (harvest, or the end of the horizon). */
  untilAge: number;
  alive: number;
  cumulativeFeedKg: number;
  /** The weight engine's forecast at an age, g (null outside what it can forecast). */
  weightAt: (ageDays: number) => number | null;
  /** The breed's cumulative FCR at an age (null without one), and the first age it has one. */
  standardFcrAt: ((ageDays: number) => number | null) | null;
  firstFcrAge: number | null;
  /** The cycle's FCR and the age it is of (null when unknown). */
  actualFcr: { value: number; ageDays: number } | null;
  trailingDailyKg: number;
  /** FCR at the end age is forecast only for broilers. */
  fcrAtEnd: boolean;
}

export interface FeedNeed {
  method: 'breed_fcr_curve' | 'trailing_intake';
  neededKg: number;
  fcrAtEnd: number | null;
  assumptions: string[];
}

/** The feed needed from asOf to `untilAge` and the FCR forecast there (see the module note). */
export function feedNeeded(x: FeedNeedInput): FeedNeed {
  const days = Math.max(0, x.untilAge - x.asOfAge);
  const wEnd = x.weightAt(x.untilAge);
  const fcrAt = (neededKg: number) => (x.fcrAtEnd && wEnd && x.alive > 0 ? round3((x.cumulativeFeedKg + neededKg) / ((x.alive * wEnd) / 1000)) : null);
  const noMortality = 'no mortality projected: the birds alive at asOf eat until the end';
  if (x.standardFcrAt && x.firstFcrAge !== null && days > 0) {
    const a0 = Math.max(x.asOfAge, x.firstFcrAge);
    const f0 = x.standardFcrAt(a0);
    const fEnd = x.standardFcrAt(x.untilAge);
    const w0 = x.weightAt(a0);
    const stdAtActual = x.actualFcr ? x.standardFcrAt(x.actualFcr.ageDays) : null;
    if (f0 !== null && fEnd !== null && w0 !== null && wEnd !== null) {
      const k = x.actualFcr && stdAtActual ? x.actualFcr.value / stdAtActual : 1;
      const perBirdKg = Math.max(0, (k * (fEnd * wEnd - f0 * w0)) / 1000);
      const neededKg = round1(x.alive * perBirdKg);
      const assumptions = [
        x.actualFcr && stdAtActual
          ? `the breed's cumulative FCR curve × ${round3(k)} (the cycle's FCR ${x.actualFcr.value} ÷ the standard ${round3(stdAtActual)} at day ${x.actualFcr.ageDays}) over the forecast weights`
          : "the breed's cumulative FCR curve itself over the forecast weights (the cycle's FCR is not known yet)",
        noMortality,
      ];
      if (a0 > x.asOfAge) assumptions.push(`the FCR table starts at day ${a0}: feed before it is not projected`);
      return { method: 'breed_fcr_curve', neededKg, fcrAtEnd: fcrAt(neededKg), assumptions };
    }
  }
  const neededKg = round1(x.trailingDailyKg * days);
  return {
    method: 'trailing_intake',
    neededKg,
    fcrAtEnd: fcrAt(neededKg),
    assumptions: [`the trailing 3-day consumption (${x.trailingDailyKg} kg/day) held flat for ${days} days`, noMortality],
  };
}

/**
 * Amounts of the financials: rounding, sums over the daily rollups, one priced line, birds alive per day.
 *
 * Rounding: money to cents (2 decimals), each line rounded first and totals summed from the rounded
 * lines (so lines add up to totals exactly); per-unit figures (unit prices, cost per kg/bird/egg/tray)
 * to 4 decimals; percentages, bags and trays to 2 decimals; quantities to 4 decimals.
 */
import { round } from '../../weights.js';
import { fmt as formatNumber } from '../figures.js';
import type { DayTotals, Figure } from '../inputs.js';
import type { FinancialLine } from './types.js';

/** Numbers in assumptions, up to 4 decimals (prices such as 0.0325 USD/egg). */
export const fmt = (n: number): string => formatNumber(n, 4);

export const money = (n: number) => round(n, 2);
export const perUnit = (n: number) => round(n, 4);
export const qty = (n: number) => round(n, 4);
/** Kilos summed from floats: below a milligram is noise. */
export const EPSILON_KG = 1e-6;

export function sumBy(days: readonly DayTotals[], pick: (d: DayTotals) => number): number {
  return days.reduce((a, d) => a + pick(d), 0);
}

export function sumRecords(days: readonly DayTotals[], pick: (d: DayTotals) => Record<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const d of days) for (const [k, v] of Object.entries(pick(d))) out.set(k, (out.get(k) ?? 0) + v);
  return out;
}

/** Birds alive per movement day: at the start of the day, present during it (start + arrivals), at its end. */
export interface BirdsOnDay {
  date: string;
  start: number;
  present: number;
  end: number;
}

/**
 * Birds alive per day from the ledger (placed + transferred in − deaths − culls − sold − transferred out),
 * for the dates in `days` (sorted by date; days without movements change nothing; never below zero).
 * Valid when `days` starts at the cycle's first movement; `opening` is the count before the first day
 * otherwise. Same counting as the KPI engine's DayBirds (present = alive at the start + arrivals).
 */
export function birdsAliveByDay(days: readonly DayTotals[], opening = 0): BirdsOnDay[] {
  let alive = opening;
  return [...days]
    .sort((a, b) => a.date.localeCompare(b.date))
    .map((d) => {
      const start = alive;
      const present = start + d.placed + d.transferredIn;
      alive = Math.max(0, present - d.deaths - d.culls - d.sold - d.transferredOut);
      return { date: d.date, start, present, end: alive };
    });
}

/** A cost or revenue line from what was priced with movement prices and what with configuration defaults. */
export function line(
  unit: string,
  fromMovements: { quantity: number; amount: number },
  fromConfig: { quantity: number; amount: number },
  assumptions: string[],
): FinancialLine {
  const amountFromMovements = money(fromMovements.amount);
  const amountFromConfig = money(fromConfig.amount);
  const amount = money(amountFromMovements + amountFromConfig);
  const quantity = qty(fromMovements.quantity + fromConfig.quantity);
  return {
    amount,
    quantity,
    unit,
    pricedFromMovements: qty(fromMovements.quantity),
    pricedFromConfig: qty(fromConfig.quantity),
    amountFromMovements,
    amountFromConfig,
    averageUnitPrice: quantity > 0 ? perUnit(amount / quantity) : null,
    assumptions,
  };
}

/** A figure of the financials (no rounding here: the caller rounds). */
export const ratio = (value: number | null, unit: string, reason?: string, assumptions?: string[]): Figure => ({
  value,
  unit,
  ...(reason !== undefined ? { reason } : {}),
  ...(assumptions?.length ? { assumptions } : {}),
});

/**
 * Small helpers shared by the analytics modules: building `Figure`s, ledger days.
 */
import { round } from '../weights.js';
import { DAY_COUNTER_MAPS, DAY_COUNTERS, emptyDay, type DayTotals, type Figure } from './inputs.js';

/** A computed figure, rounded to `digits`; `assumptions` kept only when there are some. */
export function figure(value: number, unit: string, digits: number, assumptions: readonly string[] = []): Figure {
  const f: Figure = { value: round(value, digits) + 0, unit };
  if (assumptions.length) f.assumptions = [...new Set(assumptions)];
  return f;
}

/** A figure that could not be computed, and why. */
export function missing(unit: string, reason: string, assumptions: readonly string[] = []): Figure {
  const f: Figure = { value: null, unit, reason };
  if (assumptions.length) f.assumptions = [...new Set(assumptions)];
  return f;
}

/** Just the Figure of a figure that carries more (a date, a source): `{value, unit[, reason][, assumptions]}`. */
export function plainFigure(f: Figure): Figure {
  const out: Figure = { value: f.value, unit: f.unit };
  if (f.reason !== undefined) out.reason = f.reason;
  if (f.assumptions) out.assumptions = f.assumptions;
  return out;
}

/** Two rollups of the same date added together (numbers summed, per-key records merged). */
export function mergeDayTotals(a: DayTotals, b: DayTotals): DayTotals {
  const out: DayTotals = { ...a };
  for (const k of DAY_COUNTERS) out[k] = a[k] + b[k];
  for (const k of DAY_COUNTER_MAPS) {
    const merged: Record<string, number> = { ...a[k] };
    for (const [key, n] of Object.entries(b[k])) merged[key] = (merged[key] ?? 0) + n;
    out[k] = merged;
  }
  if (b.waterPh) out.waterPh = [...(a.waterPh ?? []), ...b.waterPh];
  return out;
}

/** The rollups by date (duplicates of a date summed); a date not in the map is a day of zeros (`emptyDay`). */
export function ledgerByDate(days: readonly DayTotals[]): Map<string, DayTotals> {
  const map = new Map<string, DayTotals>();
  for (const d of days) {
    const prev = map.get(d.date);
    map.set(d.date, prev ? mergeDayTotals(prev, d) : { ...emptyDay(d.date), ...d });
  }
  return map;
}

/** "1234.5" → "1,234.5" for messages and assumptions (at most 3 decimals; prices pass 4). */
const FORMATS = new Map<number, Intl.NumberFormat>();
export function fmt(n: number, maxDecimals = 3): string {
  let format = FORMATS.get(maxDecimals);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { maximumFractionDigits: maxDecimals });
    FORMATS.set(maxDecimals, format);
  }
  return format.format(n);
}

/**
 * Accuracy of past forecasts (pure): each stored forecast (one per flock and day) against the weighings
 * that came after it.
 *
 * - Weight: every weighing dated after a forecast's asOf and within its daily path pairs with the
 *   forecast for that date; absolute percentage error = |forecast − actual| ÷ actual × 100.
 * - Harvest: the forecast harvest weight pairs with the weighing on the forecast harvest date.
 * - MAPE = the mean of those errors (2 decimals), with n the number of pairs; per flock and overall. A
 *   weighing counts once per forecast that predicted its date, so a flock forecast every day for a week
 *   before a weighing contributes up to 7 pairs (a longer horizon, more pairs: MAPE is over pairs).
 *   The weighing of a date is the engine's effective one (the most confident session of that date).
 */
import { round2 } from './model.js';
import type { Accuracy, ForecastHistory } from './records.js';
import { addDays, daysBetween } from '../../platform/calendar.js';

export interface ActualWeight {
  cycleId: string;
  date: string;
  grams: number;
}

type Mape = Accuracy['weight'];

const mapeOf = (errors: readonly number[]): Mape => ({
  mapePct: errors.length ? round2(errors.reduce((a, b) => a + b, 0) / errors.length) : null,
  n: errors.length,
});
const ape = (forecast: number, actual: number) => (Math.abs(forecast - actual) / actual) * 100;

/** The forecast of `date` in a forecast's daily path, or null. */
export function pathValue(f: ForecastHistory, date: string): number | null {
  const i = daysBetween(f.path.from, date);
  return i >= 0 && i < f.path.grams.length ? (f.path.grams[i] ?? null) : null;
}

/** Scores the forecasts against the actual weighings (see the module note). */
export function forecastAccuracy(
  history: readonly ForecastHistory[],
  actuals: readonly ActualWeight[],
): Pick<Accuracy, 'weight' | 'harvest' | 'flocks' | 'modelVersions'> {
  const byCycle = new Map<string, Map<string, number>>();
  for (const a of actuals) {
    const m = byCycle.get(a.cycleId) ?? new Map<string, number>();
    m.set(a.date, a.grams);
    byCycle.set(a.cycleId, m);
  }
  const perFlock = new Map<string, { flockName: string; weight: number[]; harvest: number[] }>();
  const all = { weight: [] as number[], harvest: [] as number[] };
  for (const f of history) {
    const flock = perFlock.get(f.flockId) ?? { flockName: f.flockName, weight: [], harvest: [] };
    perFlock.set(f.flockId, flock);
    const weighed = byCycle.get(f.cycleId);
    if (!weighed) continue;
    const last = addDays(f.path.from, f.path.grams.length - 1);
    for (const [date, grams] of weighed) {
      if (date <= f.asOf || date < f.path.from || date > last || grams <= 0) continue;
      const forecast = pathValue(f, date);
      if (forecast === null) continue;
      const e = ape(forecast, grams);
      flock.weight.push(e);
      all.weight.push(e);
    }
    const h = f.harvest;
    const actual = h && h.date > f.asOf ? weighed.get(h.date) : undefined;
    if (h && actual && actual > 0) {
      const e = ape(h.grams, actual);
      flock.harvest.push(e);
      all.harvest.push(e);
    }
  }
  return {
    modelVersions: [...new Set(history.map((f) => f.modelVersion))].sort(),
    weight: mapeOf(all.weight),
    harvest: mapeOf(all.harvest),
    flocks: [...perFlock]
      .map(([flockId, f]) => ({ flockId, flockName: f.flockName, weight: mapeOf(f.weight), harvest: mapeOf(f.harvest) }))
      .sort((a, b) => a.flockName.localeCompare(b.flockName) || a.flockId.localeCompare(b.flockId)),
  };
}

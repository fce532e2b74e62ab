/**
 * Layer production forecast (pure), one half of the predictions (./predictions.ts): the next weeks' hen-day %
 * and eggs from the breed's hen-day curve scaled to the flock's recent laying, else the recent hen-day held
 * flat. docs/analytics-reports.md ("Predictions").
 */
import type { AnalyticsSections } from '../../../schemas/analytics-config.js';
import { round } from '../weights.js';
import { findBreedStandard, seriesRangeDays, standardValue, type BreedStandard } from './breed-standards.js';
import { noStandardReason, standardRef, type StandardRef } from './comparison.js';
import { figure, fmt, missing } from './figures.js';
import type { CycleInputs, Figure } from './inputs.js';
import { calendarDays, INDEX, isLayingType, seriesEnd } from './kpis/context.js';
import { dailySeries } from './kpis/daily.js';
import { ageWeekOf, layerDayOfRow } from './kpis/eggs.js';
import { countsForEggs, eggCalendar, henDayRatio, type EggCalendar } from './layer-figures.js';
import type { DailyKpis } from './kpis/types.js';
import { addDays } from '../../platform/calendar.js';
import { RATIO_DIGITS, type PredictionOptions } from './weight-prediction.js';

/** Default forecast horizon, weeks. */
export const DEFAULT_FORECAST_WEEKS = 8;

export interface ForecastWeek {
  /** 1 = the 7 days after asOf. */
  week: number;
  from: string;
  to: string;
  /** Age week at the end of the forecast week. */
  ageWeek: number;
  /** Mean forecast hen-day % of the week. */
  henDayPct: Figure;
  /** Eggs expected in the week. */
  eggs: Figure;
}

export interface ProductionForecast {
  method: 'breed_curve_scaled' | 'breed_curve' | 'recent_flat' | 'none';
  standard: StandardRef | null;
  /** Actual ÷ standard eggs over the basis days, `index` (4 decimals). */
  ratio: Figure;
  /** The last days the forecast stands on: eggs and expected standard eggs (counts), hen-day % (a Figure). */
  basis: { from: string; to: string; eggs: number; henDayPct: Figure; standardEggs: number | null } | null;
  hensAlive: number;
  weeks: ForecastWeek[];
  assumptions: string[];
  reason?: string;
}

const BASIS_DAYS = 7;

/** The last 7 days that count in hen-day (../layer-figures.ts: the laying period's days that are over or have their eggs). */
function basisOf(rows: readonly DailyKpis[], s: BreedStandard | null, calendar: EggCalendar) {
  const basis = rows.filter((r) => r.birds.present > 0 && countsForEggs(calendar, r.date, r.eggs.collected)).slice(-BASIS_DAYS);
  const eggs = basis.reduce((a, r) => a + r.eggs.collected, 0);
  const ratio = henDayRatio(basis.map(layerDayOfRow));
  const stdRows = s ? basis.filter((r) => standardValue(s, 'henDayPct', r.ageDays)) : [];
  const standardEggs = s && stdRows.length ? stdRows.reduce((a, r) => a + (r.birds.present * standardValue(s, 'henDayPct', r.ageDays)!.value) / 100, 0) : null;
  const actualOnStd = stdRows.reduce((a, r) => a + r.eggs.collected, 0);
  return { basis, eggs, ratio, standardEggs, actualOnStd };
}

function forecastWeek(
  inputs: CycleInputs,
  k: number,
  asOfAge: number,
  hens: number,
  pctAt: (age: number) => number | null,
  outside: string,
  assumptions: string[],
): ForecastWeek {
  const end = seriesEnd(inputs);
  const from = addDays(end, 7 * (k - 1) + 1);
  const to = addDays(end, 7 * k);
  const ages = Array.from({ length: 7 }, (_, i) => asOfAge + 7 * (k - 1) + 1 + i);
  const pcts = ages.map(pctAt);
  const ageWeek = ageWeekOf(ages[6]!);
  if (pcts.some((p) => p === null)) return { week: k, from, to, ageWeek, henDayPct: missing('%', outside), eggs: missing('eggs', outside) };
  const p = pcts as number[];
  return {
    week: k,
    from,
    to,
    ageWeek,
    henDayPct: figure(p.reduce((a, b) => a + b, 0) / 7, '%', 2, assumptions),
    eggs: figure(
      p.reduce((a, b) => a + (hens * b) / 100, 0),
      'eggs',
      0,
      assumptions,
    ),
  };
}

/** The next N weeks' hen-day % and eggs (see the module note). */
export function forecastProduction(
  inputs: CycleInputs,
  config: AnalyticsSections,
  options: PredictionOptions = {},
  series?: readonly DailyKpis[],
): ProductionForecast {
  const weeks = Math.max(1, Math.min(52, Math.floor(options.forecastWeeks ?? DEFAULT_FORECAST_WEEKS)));
  const s0 = findBreedStandard(inputs.cycle.breed, inputs.cycle.birdType);
  const s = s0?.series.some((x) => x.key === 'henDayPct') ? s0 : null;
  const none = (reason: string, hens = 0): ProductionForecast => ({
    method: 'none',
    standard: s0 ? standardRef(s0) : null,
    ratio: missing(INDEX, reason),
    basis: null,
    hensAlive: hens,
    weeks: [],
    assumptions: [],
    reason,
  });
  if (!isLayingType(inputs.cycle.birdType)) return none('layers and breeders only');
  const rows = series ?? dailySeries(inputs, config);
  const last = rows.at(-1);
  if (!last) return none(`the cycle has no day up to ${inputs.asOf}`);
  const hens = last.birds.aliveEnd;
  if (hens === 0) return none('no hens alive', 0);
  const b = basisOf(rows, s, eggCalendar(calendarDays(inputs), inputs.today));
  const basisInfo = b.basis.length
    ? {
        from: b.basis[0]!.date,
        to: b.basis.at(-1)!.date,
        eggs: b.eggs,
        henDayPct: b.ratio !== null ? figure(b.ratio * 100, '%', 2) : missing('%', 'no hens present in the basis days'),
        standardEggs: b.standardEggs === null ? null : round(b.standardEggs, 1),
      }
    : null;
  const flat = ['no mortality projected: the hens alive at asOf lay every day of the forecast'];
  if (s) {
    const hasEggs = b.actualOnStd > 0 && (b.standardEggs ?? 0) > 0;
    const ratio = hasEggs ? b.actualOnStd / b.standardEggs! : 1;
    const assumptions = hasEggs
      ? [`${s.name} hen-day curve × ${fmt(round(ratio, 4))} (actual ÷ standard eggs over the last ${BASIS_DAYS} days), at most 100 %`, ...flat]
      : [`no eggs in the last ${BASIS_DAYS} days within the ${s.name} table: the standard hen-day curve itself`, ...flat];
    const range = seriesRangeDays(s.series.find((x) => x.key === 'henDayPct')!, s.ageUnit);
    const pctAt = (age: number) => {
      const v = standardValue(s, 'henDayPct', age);
      return v ? Math.min(100, v.value * ratio) : null;
    };
    const outside = `outside the ${s.name} hen-day table (weeks ${range.from / 7}–${range.to / 7}); the standard is not extrapolated`;
    return {
      method: hasEggs ? 'breed_curve_scaled' : 'breed_curve',
      standard: standardRef(s),
      ratio: figure(ratio, INDEX, RATIO_DIGITS, hasEggs ? [] : assumptions.slice(0, 1)),
      basis: basisInfo,
      hensAlive: hens,
      weeks: Array.from({ length: weeks }, (_, i) => forecastWeek(inputs, i + 1, last.ageDays, hens, pctAt, outside, assumptions)),
      assumptions,
    };
  }
  if (!b.eggs || b.ratio === null)
    return none(`${noStandardReason(inputs.cycle.breed, inputs.cycle.birdType)} with a hen-day curve, and no eggs in the last ${BASIS_DAYS} days`, hens);
  const recent = b.ratio * 100;
  const assumptions = [
    `${noStandardReason(inputs.cycle.breed, inputs.cycle.birdType)} with a hen-day curve: the last ${BASIS_DAYS} days' hen-day (${fmt(round(recent, 2))} %) held flat`,
    ...flat,
  ];
  return {
    method: 'recent_flat',
    standard: s0 ? standardRef(s0) : null,
    ratio: missing(INDEX, `${noStandardReason(inputs.cycle.breed, inputs.cycle.birdType)} with a hen-day curve: the recent hen-day is held flat`),
    basis: basisInfo,
    hensAlive: hens,
    weeks: Array.from({ length: weeks }, (_, i) => forecastWeek(inputs, i + 1, last.ageDays, hens, () => recent, '', assumptions)),
    assumptions,
  };
}

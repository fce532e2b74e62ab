/**
 * Predictions (GET /api/v2/analytics/predictions/{flockId}/{cycleId}), pure: body weight fitted to the
 * breed curve, and layer production.
 * The fit, its confidence and the fallbacks: docs/analytics-reports.md ("Predictions").
 */
import type { AnalyticsSections } from '../../../schemas/analytics-config.js';
import { agesAt, round, type Confidence } from '../weights.js';
import { findBreedStandard, seriesRangeDays, standardValue, standardWeightGrams, type BreedStandard } from './breed-standards.js';
import { noStandardReason, standardRef, type StandardRef } from './comparison.js';
import { figure, fmt, missing } from './figures.js';
import type { CycleInputs, Figure, WeighingPoint } from './inputs.js';
import { effectiveWeighings, INDEX, isLayingType, placementWeight, seriesEnd } from './kpis/context.js';
import { dateOfAge } from './kpis/cycle.js';
import { dailySeries } from './kpis/daily.js';
import { ageWeekOf } from './kpis/eggs.js';
import type { DailyKpis } from './kpis/types.js';
import { addDays } from '../../platform/calendar.js';

/** Recency half-life of the weight fit, days of age. */
export const FIT_HALF_LIFE_DAYS = 7;
/** Default forecast horizon, weeks. */
export const DEFAULT_FORECAST_WEEKS = 8;

export type WeightMethodUsed = 'breed_curve_scaled' | 'breed_curve' | 'linear_adg' | 'none';

export interface WeightFit {
  method: WeightMethodUsed;
  standard: StandardRef | null;
  /** Fitted actual ÷ standard, `index` (4 decimals); null for the linear method. */
  ratio: Figure;
  /** Weighings the fit used. */
  weighings: number;
  lastWeighing: { date: string; ageDays: number; grams: number } | null;
  /** Weighted RMS residual of the curve fit, g and % of the fitted value. */
  residualRmsGrams: Figure;
  residualRmsPct: Figure;
  /** The ADG extrapolated by the linear method, g/day. */
  adgGramsPerDay: Figure;
  confidence: Confidence | null;
}

export interface WeightPrediction {
  fit: WeightFit;
  /** Weight at the target age (option, else cycle.targetAgeDays). */
  atTargetAge: { ageDays: number | null; date: string | null; weight: Figure };
  /** When the target weight (option, else cycle.targetWeightGrams) is reached. */
  targetWeight: { grams: number | null; reached: boolean; ageDays: number | null; date: string | null; reason?: string };
  assumptions: string[];
  /** Why nothing could be predicted. */
  reason?: string;
}

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

export interface PredictionOptions {
  targetAgeDays?: number;
  targetWeightGrams?: number;
  forecastWeeks?: number;
}

interface AgedWeighing {
  date: string;
  ageDays: number;
  grams: number;
}

function agedWeighings(inputs: CycleInputs): AgedWeighing[] {
  const end = seriesEnd(inputs);
  return effectiveWeighings(inputs.weighings)
    .filter((w: WeighingPoint) => w.date <= end)
    .map((w) => ({ date: w.date, ageDays: agesAt(w.date, inputs.cycle).ageDays, grams: w.grams }));
}

interface CurveFit {
  ratio: number;
  n: number;
  rmsGrams: number;
  rmsPct: number;
}

/** Weighted least-squares ratio actual ÷ standard (see the module note). Exported for tests. */
export function fitRatio(points: ReadonlyArray<{ ageDays: number; actual: number; standard: number }>): CurveFit | null {
  if (!points.length) return null;
  const latest = Math.max(...points.map((p) => p.ageDays));
  const w = points.map((p) => 0.5 ** ((latest - p.ageDays) / FIT_HALF_LIFE_DAYS));
  const sw = w.reduce((a, b) => a + b, 0);
  const ratio = points.reduce((a, p, i) => a + w[i]! * p.actual * p.standard, 0) / points.reduce((a, p, i) => a + w[i]! * p.standard ** 2, 0);
  const e2 = points.reduce((a, p, i) => a + w[i]! * (p.actual - ratio * p.standard) ** 2, 0);
  const rel2 = points.reduce((a, p, i) => a + w[i]! * ((p.actual - ratio * p.standard) / (ratio * p.standard)) ** 2, 0);
  return { ratio, n: points.length, rmsGrams: Math.sqrt(e2 / sw), rmsPct: Math.sqrt(rel2 / sw) * 100 };
}

/** Confidence of a curve fit: high ≥ 3 weighings and residual ≤ 3 %, medium ≥ 2 and ≤ 6 %, else low. */
export function fitConfidence(n: number, rmsPct: number): Confidence {
  if (n >= 3 && rmsPct <= 3) return 'high';
  if (n >= 2 && rmsPct <= 6) return 'medium';
  return 'low';
}

/** A weight model: weight (g) at an age, the ages it covers, and how it was fitted. */
interface Model {
  fit: WeightFit;
  weightAt: (ageDays: number) => number | null;
  /** Why `weightAt` is null at an age. */
  outside: (ageDays: number) => string;
  maxAge: number;
  assumptions: string[];
}

function curveModel(s: BreedStandard, ratio: number, fit: WeightFit, assumptions: string[]): Model {
  const bw = s.series.find((x) => x.key === 'bodyWeight')!;
  const range = seriesRangeDays(bw, s.ageUnit);
  return {
    fit,
    assumptions,
    maxAge: range.to,
    weightAt: (age) => {
      const std = standardWeightGrams(s, age);
      return std ? ratio * std.grams : null;
    },
    outside: (age) => `age ${age} days is outside the ${s.name} weight table (days ${range.from}–${range.to}); the standard is not extrapolated`,
  };
}

/** Units and rounding of the fit's figures. */
const RATIO_DIGITS = 4;
const NOT_FITTED: Record<WeightMethodUsed, string> = {
  breed_curve_scaled: '',
  breed_curve: 'no weighing fitted: the standard curve itself',
  linear_adg: 'no breed curve fitted: the recent ADG is extrapolated',
  none: 'nothing could be predicted',
};
const ADG_NOT_USED: Record<WeightMethodUsed, string> = {
  breed_curve_scaled: 'the scaled breed curve is used, not a straight-line ADG',
  breed_curve: 'the breed curve is used, not a straight-line ADG',
  linear_adg: '',
  none: 'nothing could be predicted',
};

function emptyFit(method: WeightMethodUsed, s: BreedStandard | null): WeightFit {
  return {
    method,
    standard: s ? standardRef(s) : null,
    ratio: missing(INDEX, NOT_FITTED[method]),
    weighings: 0,
    lastWeighing: null,
    residualRmsGrams: missing('g', NOT_FITTED[method]),
    residualRmsPct: missing('%', NOT_FITTED[method]),
    adgGramsPerDay: missing('g/day', ADG_NOT_USED[method]),
    confidence: null,
  };
}

/** The recent ADG: the two latest weighings, else since placement. */
function recentAdg(inputs: CycleInputs, config: AnalyticsSections, s: BreedStandard | null, ws: readonly AgedWeighing[]): { adg: number; from: string } | null {
  const last = ws.at(-1);
  const prev = ws.at(-2);
  if (!last) return null;
  if (prev) return { adg: (last.grams - prev.grams) / (last.ageDays - prev.ageDays), from: `the weighings of ${prev.date} and ${last.date}` };
  const p = placementWeight(inputs, config, s);
  const placementAge = agesAt(p.date, inputs.cycle).ageDays;
  if (p.grams === null || last.ageDays <= placementAge) return null;
  return { adg: (last.grams - p.grams) / (last.ageDays - placementAge), from: `placement (${fmt(round(p.grams, 1))} g) and the weighing of ${last.date}` };
}

function linearModel(
  inputs: CycleInputs,
  config: AnalyticsSections,
  s: BreedStandard | null,
  ws: readonly AgedWeighing[],
  why: string,
): Model | { reason: string } {
  const last = ws.at(-1);
  const adg = recentAdg(inputs, config, s, ws);
  if (!last || !adg) return { reason: `${why}, and ${last ? 'no earlier weighing or placement weight to take an ADG from' : 'no weighing'}` };
  if (adg.adg <= 0) return { reason: `${why}, and the recent ADG (${fmt(round(adg.adg, 1))} g/day) shows no growth to extrapolate` };
  const fit: WeightFit = {
    ...emptyFit('linear_adg', s),
    weighings: ws.length,
    lastWeighing: { ...last },
    adgGramsPerDay: figure(adg.adg, 'g/day', 1),
    confidence: 'low',
  };
  return {
    fit,
    maxAge: Number.POSITIVE_INFINITY,
    assumptions: [`${why}: the ADG between ${adg.from} (${fmt(round(adg.adg, 1))} g/day) extrapolated in a straight line`],
    weightAt: (age) => last.grams + adg.adg * (age - last.ageDays),
    outside: () => '',
  };
}

function weightModel(inputs: CycleInputs, config: AnalyticsSections): Model | { reason: string } {
  const s = findBreedStandard(inputs.cycle.breed, inputs.cycle.birdType);
  const ws = agedWeighings(inputs);
  if (!s?.series.some((x) => x.key === 'bodyWeight')) return linearModel(inputs, config, s, ws, noStandardReason(inputs.cycle.breed, inputs.cycle.birdType));
  const points = ws.flatMap((w) => {
    const std = standardWeightGrams(s, w.ageDays);
    return std ? [{ ageDays: w.ageDays, actual: w.grams, standard: std.grams }] : [];
  });
  const fitted = fitRatio(points);
  if (!fitted) {
    if (ws.length) return linearModel(inputs, config, s, ws, `no weighing within the ${s.name} weight table`);
    const fit: WeightFit = { ...emptyFit('breed_curve', s), ratio: figure(1, INDEX, RATIO_DIGITS), confidence: 'low' };
    return curveModel(s, 1, fit, [`no weighing yet: the ${s.name} standard curve itself`]);
  }
  const last = ws.filter((w) => standardWeightGrams(s, w.ageDays)).at(-1)!;
  const fit: WeightFit = {
    method: 'breed_curve_scaled',
    standard: standardRef(s),
    ratio: figure(fitted.ratio, INDEX, RATIO_DIGITS),
    weighings: fitted.n,
    lastWeighing: { ...last },
    residualRmsGrams: figure(fitted.rmsGrams, 'g', 1),
    residualRmsPct: figure(fitted.rmsPct, '%', 2),
    adgGramsPerDay: missing('g/day', ADG_NOT_USED.breed_curve_scaled),
    confidence: fitConfidence(fitted.n, fitted.rmsPct),
  };
  return curveModel(s, fitted.ratio, fit, [
    `${s.name} weight curve scaled by ${fmt(round(fitted.ratio, 4))} (weighted least squares over ${fitted.n} weighing${fitted.n === 1 ? '' : 's'}, half-life ${FIT_HALF_LIFE_DAYS} days)`,
  ]);
}

function atTargetAge(inputs: CycleInputs, model: Model, targetAge: number | null): WeightPrediction['atTargetAge'] {
  if (targetAge === null) return { ageDays: null, date: null, weight: missing('g', 'no target age (the cycle has no targetAgeDays and none was asked for)') };
  const grams = model.weightAt(targetAge);
  return {
    ageDays: targetAge,
    date: dateOfAge(inputs.cycle, targetAge),
    weight: grams === null ? missing('g', model.outside(targetAge)) : figure(grams, 'g', 1, model.assumptions),
  };
}

function targetWeightReached(inputs: CycleInputs, model: Model, target: number | null, ws: readonly AgedWeighing[]): WeightPrediction['targetWeight'] {
  if (target === null)
    return { grams: null, reached: false, ageDays: null, date: null, reason: 'no target weight (the cycle has no targetWeightGrams and none was asked for)' };
  const hit = ws.find((w) => w.grams >= target);
  if (hit) return { grams: target, reached: true, ageDays: hit.ageDays, date: hit.date };
  const from = (model.fit.lastWeighing?.ageDays ?? -1) + 1;
  const to = Number.isFinite(model.maxAge) ? model.maxAge : from + 3650;
  for (let age = from; age <= to; age++) {
    const g = model.weightAt(age);
    if (g !== null && g >= target) return { grams: target, reached: false, ageDays: age, date: dateOfAge(inputs.cycle, age) };
  }
  return {
    grams: target,
    reached: false,
    ageDays: null,
    date: null,
    reason: Number.isFinite(model.maxAge)
      ? `the fitted curve stays below ${fmt(target)} g up to day ${model.maxAge}, the end of the standard's table (no extrapolation)`
      : `not reached within ten years at the recent ADG`,
  };
}

/** Weight at the target age and the date the target weight is reached (see the module note). */
export function predictWeight(inputs: CycleInputs, config: AnalyticsSections, options: PredictionOptions = {}): WeightPrediction {
  const targetAge = options.targetAgeDays ?? inputs.cycle.targetAgeDays;
  const target = options.targetWeightGrams ?? inputs.cycle.targetWeightGrams;
  const model = weightModel(inputs, config);
  if ('reason' in model) {
    const s = findBreedStandard(inputs.cycle.breed, inputs.cycle.birdType);
    return {
      fit: emptyFit('none', s),
      atTargetAge: { ageDays: targetAge, date: targetAge === null ? null : dateOfAge(inputs.cycle, targetAge), weight: missing('g', model.reason) },
      targetWeight: { grams: target, reached: false, ageDays: null, date: null, reason: model.reason },
      assumptions: [],
      reason: model.reason,
    };
  }
  return {
    fit: model.fit,
    atTargetAge: atTargetAge(inputs, model, targetAge),
    targetWeight: targetWeightReached(inputs, model, target, agedWeighings(inputs)),
    assumptions: model.assumptions,
  };
}

// ---------------------------------------------------------------------------------------------------
// Layer production

const BASIS_DAYS = 7;

function basisOf(rows: readonly DailyKpis[], s: BreedStandard | null) {
  const basis = rows.slice(-BASIS_DAYS).filter((r) => r.birds.present > 0);
  const eggs = basis.reduce((a, r) => a + r.eggs.collected, 0);
  const henDays = basis.reduce((a, r) => a + r.birds.present, 0);
  const stdRows = s ? basis.filter((r) => standardValue(s, 'henDayPct', r.ageDays)) : [];
  const standardEggs = s && stdRows.length ? stdRows.reduce((a, r) => a + (r.birds.present * standardValue(s, 'henDayPct', r.ageDays)!.value) / 100, 0) : null;
  const actualOnStd = stdRows.reduce((a, r) => a + r.eggs.collected, 0);
  return { basis, eggs, henDays, standardEggs, actualOnStd };
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
  const b = basisOf(rows, s);
  const basisInfo = b.basis.length
    ? {
        from: b.basis[0]!.date,
        to: b.basis.at(-1)!.date,
        eggs: b.eggs,
        henDayPct: b.henDays ? figure((b.eggs / b.henDays) * 100, '%', 2) : missing('%', 'no hens present in the basis days'),
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
  if (!b.eggs || !b.henDays)
    return none(`${noStandardReason(inputs.cycle.breed, inputs.cycle.birdType)} with a hen-day curve, and no eggs in the last ${BASIS_DAYS} days`, hens);
  const recent = (b.eggs / b.henDays) * 100;
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

export interface Predictions {
  weight: WeightPrediction;
  production: ProductionForecast;
}

/** Both predictions of a cycle. */
export function predictions(inputs: CycleInputs, config: AnalyticsSections, options: PredictionOptions = {}, series?: readonly DailyKpis[]): Predictions {
  return { weight: predictWeight(inputs, config, options), production: forecastProduction(inputs, config, options, series) };
}

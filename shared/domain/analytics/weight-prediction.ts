/**
 * Body weight prediction (pure), one half of the predictions (./predictions.ts): the flock's weighings
 * fitted to its breed curve, else the recent ADG extrapolated; the weight at the target age and when the
 * target weight is reached. The fit, its confidence and the fallbacks: docs/analytics-reports.md ("Predictions").
 */
import type { AnalyticsSections } from '../../../schemas/analytics-config.js';
import { agesAt, round, type Confidence } from '../weights.js';
import { findBreedStandard, seriesRangeDays, standardWeightGrams, type BreedStandard } from './breed-standards.js';
import { noStandardReason, standardRef, type StandardRef } from './comparison.js';
import { figure, fmt, missing } from './figures.js';
import type { CycleInputs, Figure, WeighingPoint } from './inputs.js';
import { effectiveWeighings, INDEX, placementWeight, seriesEnd } from './kpis/context.js';
import { dateOfAge } from '../age.js';

/** Recency half-life of the weight fit, days of age. */
export const FIT_HALF_LIFE_DAYS = 7;

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
export const RATIO_DIGITS = 4;
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

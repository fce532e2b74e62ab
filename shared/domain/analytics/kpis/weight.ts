/**
 * Body weight and growth of a day: the weight itself, live weight, ADG, uniformity and CV of the latest
 * weighing, stocking density.
 *
 * - Body weight of a day: the latest weighing on or before it, if at most `fallbacks.carryForwardWeightDays`
 *   old (several weighings on one date: the most confident, then the largest sample), grown to the day
 *   along the breed curve (× standard at the day's age ÷ standard at the weighing's age; carried forward
 *   unchanged without a standard); else the breed standard at that age when
 *   `fallbacks.weightFromBreedStandard`; else null. The figure's assumptions say which.
 * - ADG since placement = (weight − placement weight) ÷ days from the first placement to the weighing's
 *   date (placement weight: ./context.ts). ADG since last weighing = difference of the two latest
 *   weighings ÷ the days between them.
 * - Stocking density = birds alive at the end of the day × weight kg ÷ house m² (and birds ÷ m²).
 */
import type { AnalyticsSections } from '../../../../schemas/analytics-config.js';
import { standardWeightGrams, type BreedStandard } from '../breed-standards.js';
import { figure, missing } from '../figures.js';
import type { Figure, WeighingPoint } from '../inputs.js';
import { D_G, D_KG, D_PCT, PCT, type Context } from './context.js';
import type { DatedFigure, WeightFigure } from './types.js';
import { daysBetween } from '../../../platform/calendar.js';
import { round } from '../../weights.js';

export interface WeightOnDay {
  grams: number | null;
  figure: WeightFigure;
  /** The weighing the day's weight rests on, as measured (the growth since it is an estimate). */
  measured?: { grams: number; date: string };
}

/** The latest weighing on or before `date` (any age), or undefined. */
export function latestWeighingOn(weighings: readonly WeighingPoint[], date: string): WeighingPoint | undefined {
  let found: WeighingPoint | undefined;
  for (const w of weighings) if (w.date <= date) found = w;
  return found;
}

/** What the body weight of a day is taken from, as plain values (the analytics' Context, or a cycle record with the flock's breed). */
export interface WeightBasis {
  /** The latest weighing on or before the day (any age), if any. */
  latest: { date: string; grams: number } | null | undefined;
  /** The flock's breed standard (findBreedStandard), or null. */
  standard: BreedStandard | null;
  /** The flock's breed as recorded (named in the reason when there is no standard). */
  breed: string | null;
  fallbacks: AnalyticsSections['fallbacks'];
}

/** Body weight of a day (see the module note), from plain values: the rule behind `weightOn`. */
/** A weighing's grams at a later age, grown by the standard's ratio of the two ages (null when the standard lacks either). */
function grownAlongStandard(standard: BreedStandard, grams: number, fromAge: number, toAge: number): { grams: number; factor: number } | null {
  const from = standardWeightGrams(standard, fromAge);
  const to = standardWeightGrams(standard, toAge);
  if (!from || !to || from.grams <= 0) return null;
  const factor = round(to.grams / from.grams, 4);
  return { grams: grams * factor, factor };
}

export function weightOfDay(basis: WeightBasis, date: string, ageDays: number): WeightOnDay {
  const { latest, standard, breed, fallbacks: f } = basis;
  const age = latest ? daysBetween(latest.date, date) : null;
  if (latest && age !== null && age <= f.carryForwardWeightDays) {
    if (age === 0) return { grams: latest.grams, figure: { ...figure(latest.grams, 'g', D_G), date: latest.date, source: 'weighing' } };
    const days = `${age} day${age === 1 ? '' : 's'} earlier`;
    // between weighings the flock keeps growing: along the breed curve, scaled to what the scale said
    const grown = standard ? grownAlongStandard(standard, latest.grams, ageDays - age, ageDays) : null;
    if (grown)
      return {
        grams: grown.grams,
        figure: {
          ...figure(grown.grams, 'g', D_G, [
            `estimated from the weighing on ${latest.date} (${days}, ${latest.grams} g) grown along the ${standard!.name} curve: × ${grown.factor} (standard day ${ageDays} ÷ day ${ageDays - age})`,
          ]),
          date: latest.date,
          source: 'weighing',
        },
        measured: { grams: latest.grams, date: latest.date },
      };
    const assumptions = [`weight of the weighing on ${latest.date} (${days}) carried forward (fallbacks.carryForwardWeightDays = ${f.carryForwardWeightDays})`];
    return { grams: latest.grams, figure: { ...figure(latest.grams, 'g', D_G, assumptions), date: latest.date, source: 'weighing' } };
  }
  const noWeighing = latest
    ? `the latest weighing (${latest.date}) is ${age} days old, more than fallbacks.carryForwardWeightDays (${f.carryForwardWeightDays})`
    : 'no weighing yet';
  if (f.weightFromBreedStandard && standard) {
    const std = standardWeightGrams(standard, ageDays);
    if (std) {
      const a = `${noWeighing}: ${standard.name} standard weight at day ${ageDays}${std.interpolated ? ' (interpolated)' : ''} stands in (fallbacks.weightFromBreedStandard)`;
      return { grams: std.grams, figure: { ...figure(std.grams, 'g', D_G, [a]), date, source: 'breed_standard' } };
    }
  }
  const why = !f.weightFromBreedStandard
    ? ''
    : standard
      ? `; the ${standard.name} standard has no weight at day ${ageDays}`
      : `; no breed standard for ${breed ? `breed ${breed}` : 'a flock without a breed'}`;
  return { grams: null, figure: { ...missing('g', `${noWeighing}${why}`), date: null, source: null } };
}

export function weightOn(ctx: Context, date: string, ageDays: number): WeightOnDay {
  return weightOfDay(
    { latest: latestWeighingOn(ctx.weighings, date), standard: ctx.standard, breed: ctx.inputs.cycle.breed, fallbacks: ctx.config.fallbacks },
    date,
    ageDays,
  );
}

/** Birds alive at the end of the day × body weight, kg (0 when no bird is alive). */
export function liveWeightKg(aliveEnd: number, weight: WeightOnDay): Figure {
  if (aliveEnd === 0) return figure(0, 'kg', D_KG);
  if (weight.grams === null) return missing('kg', `no body weight: ${weight.figure.reason}`);
  return figure((aliveEnd * weight.grams) / 1000, 'kg', D_KG, weight.figure.assumptions);
}

/** ADG since placement, g/day: (weight − placement weight) ÷ days from placement to the weight's date. */
export function adgSincePlacement(ctx: Context, weight: WeightOnDay): Figure {
  const p = ctx.placement;
  if (weight.grams === null || weight.figure.date === null) return missing('g/day', `no body weight: ${weight.figure.reason}`);
  if (p.grams === null) return missing('g/day', p.reason);
  const days = daysBetween(p.date, weight.figure.date);
  if (days <= 0) return missing('g/day', 'the weight was taken on (or before) the placement day');
  // growth measured up to the weighing: an estimate of the days since would only repeat the breed curve
  if (weight.measured) return figure((weight.measured.grams - p.grams) / days, 'g/day', D_G, p.assumptions);
  return figure((weight.grams - p.grams) / days, 'g/day', D_G, [...(weight.figure.assumptions ?? []), ...p.assumptions]);
}

/** ADG between the two latest weighings on or before `date` (the latest within the carry-forward window), g/day. */
export function adgSinceLastWeighing(ctx: Context, date: string): Figure {
  const upto = ctx.weighings.filter((w) => w.date <= date);
  const last = upto.at(-1);
  const prev = upto.at(-2);
  if (!last || !prev) return missing('g/day', 'needs two weighings');
  const age = daysBetween(last.date, date);
  if (age > ctx.config.fallbacks.carryForwardWeightDays) {
    return missing(
      'g/day',
      `the latest weighing (${last.date}) is ${age} days old, more than fallbacks.carryForwardWeightDays (${ctx.config.fallbacks.carryForwardWeightDays})`,
    );
  }
  return figure((last.grams - prev.grams) / daysBetween(prev.date, last.date), 'g/day', D_G);
}

/** Stocking density: live kg ÷ m² and birds ÷ m². */
export function stockingDensity(ctx: Context, aliveEnd: number, weight: WeightOnDay): { kg: Figure; birds: Figure } {
  const area = ctx.inputs.cycle.houseAreaM2;
  if (area === null || area <= 0) {
    const why = 'house area unknown (the flock has no house with a usable area)';
    return { kg: missing('kg/m²', why), birds: missing('birds/m²', why) };
  }
  const birds = figure(aliveEnd / area, 'birds/m²', 2);
  if (aliveEnd === 0) return { kg: figure(0, 'kg/m²', 2), birds };
  if (weight.grams === null) return { kg: missing('kg/m²', `no body weight: ${weight.figure.reason}`), birds };
  return { kg: figure((aliveEnd * weight.grams) / 1000 / area, 'kg/m²', 2, weight.figure.assumptions), birds };
}

export function weighingFigure(w: WeighingPoint | undefined, pick: 'uniformityPct' | 'cv'): DatedFigure {
  if (!w) return { ...missing(PCT, 'no weighing yet'), date: null };
  const v = w[pick];
  if (v === null) return { ...missing(PCT, `the latest weighing (${w.date}) has no individual weights`), date: w.date };
  return { ...figure(v, PCT, D_PCT), date: w.date };
}

/**
 * The broiler KPIs of a day: FCR, corrected FCR and EPEF (layers: feed per kg egg and per dozen, ./eggs.ts).
 *
 * - FCR = cumulative feed kg ÷ (birds alive at the end of the day × body weight kg); on the day the flock
 *   is depleted (no bird left at the end of it) the birds that left alive that day (sold, transferred out)
 *   stand for "birds alive", so a closed cycle keeps its final FCR and EPEF.
 * - Corrected FCR = FCR + ratios.correctedFcrPer100Grams × (ratios.correctedFcrReferenceGrams − weight g) ÷ 100.
 * - EPEF = livability % × weight kg × 100 ÷ (age days × FCR), integer.
 */
import type { AnalyticsSections } from '../../../../schemas/analytics-config.js';
import { figure, missing } from '../figures.js';
import type { Figure } from '../inputs.js';
import { BROILERS_ONLY, D_RATIO, INDEX, type Context } from './context.js';
import type { DayBirds } from './types.js';
import type { WeightOnDay } from './weight.js';

/** Birds the live weight is measured on: alive at the end of the day, or on the depletion day the birds that left alive. */
function liveWeightBirds(b: DayBirds): { birds: number; assumptions: string[] } {
  if (b.aliveEnd > 0) return { birds: b.aliveEnd, assumptions: [] };
  const shipped = b.sold + b.transferredOut;
  return shipped > 0
    ? { birds: shipped, assumptions: [`depletion day: the ${shipped} birds shipped alive stand for the birds alive`] }
    : { birds: 0, assumptions: [] };
}

function noBirdsReason(b: DayBirds): string {
  if (b.housed === 0) return 'no birds placed yet';
  return 'no live birds: every bird died or was culled';
}

/** FCR = cumulative feed kg ÷ (birds × weight kg). */
export function fcrOf(cumulativeFeedKg: number, birds: number, weightGrams: number | null, weightFig: Figure, extra: readonly string[] = []): Figure {
  if (weightGrams === null) return missing('kg/kg', `no body weight: ${weightFig.reason}`);
  if (cumulativeFeedKg <= 0) return missing('kg/kg', 'no feed consumption recorded');
  return figure(cumulativeFeedKg / ((birds * weightGrams) / 1000), 'kg/kg', D_RATIO, [...(weightFig.assumptions ?? []), ...extra]);
}

/** Corrected FCR = FCR + per100 × (reference − weight g) ÷ 100 (ratios config), from the unrounded FCR. */
export function correctedFcrOf(fcr: number, weightGrams: number, ratios: AnalyticsSections['ratios']): number {
  return fcr + (ratios.correctedFcrPer100Grams * (ratios.correctedFcrReferenceGrams - weightGrams)) / 100;
}

/** EPEF = livability % × weight kg × 100 ÷ (age days × FCR), from unrounded inputs. */
export function epefOf(livabilityPct: number, weightGrams: number, ageDays: number, fcr: number): number {
  return (livabilityPct * (weightGrams / 1000) * 100) / (ageDays * fcr);
}

interface BroilerFigures {
  fcr: Figure;
  correctedFcr: Figure;
  epef: Figure;
}

export function broilerFigures(
  ctx: Context,
  b: DayBirds,
  cumFeedKg: number,
  weight: WeightOnDay,
  livability: Figure,
  livabilityRaw: number,
  ageDays: number,
): BroilerFigures {
  const w = weight.grams;
  if (!ctx.broiler) return { fcr: missing('kg/kg', BROILERS_ONLY), correctedFcr: missing('kg/kg', BROILERS_ONLY), epef: missing(INDEX, BROILERS_ONLY) };
  const lw = liveWeightBirds(b);
  if (lw.birds === 0) {
    const why = noBirdsReason(b);
    return { fcr: missing('kg/kg', why), correctedFcr: missing('kg/kg', why), epef: missing(INDEX, why) };
  }
  const fcr = fcrOf(cumFeedKg, lw.birds, w, weight.figure, lw.assumptions);
  if (fcr.value === null || w === null) {
    return { fcr, correctedFcr: missing('kg/kg', fcr.reason!), epef: missing(INDEX, fcr.reason!) };
  }
  const rawFcr = cumFeedKg / ((lw.birds * w) / 1000);
  const correctedFcr = figure(correctedFcrOf(rawFcr, w, ctx.config.ratios), 'kg/kg', D_RATIO, fcr.assumptions);
  const epef =
    ageDays <= 0
      ? missing(INDEX, 'EPEF needs an age above 0 days')
      : livability.value === null
        ? missing(INDEX, livability.reason!)
        : figure(epefOf(livabilityRaw, w, ageDays, rawFcr), INDEX, 0, fcr.assumptions);
  return { fcr, correctedFcr, epef };
}

/**
 * The per-hen and per-egg figures of a laying cycle's financials, each with its basis (the division it
 * is, with the numbers it used):
 *
 * - hens housed = birds placed + transferred in (the cycle summary's "housed");
 * - margin per hen housed = margin ÷ hens housed;
 * - feed per hen housed = feed consumed kg ÷ hens housed;
 * - egg mass = Σ eggs × recorded egg weight (the `eggWeightGramsSum` of the collections that gave
 *   `averageEggWeightGrams`) ÷ 1,000, the eggs collected without a weight counted at the weighed eggs'
 *   average (else at `fallbacks.eggWeightGrams`; null without either);
 * - cost per dozen eggs = total cost × 12 ÷ eggs collected; cost per kg of eggs = total cost ÷ egg mass.
 *
 * Layers and breeders only (a broiler cycle answers null with the reason). The cost is the cycle's total,
 * rearing included: the pullet cost its birds carried in, or the cost of rearing them in this cycle.
 */
import type { AnalyticsSections } from '../../../../schemas/analytics-config.js';
import { isLayingType, LAYERS_ONLY } from '../kpis/context.js';
import type { CycleInputs, DayTotals, Figure } from '../inputs.js';
import { fmt, money, perUnit, qty, ratio, sumBy } from './amounts.js';
import type { BasedFigure, LayerFinancials } from './types.js';

const based = (figure: Figure, basis: string): BasedFigure => ({ ...figure, basis });

/** Egg mass in kg: the weighed eggs' grams, and the others at their average (else the configured egg weight). */
export function eggMass(
  days: readonly DayTotals[],
  fallbackGrams: number | null,
): { kg: number | null; basis: string; assumptions: string[]; reason?: string } {
  const eggs = sumBy(days, (d) => d.eggsCollected);
  const weighed = Math.min(
    eggs,
    sumBy(days, (d) => d.eggsWeighed),
  );
  const grams = sumBy(days, (d) => d.eggWeightGramsSum);
  const unweighed = eggs - weighed;
  const basis = `eggs collected × their recorded egg weight: ${fmt(weighed)} eggs weighed, ${fmt(qty(grams / 1000))} kg`;
  if (eggs <= 0) return { kg: null, basis, assumptions: [], reason: 'no eggs collected' };
  if (unweighed <= 0) return { kg: grams / 1000, basis, assumptions: [] };
  const average = weighed > 0 ? grams / weighed : fallbackGrams;
  if (average === null) return { kg: null, basis, assumptions: [], reason: 'no egg weight recorded and fallbacks.eggWeightGrams is null' };
  const source = weighed > 0 ? 'the weighed eggs’ average' : 'fallbacks.eggWeightGrams';
  return {
    kg: (grams + unweighed * average) / 1000,
    basis,
    assumptions: [`${fmt(unweighed)} eggs collected without an egg weight counted at ${fmt(perUnit(average))} g (${source})`],
  };
}

export function layerFinancials(inputs: CycleInputs, config: AnalyticsSections, totalCost: number, margin: number): LayerFinancials {
  const cur = config.pricing.currency;
  const days = inputs.days;
  const hensHoused = sumBy(days, (d) => d.placed + d.transferredIn);
  const eggs = sumBy(days, (d) => d.eggsCollected);
  const feedKg = sumBy(days, (d) => d.feedConsumedKg);
  const units = { margin: `${cur}/hen`, feed: 'kg/hen', mass: 'kg', dozen: `${cur}/dozen`, kgEggs: `${cur}/kg` };
  if (!isLayingType(inputs.cycle.birdType)) {
    const none = (unit: string) => based(ratio(null, unit, LAYERS_ONLY), LAYERS_ONLY);
    return {
      hensHoused,
      marginPerHenHoused: none(units.margin),
      feedPerHenHousedKg: none(units.feed),
      eggMassKg: none(units.mass),
      costPerDozenEggs: none(units.dozen),
      costPerKgEggs: none(units.kgEggs),
    };
  }
  const perHen = `÷ ${fmt(hensHoused)} hens housed (placed + transferred in)`;
  const noHens = 'no hens housed';
  const mass = eggMass(days, config.fallbacks.eggWeightGrams);
  const massKg = mass.kg;
  const costBasis = `total cost ${fmt(money(totalCost))} ${cur}`;
  return {
    hensHoused,
    marginPerHenHoused: based(
      hensHoused > 0 ? ratio(perUnit(margin / hensHoused), units.margin) : ratio(null, units.margin, noHens),
      `margin ${fmt(money(margin))} ${cur} ${perHen}`,
    ),
    feedPerHenHousedKg: based(
      hensHoused > 0 ? ratio(qty(feedKg / hensHoused), units.feed) : ratio(null, units.feed, noHens),
      `feed consumed ${fmt(qty(feedKg))} kg ${perHen}`,
    ),
    eggMassKg: based(ratio(massKg === null ? null : qty(massKg), units.mass, mass.reason, mass.assumptions), mass.basis),
    costPerDozenEggs: based(
      eggs > 0 ? ratio(perUnit((totalCost * 12) / eggs), units.dozen) : ratio(null, units.dozen, 'no eggs collected'),
      `${costBasis} × 12 ÷ ${fmt(eggs)} eggs collected`,
    ),
    costPerKgEggs: based(
      massKg === null || massKg <= 0
        ? ratio(null, units.kgEggs, mass.reason ?? 'no egg mass')
        : ratio(perUnit(totalCost / massKg), units.kgEggs, undefined, mass.assumptions),
      `${costBasis} ÷ ${massKg === null ? 'the egg mass (unknown)' : `${fmt(qty(massKg))} kg of eggs`}`,
    ),
  };
}

/**
 * The revenue lines of a cycle's financials.
 *
 * Revenue
 * - birds: sales with a unitPrice at that price; unpriced sales with a totalWeightKg × pricing.liveWeightPerKg;
 *   unpriced sales without a weight × pricing.birdPerHead.
 * - eggs: sales with a unitPrice at that price; the rest × pricing.eggPerUnit.
 */
import type { PricingConfig } from '../../../../schemas/analytics-config.js';
import type { DayTotals } from '../inputs.js';
import { fmt, line, money, qty, sumBy } from './amounts.js';
import type { BirdSalesBreakdown, FinancialLine } from './types.js';

export function birdRevenue(days: readonly DayTotals[], p: PricingConfig): FinancialLine & { breakdown: BirdSalesBreakdown } {
  const sold = sumBy(days, (d) => d.sold);
  const pricedBirds = sumBy(days, (d) => d.birdsSoldPriced);
  const pricedRevenue = sumBy(days, (d) => d.birdSaleRevenuePriced);
  const weighedKg = sumBy(days, (d) => d.soldWeightKgUnpriced);
  const unweighed = sumBy(days, (d) => d.birdsSoldUnpricedUnweighed);
  const weighedBirds = Math.max(0, sold - pricedBirds - unweighed);
  const weighedRevenue = money(weighedKg * p.liveWeightPerKg);
  const unweighedRevenue = money(unweighed * p.birdPerHead);
  const assumptions: string[] = [];
  if (weighedBirds > 0 || weighedKg > 0)
    assumptions.push(
      `${fmt(weighedBirds)} birds sold without a unitPrice (${fmt(qty(weighedKg))} kg live) priced at the farm’s ${fmt(p.liveWeightPerKg)} ${p.currency}/kg (pricing.liveWeightPerKg)`,
    );
  if (unweighed > 0)
    assumptions.push(
      `${fmt(unweighed)} birds sold without a unitPrice or weight priced at the farm’s ${fmt(p.birdPerHead)} ${p.currency}/bird (pricing.birdPerHead)`,
    );
  return {
    ...line(
      'birds',
      { quantity: pricedBirds, amount: pricedRevenue },
      { quantity: weighedBirds + unweighed, amount: weighedRevenue + unweighedRevenue },
      assumptions,
    ),
    breakdown: {
      pricedBirds,
      pricedRevenue: money(pricedRevenue),
      weighedUnpricedBirds: weighedBirds,
      weighedUnpricedKg: qty(weighedKg),
      weighedUnpricedRevenue: weighedRevenue,
      unweighedUnpricedBirds: unweighed,
      unweighedUnpricedRevenue: unweighedRevenue,
    },
  };
}

export function eggRevenue(days: readonly DayTotals[], p: PricingConfig): FinancialLine {
  const sold = sumBy(days, (d) => d.eggsSold);
  const priced = sumBy(days, (d) => d.eggsSoldPriced);
  const pricedRevenue = sumBy(days, (d) => d.eggSaleRevenuePriced);
  const unpriced = Math.max(0, sold - priced);
  const assumptions =
    unpriced > 0 ? [`${fmt(unpriced)} eggs sold without a unitPrice priced at the farm’s ${fmt(p.eggPerUnit)} ${p.currency}/egg (pricing.eggPerUnit)`] : [];
  return line('eggs', { quantity: priced, amount: pricedRevenue }, { quantity: unpriced, amount: unpriced * p.eggPerUnit }, assumptions);
}

/**
 * The cost lines of a cycle's financials (chicks, feed, water, medication, vaccination, other).
 * How each line is priced: docs/analytics-reports.md ("Financials").
 */
import type { PricingConfig } from '../../../../schemas/analytics-config.js';
import type { DayTotals } from '../inputs.js';
import { birdsAliveByDay, EPSILON_KG, fmt, line, money, perUnit, qty, sumBy, sumRecords } from './amounts.js';
import type { FeedPriceSource, FeedTypeCost, FinancialLine } from './types.js';
import type { FeedDeliveryFact } from '../suppliers.js';

export function chickCost(days: readonly DayTotals[], p: PricingConfig): FinancialLine {
  const placed = sumBy(days, (d) => d.placed);
  const pricedBirds = sumBy(days, (d) => d.birdsPlacedPriced);
  const pricedCost = sumBy(days, (d) => d.birdPlacementCostPriced);
  const unpriced = Math.max(0, placed - pricedBirds);
  // birds transferred in with a unitCost are priced on the pullets line
  const unpricedIn = Math.max(
    0,
    sumBy(days, (d) => d.transferredIn - d.birdsTransferredInPriced),
  );
  const assumptions: string[] = [];
  if (unpriced > 0)
    assumptions.push(`${fmt(unpriced)} birds placed without a unitCost priced at the farm’s ${fmt(p.chickPerBird)} ${p.currency}/bird (pricing.chickPerBird)`);
  if (unpricedIn > 0) assumptions.push(`${fmt(unpricedIn)} birds transferred in carry no chick cost (paid for by the cycle they came from)`);
  return line('birds', { quantity: pricedBirds, amount: pricedCost }, { quantity: unpriced, amount: unpriced * p.chickPerBird }, assumptions);
}

/**
 * Pullets: birds transferred in from another flock at the cost per bird their transfer carried (`unitCost`,
 * the sending cycle's cost so far per bird alive). Transfers without one are on the chicks line's assumptions.
 */
export function pulletCost(days: readonly DayTotals[]): FinancialLine {
  const birds = sumBy(days, (d) => d.birdsTransferredInPriced);
  return line('birds', { quantity: birds, amount: sumBy(days, (d) => d.transferInCostPriced) }, { quantity: 0, amount: 0 }, []);
}

/**
 * Birds transferred out at cost: the cost per bird their transfer carried (`unitCost`) leaves this cycle
 * with them (the receiving cycle counts it as its pullet cost), so the farm does not count it twice.
 * Birds transferred out without one leave their cost here.
 */
export function transferOutCost(days: readonly DayTotals[]): FinancialLine {
  const birds = sumBy(days, (d) => d.birdsTransferredOutPriced);
  const unpriced = Math.max(0, sumBy(days, (d) => d.transferredOut) - birds);
  const assumptions = unpriced > 0 ? [`${fmt(unpriced)} birds transferred out without a unitCost: their cost stays in this cycle`] : [];
  return line('birds', { quantity: birds, amount: sumBy(days, (d) => d.transferOutCostPriced) }, { quantity: 0, amount: 0 }, assumptions);
}

/** Priced kilos and their cost, per feed type. */
export type FeedPrices = ReadonlyMap<string, { kg: number; cost: number }>;

/**
 * The farm's own price of each feed type on `asOf`: the weighted average (cost ÷ kg) of the priced
 * deliveries booked on the farm (without a cycle) dated up to that day.
 */
export function farmFeedPrices(deliveries: readonly FeedDeliveryFact[], asOf: string): FeedPrices {
  const out = new Map<string, { kg: number; cost: number }>();
  for (const d of deliveries) {
    if (d.date > asOf || d.unitPrice === undefined || d.unitPrice === null) continue;
    const t = out.get(d.feedType) ?? { kg: 0, cost: 0 };
    out.set(d.feedType, { kg: t.kg + d.quantityKg, cost: t.cost + d.quantityKg * d.unitPrice });
  }
  return out;
}

/**
 * Feed consumed, priced per feed type: at the average price of the cycle's own priced deliveries of that
 * type (feed delivered as a cycle movement), else at the farm's (`farmFeedPrices`), else at the configured
 * price of the type, else at the configured price of feed.
 */
export function feedCost(days: readonly DayTotals[], p: PricingConfig, farm: FeedPrices = new Map()): FinancialLine & { byType: FeedTypeCost[] } {
  const pricedKg = sumRecords(days, (d) => d.feedDeliveredPricedKgByType);
  const pricedCost = sumRecords(days, (d) => d.feedDeliveredCostByType);
  const consumed = sumRecords(days, (d) => d.feedConsumedKgByType);
  // Consumption the rollups did not attribute to a type: per day, total minus the per-type kilos.
  const untypedKg = sumBy(days, (d) => {
    const typed = Object.values(d.feedConsumedKgByType).reduce((a, b) => a + b, 0);
    const rest = d.feedConsumedKg - typed;
    return rest > EPSILON_KG ? rest : 0;
  });

  const allPricedKg = [...pricedKg.values()].reduce((a, b) => a + b, 0);
  const allPricedCost = [...pricedCost.values()].reduce((a, b) => a + b, 0);

  const byType: FeedTypeCost[] = [];
  const assumptions: string[] = [];
  const fromMovements = { quantity: 0, amount: 0 };
  const fromConfig = { quantity: 0, amount: 0 };

  const value = (feedType: string | null, kg: number) => {
    const delivered = feedType === null ? allPricedKg : (pricedKg.get(feedType) ?? 0);
    const cost = feedType === null ? allPricedCost : (pricedCost.get(feedType) ?? 0);
    const label = feedType === null ? 'feed without a feed type' : feedType;
    let unitPrice: number;
    let priceSource: FeedPriceSource;
    const farmPriced = feedType === null ? sumPrices(farm) : farm.get(feedType);
    let basisKg = 0;
    if (delivered > EPSILON_KG) {
      unitPrice = cost / delivered;
      priceSource = 'deliveries';
      basisKg = delivered;
    } else if (farmPriced && farmPriced.kg > EPSILON_KG) {
      unitPrice = farmPriced.cost / farmPriced.kg;
      priceSource = 'farmDeliveries';
      basisKg = farmPriced.kg;
    } else if (feedType !== null && Object.hasOwn(p.feedPerKgByType, feedType)) {
      unitPrice = p.feedPerKgByType[feedType]!;
      priceSource = 'feedPerKgByType';
      assumptions.push(
        `${fmt(qty(kg))} kg of ${label} priced at the farm’s ${fmt(unitPrice)} ${p.currency}/kg (pricing.feedPerKgByType.${feedType}): no priced ${feedType} delivery in this cycle`,
      );
    } else {
      unitPrice = p.feedPerKg;
      priceSource = 'feedPerKg';
      const why =
        feedType === null ? 'no priced delivery in this cycle' : `no priced ${feedType} delivery in this cycle and no pricing.feedPerKgByType.${feedType}`;
      assumptions.push(`${fmt(qty(kg))} kg of ${label} priced at the farm’s ${fmt(unitPrice)} ${p.currency}/kg (pricing.feedPerKg): ${why}`);
    }
    const amount = money(kg * unitPrice);
    const bucket = priceSource === 'deliveries' || priceSource === 'farmDeliveries' ? fromMovements : fromConfig;
    bucket.quantity += kg;
    bucket.amount += amount;
    byType.push({
      feedType,
      consumedKg: qty(kg),
      unitPrice: perUnit(unitPrice),
      priceSource,
      deliveredPricedKg: qty(basisKg),
      amount,
    });
  };

  for (const [feedType, kg] of [...consumed.entries()].sort(([a], [b]) => a.localeCompare(b))) if (kg > EPSILON_KG) value(feedType, kg);
  if (untypedKg > 0) value(null, untypedKg);
  return { ...line('kg', fromMovements, fromConfig, assumptions), byType };
}

const sumPrices = (prices: FeedPrices) => [...prices.values()].reduce((a, t) => ({ kg: a.kg + t.kg, cost: a.cost + t.cost }), { kg: 0, cost: 0 });

export function waterCost(days: readonly DayTotals[], p: PricingConfig): FinancialLine & { liters: number } {
  const liters = sumBy(days, (d) => d.waterLiters);
  const m3 = liters / 1000;
  const assumptions = liters > 0 ? [`${fmt(qty(liters))} l of water priced at the farm’s ${fmt(p.waterPerM3)} ${p.currency}/m³ (pricing.waterPerM3)`] : [];
  return { ...line('m3', { quantity: 0, amount: 0 }, { quantity: m3, amount: m3 * p.waterPerM3 }, assumptions), liters: qty(liters) };
}

export function medicationCost(days: readonly DayTotals[], p: PricingConfig): FinancialLine {
  const n = sumBy(days, (d) => d.medications);
  const assumptions =
    n > 0 ? [`${fmt(n)} medication treatments priced at the farm’s ${fmt(p.medicationPerTreatment)} ${p.currency} each (pricing.medicationPerTreatment)`] : [];
  return line('treatments', { quantity: 0, amount: 0 }, { quantity: n, amount: n * p.medicationPerTreatment }, assumptions);
}

export function vaccinationCost(days: readonly DayTotals[], p: PricingConfig): FinancialLine & { vaccinations: number } {
  const present = new Map(birdsAliveByDay(days).map((b) => [b.date, b.present]));
  let vaccinations = 0;
  let doses = 0;
  for (const d of days) {
    if (d.vaccinations <= 0) continue;
    vaccinations += d.vaccinations;
    doses += d.vaccinations * (present.get(d.date) ?? 0);
  }
  const assumptions =
    vaccinations > 0
      ? [
          `${fmt(vaccinations)} vaccinations × birds present that day (${fmt(doses)} bird-doses) priced at the farm’s ${fmt(p.vaccinationPerBird)} ${p.currency}/bird (pricing.vaccinationPerBird)`,
        ]
      : [];
  return { ...line('bird-doses', { quantity: 0, amount: 0 }, { quantity: doses, amount: doses * p.vaccinationPerBird }, assumptions), vaccinations };
}

export function otherCost(days: readonly DayTotals[], p: PricingConfig): FinancialLine {
  const placed = sumBy(days, (d) => d.placed);
  const assumptions =
    placed > 0
      ? [`other costs: ${fmt(placed)} birds placed × the default ${fmt(p.otherCostPerBirdPlaced)} ${p.currency}/bird (pricing.otherCostPerBirdPlaced)`]
      : [];
  return line('birds', { quantity: 0, amount: 0 }, { quantity: placed, amount: placed * p.otherCostPerBirdPlaced }, assumptions);
}

/**
 * Cycle financials (GET /api/v2/analytics/financials/{flockId}/{cycleId}): costs and revenue of one
 * cycle from its movements × the `pricing` section of the analytics configuration. Pure: the daily
 * rollups, the configuration and the live weight of the birds still alive in, figures out.
 *
 * A price carried on the movement itself always wins over the configuration (`unitCost` on
 * bird_inflow, `unitPrice` on feed_delivery, bird_sale, egg_sale). Every line says which quantity was
 * priced from movements and which from configuration defaults, and every default that stood in is
 * written out in `assumptions` ("412 kg of grower priced at the default 0.45 USD/kg (pricing.feedPerKg)").
 *
 * Costs
 * - chicks: birds placed with a unitCost at that cost; every other bird placed × pricing.chickPerBird.
 *   Birds transferred in carry no chick cost here (they were bought by the cycle they came from).
 * - feed: feed CONSUMED (not delivered: what was delivered and not eaten is farm stock), per feed type,
 *   valued at the cycle's weighted average delivered price of that type, Σ kg × unitPrice ÷ Σ kg over
 *   the cycle's priced deliveries of that type (counts as priced from movements); when the cycle has no
 *   priced delivery of the type, at pricing.feedPerKgByType[type]; else at pricing.feedPerKg.
 *   Consumption without a feed type (a day whose feedConsumedKg exceeds the sum of its per-type kg) is
 *   valued at the average price of ALL the cycle's priced deliveries, else at pricing.feedPerKg.
 * - water: litres ÷ 1,000 × pricing.waterPerM3.
 * - medication: medication movements × pricing.medicationPerTreatment.
 * - vaccination: for each vaccination movement, the birds present that day × pricing.vaccinationPerBird.
 *   Birds present on a day = birds alive at the start of the day + that day's placements and transfers
 *   in (the day's deaths, culls, sales and transfers out are not subtracted: the rollup does not say
 *   whether they happened before or after the vaccination, and vaccine is bought for the house).
 * - other: birds placed × pricing.otherCostPerBirdPlaced.
 *
 * Revenue
 * - birds: sales with a unitPrice at that price; unpriced sales with a totalWeightKg × pricing.liveWeightPerKg;
 *   unpriced sales without a weight × pricing.birdPerHead.
 * - eggs: sales with a unitPrice at that price; the rest × pricing.eggPerUnit.
 *
 * Ratios
 * - margin = revenue − cost; margin % = margin ÷ revenue × 100 (null without revenue). The value of birds
 *   or eggs still on the farm is not revenue.
 * - kg produced = live kg sold (Σ totalWeightKg of every bird_sale that recorded one, priced or not) +
 *   live kg still alive at `asOf` (`liveWeight.kg`: birds alive × mean body weight, from the KPI engine).
 *   Dead and culled birds produce no kg; birds transferred out leave with their kg uncounted. Null when
 *   birds are alive and their live weight is unknown, or when birds were sold without a recorded weight
 *   (their kg would be missing and the cost per kg overstated).
 * - cost per kg liveweight = total cost ÷ kg produced; cost per bird placed = total cost ÷ birds housed
 *   (placed + transferred in, as the cycle summary counts them); cost per egg = total cost ÷ eggs collected
 *   (null when no eggs were collected: broilers); cost per tray = cost per egg × unitConversions.eggsPerTray;
 *   feed cost share % = feed cost ÷ total cost × 100.
 *
 * Rounding: money to cents (2 decimals), each line rounded first and totals summed from the rounded
 * lines (so lines add up to totals exactly); per-unit figures (unit prices, cost per kg/bird/egg/tray)
 * to 4 decimals; percentages, bags and trays to 2 decimals; quantities to 4 decimals.
 */
import type { AnalyticsSections, PricingConfig } from '../../../schemas/analytics-config.js';
import { round } from '../weights.js';
import { fmt as formatNumber } from './figures.js';
import type { CycleInputs, DayTotals, Figure } from './inputs.js';

// ---------------------------------------------------------------------------------------------------
// Output types (JSON-ready)

/** One cost or revenue line: its amount, the quantity it prices, and how much came from movement prices vs the configuration. */
export interface FinancialLine {
  /** Amount in `currency`, cents. */
  amount: number;
  /** The quantity priced (in `unit`). */
  quantity: number;
  /** What `quantity` counts: birds, kg, m3, treatments, bird-doses, eggs. */
  unit: string;
  /** Quantity priced with prices carried on the movements. */
  pricedFromMovements: number;
  /** Quantity priced with configuration defaults. */
  pricedFromConfig: number;
  amountFromMovements: number;
  amountFromConfig: number;
  /** amount ÷ quantity (4 decimals); null when the quantity is 0. */
  averageUnitPrice: number | null;
  /** The configuration defaults that stood in for missing prices on this line. */
  assumptions: string[];
}

export type FeedPriceSource = 'deliveries' | 'feedPerKgByType' | 'feedPerKg';

/** Feed consumed of one type and how it was valued. */
export interface FeedTypeCost {
  /** null: consumption recorded without a feed type. */
  feedType: string | null;
  consumedKg: number;
  /** Price per kg used (4 decimals). */
  unitPrice: number;
  /** deliveries: the cycle's average delivered price (of this type; of all types for untyped consumption); else the pricing config key. */
  priceSource: FeedPriceSource;
  /** Priced kg delivered that the average stands on (0 unless priceSource is deliveries). */
  deliveredPricedKg: number;
  amount: number;
}

export interface BirdSalesBreakdown {
  pricedBirds: number;
  pricedRevenue: number;
  /** Unpriced sales with a totalWeightKg: birds, kg and revenue at pricing.liveWeightPerKg. */
  weighedUnpricedBirds: number;
  weighedUnpricedKg: number;
  weighedUnpricedRevenue: number;
  /** Unpriced sales without a weight: birds and revenue at pricing.birdPerHead. */
  unweighedUnpricedBirds: number;
  unweighedUnpricedRevenue: number;
}

export interface KgProduced extends Figure {
  /** Live kg of the sales that recorded totalWeightKg. */
  soldKg: number;
  /** Live kg of the birds alive at asOf (null: unknown). */
  aliveKg: number | null;
  birdsAlive: number;
  /** Birds sold without a recorded weight, as far as the rollups tell (see the module doc). */
  birdsSoldUnweighed: number;
}

export interface CycleFinancials {
  currency: string;
  costs: {
    chicks: FinancialLine;
    feed: FinancialLine & { byType: FeedTypeCost[] };
    water: FinancialLine & { liters: number };
    medication: FinancialLine;
    vaccination: FinancialLine & { vaccinations: number };
    other: FinancialLine;
    total: number;
  };
  revenue: {
    birds: FinancialLine & { breakdown: BirdSalesBreakdown };
    eggs: FinancialLine;
    total: number;
  };
  margin: Figure;
  marginPct: Figure;
  kgProduced: KgProduced;
  costPerKgLiveweight: Figure;
  costPerBirdPlaced: Figure;
  costPerEgg: Figure;
  costPerTray: Figure;
  feedCostSharePct: Figure;
  /** Feed in bags and eggs in trays (unitConversions.feedBagKg, eggsPerTray), 2 decimals. */
  quantities: {
    feedBagKg: number;
    feedDeliveredKg: number;
    feedDeliveredBags: number;
    feedConsumedKg: number;
    feedConsumedBags: number;
    eggsPerTray: number;
    eggsCollected: number;
    eggsCollectedTrays: number;
    eggsSold: number;
    eggsSoldTrays: number;
  };
  /** Every assumption of every line, in line order, then those of the ratios. */
  assumptions: string[];
}

/** The live weight of the birds alive at asOf (from the KPI engine); reason/assumptions are passed through. */
export interface LiveWeightInput {
  kg: number | null;
  reason?: string;
  assumptions?: string[];
}

// ---------------------------------------------------------------------------------------------------
// Helpers

/** Numbers in assumptions, up to 4 decimals (prices such as 0.0325 USD/egg). */
const fmt = (n: number): string => formatNumber(n, 4);

const money = (n: number) => round(n, 2);
const perUnit = (n: number) => round(n, 4);
const qty = (n: number) => round(n, 4);
/** Kilos summed from floats: below a milligram is noise. */
const EPSILON_KG = 1e-6;

function sumBy(days: readonly DayTotals[], pick: (d: DayTotals) => number): number {
  return days.reduce((a, d) => a + pick(d), 0);
}

function sumRecords(days: readonly DayTotals[], pick: (d: DayTotals) => Record<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const d of days) for (const [k, v] of Object.entries(pick(d))) out.set(k, (out.get(k) ?? 0) + v);
  return out;
}

/** Birds alive per movement day: at the start of the day, present during it (start + arrivals), at its end. */
export interface BirdsOnDay {
  date: string;
  start: number;
  present: number;
  end: number;
}

/**
 * Birds alive per day from the ledger (placed + transferred in − deaths − culls − sold − transferred out),
 * for the dates in `days` (sorted by date; days without movements change nothing; never below zero).
 * Valid when `days` starts at the cycle's first movement; `opening` is the count before the first day
 * otherwise. Same counting as the KPI engine's DayBirds (present = alive at the start + arrivals).
 */
export function birdsAliveByDay(days: readonly DayTotals[], opening = 0): BirdsOnDay[] {
  let alive = opening;
  return [...days]
    .sort((a, b) => a.date.localeCompare(b.date))
    .map((d) => {
      const start = alive;
      const present = start + d.placed + d.transferredIn;
      alive = Math.max(0, present - d.deaths - d.culls - d.sold - d.transferredOut);
      return { date: d.date, start, present, end: alive };
    });
}

function line(
  unit: string,
  fromMovements: { quantity: number; amount: number },
  fromConfig: { quantity: number; amount: number },
  assumptions: string[],
): FinancialLine {
  const amountFromMovements = money(fromMovements.amount);
  const amountFromConfig = money(fromConfig.amount);
  const amount = money(amountFromMovements + amountFromConfig);
  const quantity = qty(fromMovements.quantity + fromConfig.quantity);
  return {
    amount,
    quantity,
    unit,
    pricedFromMovements: qty(fromMovements.quantity),
    pricedFromConfig: qty(fromConfig.quantity),
    amountFromMovements,
    amountFromConfig,
    averageUnitPrice: quantity > 0 ? perUnit(amount / quantity) : null,
    assumptions,
  };
}

const ratio = (value: number | null, unit: string, reason?: string, assumptions?: string[]): Figure => ({
  value,
  unit,
  ...(reason !== undefined ? { reason } : {}),
  ...(assumptions?.length ? { assumptions } : {}),
});

// ---------------------------------------------------------------------------------------------------
// Lines

function chickCost(days: readonly DayTotals[], p: PricingConfig): FinancialLine {
  const placed = sumBy(days, (d) => d.placed);
  const pricedBirds = sumBy(days, (d) => d.birdsPlacedPriced);
  const pricedCost = sumBy(days, (d) => d.birdPlacementCostPriced);
  const unpriced = Math.max(0, placed - pricedBirds);
  const transferredIn = sumBy(days, (d) => d.transferredIn);
  const assumptions: string[] = [];
  if (unpriced > 0)
    assumptions.push(`${fmt(unpriced)} birds placed without a unitCost priced at the default ${fmt(p.chickPerBird)} ${p.currency}/bird (pricing.chickPerBird)`);
  if (transferredIn > 0) assumptions.push(`${fmt(transferredIn)} birds transferred in carry no chick cost (paid for by the cycle they came from)`);
  return line('birds', { quantity: pricedBirds, amount: pricedCost }, { quantity: unpriced, amount: unpriced * p.chickPerBird }, assumptions);
}

function feedCost(days: readonly DayTotals[], p: PricingConfig): FinancialLine & { byType: FeedTypeCost[] } {
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
    if (delivered > EPSILON_KG) {
      unitPrice = cost / delivered;
      priceSource = 'deliveries';
    } else if (feedType !== null && Object.hasOwn(p.feedPerKgByType, feedType)) {
      unitPrice = p.feedPerKgByType[feedType]!;
      priceSource = 'feedPerKgByType';
      assumptions.push(
        `${fmt(qty(kg))} kg of ${label} priced at the default ${fmt(unitPrice)} ${p.currency}/kg (pricing.feedPerKgByType.${feedType}): no priced ${feedType} delivery in this cycle`,
      );
    } else {
      unitPrice = p.feedPerKg;
      priceSource = 'feedPerKg';
      const why =
        feedType === null ? 'no priced delivery in this cycle' : `no priced ${feedType} delivery in this cycle and no pricing.feedPerKgByType.${feedType}`;
      assumptions.push(`${fmt(qty(kg))} kg of ${label} priced at the default ${fmt(unitPrice)} ${p.currency}/kg (pricing.feedPerKg): ${why}`);
    }
    const amount = money(kg * unitPrice);
    const bucket = priceSource === 'deliveries' ? fromMovements : fromConfig;
    bucket.quantity += kg;
    bucket.amount += amount;
    byType.push({
      feedType,
      consumedKg: qty(kg),
      unitPrice: perUnit(unitPrice),
      priceSource,
      deliveredPricedKg: priceSource === 'deliveries' ? qty(delivered) : 0,
      amount,
    });
  };

  for (const [feedType, kg] of [...consumed.entries()].sort(([a], [b]) => a.localeCompare(b))) if (kg > EPSILON_KG) value(feedType, kg);
  if (untypedKg > 0) value(null, untypedKg);
  return { ...line('kg', fromMovements, fromConfig, assumptions), byType };
}

function waterCost(days: readonly DayTotals[], p: PricingConfig): FinancialLine & { liters: number } {
  const liters = sumBy(days, (d) => d.waterLiters);
  const m3 = liters / 1000;
  const assumptions = liters > 0 ? [`${fmt(qty(liters))} l of water priced at the default ${fmt(p.waterPerM3)} ${p.currency}/m³ (pricing.waterPerM3)`] : [];
  return { ...line('m3', { quantity: 0, amount: 0 }, { quantity: m3, amount: m3 * p.waterPerM3 }, assumptions), liters: qty(liters) };
}

function medicationCost(days: readonly DayTotals[], p: PricingConfig): FinancialLine {
  const n = sumBy(days, (d) => d.medications);
  const assumptions =
    n > 0 ? [`${fmt(n)} medication treatments priced at the default ${fmt(p.medicationPerTreatment)} ${p.currency} each (pricing.medicationPerTreatment)`] : [];
  return line('treatments', { quantity: 0, amount: 0 }, { quantity: n, amount: n * p.medicationPerTreatment }, assumptions);
}

function vaccinationCost(days: readonly DayTotals[], p: PricingConfig): FinancialLine & { vaccinations: number } {
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
          `${fmt(vaccinations)} vaccinations × birds present that day (${fmt(doses)} bird-doses) priced at the default ${fmt(p.vaccinationPerBird)} ${p.currency}/bird (pricing.vaccinationPerBird)`,
        ]
      : [];
  return { ...line('bird-doses', { quantity: 0, amount: 0 }, { quantity: doses, amount: doses * p.vaccinationPerBird }, assumptions), vaccinations };
}

function otherCost(days: readonly DayTotals[], p: PricingConfig): FinancialLine {
  const placed = sumBy(days, (d) => d.placed);
  const assumptions =
    placed > 0
      ? [`other costs: ${fmt(placed)} birds placed × the default ${fmt(p.otherCostPerBirdPlaced)} ${p.currency}/bird (pricing.otherCostPerBirdPlaced)`]
      : [];
  return line('birds', { quantity: 0, amount: 0 }, { quantity: placed, amount: placed * p.otherCostPerBirdPlaced }, assumptions);
}

function birdRevenue(days: readonly DayTotals[], p: PricingConfig): FinancialLine & { breakdown: BirdSalesBreakdown } {
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
      `${fmt(weighedBirds)} birds sold without a unitPrice (${fmt(qty(weighedKg))} kg live) priced at the default ${fmt(p.liveWeightPerKg)} ${p.currency}/kg (pricing.liveWeightPerKg)`,
    );
  if (unweighed > 0)
    assumptions.push(
      `${fmt(unweighed)} birds sold without a unitPrice or weight priced at the default ${fmt(p.birdPerHead)} ${p.currency}/bird (pricing.birdPerHead)`,
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

function eggRevenue(days: readonly DayTotals[], p: PricingConfig): FinancialLine {
  const sold = sumBy(days, (d) => d.eggsSold);
  const priced = sumBy(days, (d) => d.eggsSoldPriced);
  const pricedRevenue = sumBy(days, (d) => d.eggSaleRevenuePriced);
  const unpriced = Math.max(0, sold - priced);
  const assumptions =
    unpriced > 0 ? [`${fmt(unpriced)} eggs sold without a unitPrice priced at the default ${fmt(p.eggPerUnit)} ${p.currency}/egg (pricing.eggPerUnit)`] : [];
  return line('eggs', { quantity: priced, amount: pricedRevenue }, { quantity: unpriced, amount: unpriced * p.eggPerUnit }, assumptions);
}

// ---------------------------------------------------------------------------------------------------

/** Costs, revenue, margin and unit costs of one cycle (see the module doc for every rule). */
export function cycleFinancials(inputs: CycleInputs, config: AnalyticsSections, liveWeight: LiveWeightInput): CycleFinancials {
  const p = config.pricing;
  const u = config.unitConversions;
  const cur = p.currency;
  const days = [...inputs.days].sort((a, b) => a.date.localeCompare(b.date));

  const chicks = chickCost(days, p);
  const feed = feedCost(days, p);
  const water = waterCost(days, p);
  const medication = medicationCost(days, p);
  const vaccination = vaccinationCost(days, p);
  const other = otherCost(days, p);
  const totalCost = money(chicks.amount + feed.amount + water.amount + medication.amount + vaccination.amount + other.amount);

  const birds = birdRevenue(days, p);
  const eggs = eggRevenue(days, p);
  const totalRevenue = money(birds.amount + eggs.amount);

  const margin = money(totalRevenue - totalCost);
  const marginPct = totalRevenue > 0 ? ratio(round((margin / totalRevenue) * 100, 2), '%') : ratio(null, '%', 'no revenue: nothing sold yet');

  // kg produced
  const ledger = birdsAliveByDay(days);
  const birdsAlive = ledger.length ? ledger[ledger.length - 1]!.end : 0;
  const soldKg = sumBy(days, (d) => d.soldWeightKg);
  const pricedBirdsSold = birds.breakdown.pricedBirds;
  const pricedSoldKg = soldKg - sumBy(days, (d) => d.soldWeightKgUnpriced);
  // Unweighed sales the rollups can see: unpriced ones (counted), and priced ones when no priced sale recorded a weight at all.
  const birdsSoldUnweighed = birds.breakdown.unweighedUnpricedBirds + (pricedBirdsSold > 0 && pricedSoldKg <= EPSILON_KG ? pricedBirdsSold : 0);
  const liveAssumptions = liveWeight.assumptions ?? [];
  const aliveKg = liveWeight.kg !== null ? liveWeight.kg : birdsAlive === 0 ? 0 : null;
  let kgProduced: KgProduced;
  const kgBase = { unit: 'kg', soldKg: qty(soldKg), aliveKg: aliveKg === null ? null : qty(aliveKg), birdsAlive, birdsSoldUnweighed };
  if (aliveKg === null) {
    kgProduced = { ...kgBase, value: null, reason: liveWeight.reason ?? `live weight of the ${fmt(birdsAlive)} birds alive is unknown (no usable weighing)` };
  } else if (birdsSoldUnweighed > 0) {
    kgProduced = { ...kgBase, value: null, reason: `${fmt(birdsSoldUnweighed)} birds were sold without a recorded weight: kg produced is unknown` };
  } else {
    kgProduced = { ...kgBase, value: qty(soldKg + aliveKg) };
  }
  if (liveAssumptions.length) kgProduced.assumptions = liveAssumptions;

  let costPerKgLiveweight: Figure;
  if (kgProduced.value === null) costPerKgLiveweight = ratio(null, `${cur}/kg`, kgProduced.reason, liveAssumptions);
  else if (kgProduced.value <= 0) costPerKgLiveweight = ratio(null, `${cur}/kg`, 'no kg produced: no bird sold with a weight and none alive');
  else costPerKgLiveweight = ratio(perUnit(totalCost / kgProduced.value), `${cur}/kg`, undefined, liveAssumptions);

  const housed = sumBy(days, (d) => d.placed + d.transferredIn);
  const costPerBirdPlaced = housed > 0 ? ratio(perUnit(totalCost / housed), `${cur}/bird`) : ratio(null, `${cur}/bird`, 'no birds placed');

  const eggsCollected = sumBy(days, (d) => d.eggsCollected);
  const costPerEggValue = eggsCollected > 0 ? totalCost / eggsCollected : null;
  const costPerEgg = costPerEggValue !== null ? ratio(perUnit(costPerEggValue), `${cur}/egg`) : ratio(null, `${cur}/egg`, 'no eggs collected');
  const costPerTray =
    costPerEggValue !== null ? ratio(perUnit(costPerEggValue * u.eggsPerTray), `${cur}/tray`) : ratio(null, `${cur}/tray`, 'no eggs collected');
  const feedCostSharePct = totalCost > 0 ? ratio(round((feed.amount / totalCost) * 100, 2), '%') : ratio(null, '%', 'no costs');

  const feedDeliveredKg = sumBy(days, (d) => d.feedDeliveredKg);
  const feedConsumedKg = sumBy(days, (d) => d.feedConsumedKg);
  const eggsSold = sumBy(days, (d) => d.eggsSold);

  const lineAssumptions = [chicks, feed, water, medication, vaccination, other, birds, eggs].flatMap((l) => l.assumptions);
  return {
    currency: cur,
    costs: { chicks, feed, water, medication, vaccination, other, total: totalCost },
    revenue: { birds, eggs, total: totalRevenue },
    margin: ratio(margin, cur),
    marginPct,
    kgProduced,
    costPerKgLiveweight,
    costPerBirdPlaced,
    costPerEgg,
    costPerTray,
    feedCostSharePct,
    quantities: {
      feedBagKg: u.feedBagKg,
      feedDeliveredKg: qty(feedDeliveredKg),
      feedDeliveredBags: round(feedDeliveredKg / u.feedBagKg, 2),
      feedConsumedKg: qty(feedConsumedKg),
      feedConsumedBags: round(feedConsumedKg / u.feedBagKg, 2),
      eggsPerTray: u.eggsPerTray,
      eggsCollected,
      eggsCollectedTrays: round(eggsCollected / u.eggsPerTray, 2),
      eggsSold,
      eggsSoldTrays: round(eggsSold / u.eggsPerTray, 2),
    },
    assumptions: [...lineAssumptions, ...liveAssumptions],
  };
}

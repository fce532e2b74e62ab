/**
 * A cycle's financials (GET /api/v2/analytics/financials/{flockId}/{cycleId}): the cost lines
 * (./costs.ts) and revenue lines (./revenue.ts) put together with the margin, the kg produced and the
 * unit costs (output shapes: ./types.ts).
 * The ratios and when they are null: docs/analytics-reports.md ("Financials").
 */
import type { AnalyticsSections } from '../../../../schemas/analytics-config.js';
import { round } from '../../weights.js';
import type { CycleInputs, Figure } from '../inputs.js';
import { birdsAliveByDay, EPSILON_KG, fmt, money, perUnit, qty, ratio, sumBy } from './amounts.js';
import type { FeedDeliveryFact } from '../suppliers.js';
import { chickCost, farmFeedPrices, feedCost, medicationCost, otherCost, pulletCost, transferOutCost, vaccinationCost, waterCost } from './costs.js';
import { layerFinancials } from './layer.js';
import { birdRevenue, eggRevenue } from './revenue.js';
import type { CycleFinancials, KgProduced, LiveWeightInput } from './types.js';

/** Costs, revenue, margin and unit costs of one cycle (the rules: the module docs of ./costs.ts, ./revenue.ts and this module). */
export function cycleFinancials(
  inputs: CycleInputs,
  config: AnalyticsSections,
  liveWeight: LiveWeightInput,
  /** The feed deliveries booked on the farm (without a cycle): they price the feed the cycle consumed when it has no priced delivery of its own. */
  farmDeliveries: readonly FeedDeliveryFact[] = [],
): CycleFinancials {
  const p = config.pricing;
  const u = config.unitConversions;
  const cur = p.currency;
  const days = [...inputs.days].sort((a, b) => a.date.localeCompare(b.date));

  const chicks = chickCost(days, p);
  const feed = feedCost(days, p, farmFeedPrices(farmDeliveries, inputs.asOf));
  const water = waterCost(days, p);
  const medication = medicationCost(days, p);
  const vaccination = vaccinationCost(days, p);
  const other = otherCost(days, p);
  const pullets = pulletCost(days);
  const gross = money(chicks.amount + pullets.amount + feed.amount + water.amount + medication.amount + vaccination.amount + other.amount);
  const transferredOut = transferOutCost(days);
  const totalCost = money(gross - transferredOut.amount);

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

  const costPerBirdAlive = {
    ...(birdsAlive > 0 ? ratio(perUnit(totalCost / birdsAlive), `${cur}/bird`) : ratio(null, `${cur}/bird`, 'no bird alive')),
    basis: `total cost ${fmt(totalCost)} ${cur} ÷ ${fmt(birdsAlive)} birds alive`,
  };

  const eggsCollected = sumBy(days, (d) => d.eggsCollected);
  const costPerEggValue = eggsCollected > 0 ? totalCost / eggsCollected : null;
  const costPerEgg = costPerEggValue !== null ? ratio(perUnit(costPerEggValue), `${cur}/egg`) : ratio(null, `${cur}/egg`, 'no eggs collected');
  const costPerTray =
    costPerEggValue !== null ? ratio(perUnit(costPerEggValue * u.eggsPerTray), `${cur}/tray`) : ratio(null, `${cur}/tray`, 'no eggs collected');
  const feedCostSharePct = totalCost > 0 ? ratio(round((feed.amount / totalCost) * 100, 2), '%') : ratio(null, '%', 'no costs');

  const feedDeliveredKg = sumBy(days, (d) => d.feedDeliveredKg);
  const feedConsumedKg = sumBy(days, (d) => d.feedConsumedKg);
  const eggsSold = sumBy(days, (d) => d.eggsSold);

  const lineAssumptions = [chicks, pullets, feed, water, medication, vaccination, other, transferredOut, birds, eggs].flatMap((l) => l.assumptions);
  return {
    currency: cur,
    costs: { chicks, pullets, feed, water, medication, vaccination, other, gross, transferredOut, total: totalCost },
    revenue: { birds, eggs, total: totalRevenue },
    margin: ratio(margin, cur),
    marginPct,
    kgProduced,
    costPerKgLiveweight,
    costPerBirdPlaced,
    costPerBirdAlive,
    costPerEgg,
    costPerTray,
    feedCostSharePct,
    layer: layerFinancials({ ...inputs, days }, config, totalCost, margin),
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

import { describe, expect, it } from 'vitest';
import { ANALYTICS_DEFAULTS, type AnalyticsSections } from '../../schemas/analytics-config.js';
import { birdsAliveByDay } from '../../shared/domain/analytics/financials/amounts.js';
import { cycleFinancials } from '../../shared/domain/analytics/financials/cycle.js';
import { emptyDay, type CycleFacts, type CycleInputs, type DayTotals } from '../../shared/domain/analytics/inputs.js';

/** Every expected number below is worked out by hand in the comment next to it. */

const day = (date: string, fields: Partial<Omit<DayTotals, 'date'>> = {}): DayTotals => ({ ...emptyDay(date), ...fields });

const facts = (birdType: CycleFacts['birdType'], startDate: string): CycleFacts => ({
  cycleId: 'C1',
  flockId: 'F1',
  birdType,
  breed: null,
  hatchDate: startDate,
  startDate,
  endDate: null,
  status: 'active',
  targetAgeDays: null,
  targetWeightGrams: null,
  houseAreaM2: null,
});
const cycle = (days: DayTotals[], birdType: CycleFacts['birdType'] = 'broiler', asOf = '2026-04-10'): CycleInputs => ({
  cycle: facts(birdType, days[0]?.date ?? '2026-03-02'),
  days,
  weighings: [],
  asOf,
});
const config = (pricing: Partial<AnalyticsSections['pricing']> = {}): AnalyticsSections => {
  const c = structuredClone(ANALYTICS_DEFAULTS);
  c.pricing = { ...c.pricing, ...pricing };
  return c;
};

// Defaults (schemas/analytics-config.ts): USD; chick 0.55/bird; feed 0.45/kg; live 1.40/kg; bird 2.50/head; egg 0.12;
// water 1.00/m³; medication 0; vaccine 0.03/bird; other 0/bird. Feed bag 25 kg, tray 30 eggs.

/** A broiler cycle with every kind of price source. */
const broilerDays = [
  day('2026-03-02', {
    placed: 10_000,
    birdsPlacedPriced: 8_000,
    birdPlacementCostPriced: 4_000, // 8,000 chicks at 0.50
    feedDeliveredKg: 4_000,
    feedDeliveredKgByType: { starter: 1_000, grower: 3_000 },
    // starter: 400 kg × 0.50 = 200 and 600 kg × 0.55 = 330 priced; grower 3,000 kg without a price
    feedDeliveredPricedKgByType: { starter: 1_000 },
    feedDeliveredCostByType: { starter: 530 },
    vaccinations: 1,
    waterLiters: 1_000,
  }),
  day('2026-03-03', { deaths: 50, deathsByCause: { unknown: 50 }, feedConsumedKg: 1_000, feedConsumedKgByType: { starter: 1_000 }, waterLiters: 5_000 }),
  // 2,100 kg consumed: 2,000 kg grower + 100 kg recorded without a feed type
  day('2026-03-12', { vaccinations: 1, medications: 2, feedConsumedKg: 2_100, feedConsumedKgByType: { grower: 2_000 }, waterLiters: 30_400 }),
  day('2026-03-20', { feedConsumedKg: 500, feedConsumedKgByType: { finisher: 500 } }),
  day('2026-04-06', {
    sold: 7_000,
    birdsSoldPriced: 4_000,
    birdSaleRevenuePriced: 8_000, // 4,000 birds at 2.00
    soldWeightKg: 16_100,
    soldWeightKgUnpriced: 6_900, // 9,200 kg priced + 6,900 kg of 3,000 unpriced birds
  }),
];

describe('cycleFinancials: reference broiler cycle (movement prices and config defaults mixed)', () => {
  const cfg = config({ feedPerKgByType: { grower: 0.48 }, medicationPerTreatment: 15, otherCostPerBirdPlaced: 0.1 });
  // alive at the end: 10,000 − 50 − 7,000 = 2,950 birds × 2.4 kg = 7,080 kg
  const f = cycleFinancials(cycle(broilerDays), cfg, { kg: 7_080 });

  it('chicks: priced placements at their unitCost, the rest at chickPerBird', () => {
    // 4,000.00 + 2,000 × 0.55 = 1,100.00 → 5,100.00
    expect(f.costs.chicks).toEqual({
      amount: 5_100,
      quantity: 10_000,
      unit: 'birds',
      pricedFromMovements: 8_000,
      pricedFromConfig: 2_000,
      amountFromMovements: 4_000,
      amountFromConfig: 1_100,
      averageUnitPrice: 0.51, // 5,100 ÷ 10,000
      assumptions: ['2,000 birds placed without a unitCost priced at the farm’s 0.55 USD/bird (pricing.chickPerBird)'],
    });
  });

  it('feed: consumed kg per type at the delivered average, else the type price, else feedPerKg; untyped at the overall average', () => {
    // starter: 1,000 kg at the delivered average (400 × 0.50 + 600 × 0.55) ÷ 1,000 = 0.53 → 530.00
    // finisher: 500 kg, no priced delivery, no type price → 0.45 → 225.00
    // grower: 2,000 kg, no priced delivery → pricing.feedPerKgByType.grower 0.48 → 960.00
    // untyped: 100 kg at the average of all priced deliveries 530 ÷ 1,000 = 0.53 → 53.00
    expect(f.costs.feed.byType).toEqual([
      { feedType: 'finisher', consumedKg: 500, unitPrice: 0.45, priceSource: 'feedPerKg', deliveredPricedKg: 0, amount: 225 },
      { feedType: 'grower', consumedKg: 2_000, unitPrice: 0.48, priceSource: 'feedPerKgByType', deliveredPricedKg: 0, amount: 960 },
      { feedType: 'starter', consumedKg: 1_000, unitPrice: 0.53, priceSource: 'deliveries', deliveredPricedKg: 1_000, amount: 530 },
      { feedType: null, consumedKg: 100, unitPrice: 0.53, priceSource: 'deliveries', deliveredPricedKg: 1_000, amount: 53 },
    ]);
    // 530 + 53 = 583.00 from movements on 1,100 kg; 225 + 960 = 1,185.00 from config on 2,500 kg; total 1,768.00 on 3,600 kg
    expect(f.costs.feed).toMatchObject({
      amount: 1_768,
      quantity: 3_600,
      unit: 'kg',
      pricedFromMovements: 1_100,
      pricedFromConfig: 2_500,
      amountFromMovements: 583,
      amountFromConfig: 1_185,
      averageUnitPrice: 0.4911, // 1,768 ÷ 3,600 = 0.49111
    });
    expect(f.costs.feed.assumptions).toEqual([
      '500 kg of finisher priced at the farm’s 0.45 USD/kg (pricing.feedPerKg): no priced finisher delivery in this cycle and no pricing.feedPerKgByType.finisher',
      '2,000 kg of grower priced at the farm’s 0.48 USD/kg (pricing.feedPerKgByType.grower): no priced grower delivery in this cycle',
    ]);
  });

  it('water, medication, vaccination (birds present on the day), other', () => {
    // water: 1,000 + 5,000 + 30,400 = 36,400 l = 36.4 m³ × 1.00 = 36.40
    expect(f.costs.water).toMatchObject({ amount: 36.4, quantity: 36.4, unit: 'm3', liters: 36_400, pricedFromConfig: 36.4, pricedFromMovements: 0 });
    // medication: 2 × 15 = 30.00
    expect(f.costs.medication).toMatchObject({ amount: 30, quantity: 2, unit: 'treatments' });
    // vaccination: 03-02 present 0 + 10,000 placed = 10,000; 03-12 present 10,000 − 50 = 9,950 → 19,950 bird-doses × 0.03 = 598.50
    expect(f.costs.vaccination).toMatchObject({ amount: 598.5, quantity: 19_950, unit: 'bird-doses', vaccinations: 2 });
    // other: 10,000 placed × 0.10 = 1,000.00
    expect(f.costs.other).toMatchObject({ amount: 1_000, quantity: 10_000, unit: 'birds' });
    // total: 5,100 + 1,768 + 36.40 + 30 + 598.50 + 1,000 = 8,532.90
    expect(f.costs.total).toBe(8_532.9);
  });

  it('revenue: priced sales at unitPrice, weighed unpriced sales at liveWeightPerKg', () => {
    // birds: 8,000.00 + 6,900 kg × 1.40 = 9,660.00 → 17,660.00; the 3,000 weighed unpriced birds = 7,000 − 4,000 − 0
    expect(f.revenue.birds).toMatchObject({
      amount: 17_660,
      quantity: 7_000,
      pricedFromMovements: 4_000,
      pricedFromConfig: 3_000,
      amountFromMovements: 8_000,
      amountFromConfig: 9_660,
      breakdown: {
        pricedBirds: 4_000,
        pricedRevenue: 8_000,
        weighedUnpricedBirds: 3_000,
        weighedUnpricedKg: 6_900,
        weighedUnpricedRevenue: 9_660,
        unweighedUnpricedBirds: 0,
        unweighedUnpricedRevenue: 0,
      },
      assumptions: ['3,000 birds sold without a unitPrice (6,900 kg live) priced at the farm’s 1.4 USD/kg (pricing.liveWeightPerKg)'],
    });
    expect(f.revenue.eggs).toMatchObject({ amount: 0, quantity: 0, averageUnitPrice: null, assumptions: [] });
    expect(f.revenue.total).toBe(17_660);
  });

  it('margin, kg produced, unit costs and feed share', () => {
    // margin 17,660 − 8,532.90 = 9,127.10; margin % = 9,127.10 ÷ 17,660 × 100 = 51.6823 → 51.68
    expect(f.margin).toEqual({ value: 9_127.1, unit: 'USD' });
    expect(f.marginPct).toEqual({ value: 51.68, unit: '%' });
    // kg produced = 16,100 kg sold + 7,080 kg alive = 23,180
    expect(f.kgProduced).toEqual({ value: 23_180, unit: 'kg', soldKg: 16_100, aliveKg: 7_080, birdsAlive: 2_950, birdsSoldUnweighed: 0 });
    // 8,532.90 ÷ 23,180 = 0.368114 → 0.3681
    expect(f.costPerKgLiveweight).toEqual({ value: 0.3681, unit: 'USD/kg' });
    // 8,532.90 ÷ 10,000 = 0.85329 → 0.8533
    expect(f.costPerBirdPlaced).toEqual({ value: 0.8533, unit: 'USD/bird' });
    expect(f.costPerEgg).toEqual({ value: null, unit: 'USD/egg', reason: 'no eggs collected' });
    expect(f.costPerTray.value).toBeNull();
    // 1,768 ÷ 8,532.90 × 100 = 20.7198 → 20.72
    expect(f.feedCostSharePct).toEqual({ value: 20.72, unit: '%' });
  });

  it('bags and trays; every assumption listed once, in line order', () => {
    // delivered 4,000 kg ÷ 25 = 160 bags; consumed 3,600 ÷ 25 = 144 bags
    expect(f.quantities).toEqual({
      feedBagKg: 25,
      feedDeliveredKg: 4_000,
      feedDeliveredBags: 160,
      feedConsumedKg: 3_600,
      feedConsumedBags: 144,
      eggsPerTray: 30,
      eggsCollected: 0,
      eggsCollectedTrays: 0,
      eggsSold: 0,
      eggsSoldTrays: 0,
    });
    expect(f.currency).toBe('USD');
    expect(f.assumptions).toEqual([
      '2,000 birds placed without a unitCost priced at the farm’s 0.55 USD/bird (pricing.chickPerBird)',
      '500 kg of finisher priced at the farm’s 0.45 USD/kg (pricing.feedPerKg): no priced finisher delivery in this cycle and no pricing.feedPerKgByType.finisher',
      '2,000 kg of grower priced at the farm’s 0.48 USD/kg (pricing.feedPerKgByType.grower): no priced grower delivery in this cycle',
      '36,400 l of water priced at the farm’s 1 USD/m³ (pricing.waterPerM3)',
      '2 medication treatments priced at the farm’s 15 USD each (pricing.medicationPerTreatment)',
      '2 vaccinations × birds present that day (19,950 bird-doses) priced at the farm’s 0.03 USD/bird (pricing.vaccinationPerBird)',
      'other costs: 10,000 birds placed × the default 0.1 USD/bird (pricing.otherCostPerBirdPlaced)',
      '3,000 birds sold without a unitPrice (6,900 kg live) priced at the farm’s 1.4 USD/kg (pricing.liveWeightPerKg)',
    ]);
  });

  it('lines add up to the totals exactly, and the result is plain JSON', () => {
    const c = f.costs;
    expect(c.chicks.amount + c.feed.amount + c.water.amount + c.medication.amount + c.vaccination.amount + c.other.amount).toBeCloseTo(c.total, 9);
    expect(JSON.parse(JSON.stringify(f))).toEqual(f);
  });
});

describe('cycleFinancials: reference layer cycle with no prices at all (everything from config)', () => {
  const days = [
    day('2026-03-02', { placed: 1_000, feedDeliveredKg: 3_300, feedDeliveredKgByType: { 'layer-mash': 3_300 } }),
    day('2026-03-03', { feedConsumedKg: 1_650, feedConsumedKgByType: { 'layer-mash': 1_650 }, eggsCollected: 12_000, waterLiters: 3_150 }),
    day('2026-03-04', { feedConsumedKg: 1_650, feedConsumedKgByType: { 'layer-mash': 1_650 }, eggsCollected: 13_000, eggsSold: 24_000, waterLiters: 3_150 }),
  ];
  const f = cycleFinancials(cycle(days, 'layer'), structuredClone(ANALYTICS_DEFAULTS), { kg: null });

  it('costs and revenue at the defaults, each with its assumption', () => {
    // chicks 1,000 × 0.55 = 550.00; feed 3,300 kg × 0.45 = 1,485.00; water 6,300 l = 6.3 m³ × 1.00 = 6.30; other 1,000 × 0 = 0
    expect([
      f.costs.chicks.amount,
      f.costs.feed.amount,
      f.costs.water.amount,
      f.costs.medication.amount,
      f.costs.vaccination.amount,
      f.costs.other.amount,
    ]).toEqual([550, 1_485, 6.3, 0, 0, 0]);
    // 550 + 1,485 + 6.30 = 2,041.30
    expect(f.costs.total).toBe(2_041.3);
    // 24,000 eggs × 0.12 = 2,880.00
    expect(f.revenue.eggs).toMatchObject({ amount: 2_880, quantity: 24_000, pricedFromMovements: 0, pricedFromConfig: 24_000, averageUnitPrice: 0.12 });
    for (const l of [f.costs.chicks, f.costs.feed, f.revenue.eggs]) expect(l.pricedFromMovements).toBe(0);
    expect(f.assumptions).toEqual([
      '1,000 birds placed without a unitCost priced at the farm’s 0.55 USD/bird (pricing.chickPerBird)',
      '3,300 kg of layer-mash priced at the farm’s 0.45 USD/kg (pricing.feedPerKg): no priced layer-mash delivery in this cycle and no pricing.feedPerKgByType.layer-mash',
      '6,300 l of water priced at the farm’s 1 USD/m³ (pricing.waterPerM3)',
      'other costs: 1,000 birds placed × the default 0 USD/bird (pricing.otherCostPerBirdPlaced)',
      '24,000 eggs sold without a unitPrice priced at the farm’s 0.12 USD/egg (pricing.eggPerUnit)',
    ]);
  });

  it('cost per egg and tray; margin; cost per kg null because the hens’ live weight is unknown', () => {
    // 2,041.30 ÷ 25,000 eggs = 0.081652 → 0.0817; × 30 = 2.44956 → 2.4496
    expect(f.costPerEgg).toEqual({ value: 0.0817, unit: 'USD/egg' });
    expect(f.costPerTray).toEqual({ value: 2.4496, unit: 'USD/tray' });
    // 2,880 − 2,041.30 = 838.70; 838.70 ÷ 2,880 × 100 = 29.1215 → 29.12
    expect(f.margin.value).toBe(838.7);
    expect(f.marginPct.value).toBe(29.12);
    // 1,485 ÷ 2,041.30 × 100 = 72.7477 → 72.75
    expect(f.feedCostSharePct.value).toBe(72.75);
    expect(f.kgProduced).toMatchObject({
      value: null,
      aliveKg: null,
      birdsAlive: 1_000,
      reason: 'live weight of the 1,000 birds alive is unknown (no usable weighing)',
    });
    expect(f.costPerKgLiveweight).toEqual({ value: null, unit: 'USD/kg', reason: 'live weight of the 1,000 birds alive is unknown (no usable weighing)' });
    // 25,000 ÷ 30 = 833.33 trays collected; 24,000 ÷ 30 = 800 sold; 3,300 ÷ 25 = 132 bags
    expect(f.quantities).toMatchObject({
      eggsCollected: 25_000,
      eggsCollectedTrays: 833.33,
      eggsSold: 24_000,
      eggsSoldTrays: 800,
      feedConsumedBags: 132,
      feedDeliveredBags: 132,
    });
  });

  it('currency and conversions follow the config', () => {
    const cfg = config({ currency: 'EUR' });
    cfg.unitConversions = { ...cfg.unitConversions, eggsPerTray: 20, feedBagKg: 50 };
    const g = cycleFinancials(cycle(days, 'layer'), cfg, { kg: null });
    expect(g.currency).toBe('EUR');
    expect(g.costPerTray).toEqual({ value: 1.633, unit: 'EUR/tray' }); // 0.081652 × 20 = 1.63304 → 1.633
    expect(g.quantities).toMatchObject({ eggsCollectedTrays: 1_250, feedConsumedBags: 66 }); // 25,000 ÷ 20; 3,300 ÷ 50
    expect(g.assumptions[0]).toBe('1,000 birds placed without a unitCost priced at the farm’s 0.55 EUR/bird (pricing.chickPerBird)');
  });
});

describe('cycleFinancials: edge cases', () => {
  it('everything priced on the movements: no price assumptions, cost per kg from sold kg only (none alive)', () => {
    const days = [
      day('2026-03-02', {
        placed: 1_000,
        birdsPlacedPriced: 1_000,
        birdPlacementCostPriced: 400, // 1,000 × 0.40
        feedDeliveredKg: 2_000,
        feedDeliveredKgByType: { starter: 2_000 },
        feedDeliveredPricedKgByType: { starter: 2_000 },
        feedDeliveredCostByType: { starter: 1_000 },
      }),
      day('2026-03-10', { deaths: 50, feedConsumedKg: 1_500, feedConsumedKgByType: { starter: 1_500 } }),
      day('2026-04-05', { sold: 950, birdsSoldPriced: 950, birdSaleRevenuePriced: 2_850, soldWeightKg: 2_280 }), // 950 × 3.00, 2.4 kg each
    ];
    const f = cycleFinancials(cycle(days), config(), { kg: null }); // nobody alive: the unknown live weight does not matter
    // chicks 400.00; feed 1,500 kg × (1,000 ÷ 2,000 = 0.50) = 750.00; other 1,000 × 0 → total 1,150.00
    expect(f.costs.total).toBe(1_150);
    expect(f.costs.chicks).toMatchObject({ pricedFromConfig: 0, pricedFromMovements: 1_000, assumptions: [] });
    expect(f.costs.feed).toMatchObject({ amount: 750, pricedFromConfig: 0, pricedFromMovements: 1_500, assumptions: [] });
    expect(f.revenue.birds).toMatchObject({ amount: 2_850, pricedFromConfig: 0, assumptions: [] });
    // only the config-only line remains an assumption
    expect(f.assumptions).toEqual(['other costs: 1,000 birds placed × the default 0 USD/bird (pricing.otherCostPerBirdPlaced)']);
    // kg produced = 2,280 sold + 0 alive; 1,150 ÷ 2,280 = 0.504386 → 0.5044
    expect(f.kgProduced).toMatchObject({ value: 2_280, soldKg: 2_280, aliveKg: 0, birdsAlive: 0 });
    expect(f.costPerKgLiveweight).toEqual({ value: 0.5044, unit: 'USD/kg' });
    // margin 2,850 − 1,150 = 1,700; 1,700 ÷ 2,850 × 100 = 59.6491 → 59.65
    expect(f.marginPct.value).toBe(59.65);
  });

  it('no sales: revenue 0, margin = −cost, margin % null with a reason', () => {
    const f = cycleFinancials(cycle([day('2026-03-02', { placed: 100 })]), config(), { kg: 4.4 });
    // 100 × 0.55 = 55.00
    expect(f.revenue.total).toBe(0);
    expect(f.margin).toEqual({ value: -55, unit: 'USD' });
    expect(f.marginPct).toEqual({ value: null, unit: '%', reason: 'no revenue: nothing sold yet' });
    // kg produced = 0 sold + 4.4 alive; 55 ÷ 4.4 = 12.5
    expect(f.costPerKgLiveweight.value).toBe(12.5);
    expect(f.costPerBirdPlaced.value).toBe(0.55);
  });

  it('an empty cycle: zeros, and nulls with reasons', () => {
    const f = cycleFinancials(cycle([]), config(), { kg: null });
    expect(f.costs.total).toBe(0);
    expect(f.revenue.total).toBe(0);
    expect(f.costs.feed.byType).toEqual([]);
    expect(f.costs.chicks.averageUnitPrice).toBeNull();
    expect(f.assumptions).toEqual([]);
    expect(f.costPerBirdPlaced).toEqual({ value: null, unit: 'USD/bird', reason: 'no birds placed' });
    expect(f.feedCostSharePct).toEqual({ value: null, unit: '%', reason: 'no costs' });
    expect(f.costPerKgLiveweight).toEqual({ value: null, unit: 'USD/kg', reason: 'no kg produced: no bird sold with a weight and none alive' });
  });

  it('unpriced sales without a weight: priced per head, and kg produced is unknown', () => {
    const days = [day('2026-03-02', { placed: 200 }), day('2026-04-01', { sold: 200, birdsSoldUnpricedUnweighed: 200 })];
    const f = cycleFinancials(cycle(days), config(), { kg: null });
    // 200 × 2.50 = 500.00
    expect(f.revenue.birds).toMatchObject({
      amount: 500,
      pricedFromConfig: 200,
      breakdown: { unweighedUnpricedBirds: 200, unweighedUnpricedRevenue: 500, weighedUnpricedBirds: 0 },
    });
    expect(f.revenue.birds.assumptions).toEqual(['200 birds sold without a unitPrice or weight priced at the farm’s 2.5 USD/bird (pricing.birdPerHead)']);
    expect(f.kgProduced).toMatchObject({
      value: null,
      birdsSoldUnweighed: 200,
      reason: '200 birds were sold without a recorded weight: kg produced is unknown',
    });
    expect(f.costPerKgLiveweight.value).toBeNull();
  });

  it('priced sales none of which recorded a weight also leave kg produced unknown', () => {
    const days = [day('2026-03-02', { placed: 10 }), day('2026-04-01', { sold: 10, birdsSoldPriced: 10, birdSaleRevenuePriced: 30 })];
    const f = cycleFinancials(cycle(days), config(), { kg: null });
    expect(f.kgProduced).toMatchObject({ value: null, birdsSoldUnweighed: 10 });
  });

  it('the live weight’s reason and assumptions are passed through', () => {
    const days = [day('2026-03-02', { placed: 100 })];
    const none = cycleFinancials(cycle(days), config(), { kg: null, reason: 'the latest weighing is 12 days old' });
    expect(none.costPerKgLiveweight).toEqual({ value: null, unit: 'USD/kg', reason: 'the latest weighing is 12 days old' });
    const est = cycleFinancials(cycle(days), config(), { kg: 100, assumptions: ['weight from the breed standard (Ross 308, day 35)'] });
    // 55 ÷ 100 kg = 0.55
    expect(est.costPerKgLiveweight).toEqual({ value: 0.55, unit: 'USD/kg', assumptions: ['weight from the breed standard (Ross 308, day 35)'] });
    expect(est.assumptions.at(-1)).toBe('weight from the breed standard (Ross 308, day 35)');
  });

  it('birds transferred in: no chick cost, but they count as birds housed and are vaccinated', () => {
    const days = [day('2026-03-02', { placed: 900, transferredIn: 100, vaccinations: 1 })];
    const f = cycleFinancials(cycle(days), config(), { kg: null });
    // chicks 900 × 0.55 = 495.00; vaccination 1,000 present × 0.03 = 30.00; total 525.00; per bird housed 525 ÷ 1,000 = 0.525
    expect(f.costs.chicks.amount).toBe(495);
    expect(f.costs.chicks.assumptions[1]).toBe('100 birds transferred in carry no chick cost (paid for by the cycle they came from)');
    expect(f.costs.vaccination.amount).toBe(30);
    expect(f.costPerBirdPlaced.value).toBe(0.525);
  });

  it('untyped consumption with no priced delivery at all falls back to feedPerKg; rounding to cents', () => {
    const days = [day('2026-03-02', { feedConsumedKg: 33.333 })];
    const f = cycleFinancials(cycle(days), config(), { kg: null });
    // 33.333 × 0.45 = 14.99985 → 15.00
    expect(f.costs.feed.byType).toEqual([{ feedType: null, consumedKg: 33.333, unitPrice: 0.45, priceSource: 'feedPerKg', deliveredPricedKg: 0, amount: 15 }]);
    expect(f.costs.feed.assumptions).toEqual([
      '33.333 kg of feed without a feed type priced at the farm’s 0.45 USD/kg (pricing.feedPerKg): no priced delivery in this cycle',
    ]);
  });

  it('days in any order; absent days are zeros', () => {
    const f1 = cycleFinancials(cycle(broilerDays), config(), { kg: 7_080 });
    const f2 = cycleFinancials(cycle([...broilerDays].reverse()), config(), { kg: 7_080 });
    expect(f2).toEqual(f1);
  });
});

describe('birdsAliveByDay', () => {
  it('start, present (start + arrivals) and end of each movement day', () => {
    const days = [
      day('2026-03-03', { deaths: 5, culls: 2 }),
      day('2026-03-02', { placed: 100 }),
      day('2026-03-04', { transferredIn: 10, sold: 20, transferredOut: 3 }),
    ];
    expect(birdsAliveByDay(days)).toEqual([
      { date: '2026-03-02', start: 0, present: 100, end: 100 },
      { date: '2026-03-03', start: 100, present: 100, end: 93 }, // 100 − 5 − 2
      { date: '2026-03-04', start: 93, present: 103, end: 80 }, // 93 + 10 − 20 − 3
    ]);
    expect(birdsAliveByDay([day('2026-03-05', { deaths: 1 })], 50)).toEqual([{ date: '2026-03-05', start: 50, present: 50, end: 49 }]);
  });
});

import { describe, expect, it } from 'vitest';
import { reliabilityScore, SCORE_WEIGHTS, supplierReliability, type FeedDeliveryFact } from '../../shared/domain/analytics/suppliers.js';

/** Every expected number below is worked out by hand in the comment next to it. */

const deliveries: FeedDeliveryFact[] = [
  // agri-feeds
  {
    date: '2026-03-01',
    supplierId: 'agri-feeds',
    feedType: 'starter',
    quantityKg: 5_000,
    orderedDate: '2026-02-25',
    expectedDate: '2026-03-01',
    orderedQuantityKg: 5_000,
    unitPrice: 0.5,
  },
  {
    date: '2026-03-15',
    supplierId: 'agri-feeds',
    feedType: 'grower',
    quantityKg: 4_800,
    orderedDate: '2026-03-10',
    expectedDate: '2026-03-14',
    orderedQuantityKg: 5_000,
    unitPrice: 0.46,
    qualityIssues: ['wet'],
  },
  {
    date: '2026-03-29',
    supplierId: 'agri-feeds',
    feedType: 'finisher',
    quantityKg: 5_200,
    orderedDate: '2026-03-24',
    expectedDate: '2026-03-30',
    orderedQuantityKg: 5_000,
    unitPrice: 0.44,
    qualityIssues: [],
  },
  { date: '2026-04-05', supplierId: 'agri-feeds', feedType: 'finisher', quantityKg: 1_000, qualityIssues: ['mould', 'damaged_bags', 'mould'] },
  // mill-co: never an expected date
  { date: '2026-03-05', supplierId: 'mill-co', feedType: 'starter', quantityKg: 2_000, orderedQuantityKg: 2_000, unitPrice: 0.52 },
  {
    date: '2026-03-20',
    supplierId: 'mill-co',
    feedType: 'grower',
    quantityKg: 2_000,
    orderedQuantityKg: 2_500,
    unitPrice: 0.48,
    qualityIssues: ['contaminated'],
  },
  // no supplier
  { date: '2026-03-10', feedType: 'starter', quantityKg: 500 },
];

/** Figures (docs/analytics.md "Figures"): rates %, means in days, prices in the configured currency per kg, scores `index`. */
const pct = (value: number) => ({ value, unit: '%' });
const days = (value: number) => ({ value, unit: 'days' });
const usdPerKg = (value: number) => ({ value, unit: 'USD/kg' });
const idx = (value: number) => ({ value, unit: 'index' });
const none = (unit: string, reason: string) => ({ value: null, unit, reason });
const NO_EXPECTED = 'no delivery carries an expectedDate';
const NO_PRICE = 'no priced delivery (unitPrice)';

describe('supplierReliability: reference deliveries', () => {
  const report = supplierReliability(deliveries);
  const [agri, mill, unknown] = report.suppliers;

  it('groups by supplier (no supplierId → unknown), most kg first', () => {
    expect(report.suppliers.map((s) => [s.supplierId, s.deliveries, s.kg])).toEqual([
      ['agri-feeds', 4, 16_000], // 5,000 + 4,800 + 5,200 + 1,000
      ['mill-co', 2, 4_000],
      ['unknown', 1, 500],
    ]);
    expect(report.deliveries).toBe(7);
    expect(report.kg).toBe(20_500);
    expect(report.scoreWeights).toEqual({ quality: 0.4, onTime: 0.35, quantity: 0.25 });
  });

  it('agri-feeds: on time, lead time, quantity, quality, price', () => {
    // expected dates on 3 deliveries: 03-01 ≤ 03-01 on time; 03-15 > 03-14 one day late; 03-29 ≤ 03-30 on time → 2 ÷ 3 = 66.67 %
    // lead time (3 with orderedDate): 02-25→03-01 4 days, 03-10→03-15 5, 03-24→03-29 5 → 14 ÷ 3 = 4.67
    expect(agri!.onTime).toEqual({ ratePct: pct(66.67), onTime: 2, late: 1, averageDaysLate: days(1), averageLeadTimeDays: days(4.67) });
    // variances vs ordered (3 with orderedQuantityKg): 0 %, (4,800 − 5,000) ÷ 5,000 = −4 %, +4 % → |·| mean 8 ÷ 3 = 2.67 %; signed mean 0
    expect(agri!.quantity).toEqual({ meanAbsVariancePct: pct(2.67), meanVariancePct: pct(0), shortDeliveries: 1, overDeliveries: 1, exactDeliveries: 1 });
    // 2 of 4 deliveries with an issue (wet; mould + damaged bags, mould counted once) → 50 %
    expect(agri!.quality).toEqual({ issueRatePct: pct(50), deliveriesWithIssues: 2, issuesByKind: { wet: 1, mould: 1, damaged_bags: 1 } });
    // priced: 5,000 × 0.50 + 4,800 × 0.46 + 5,200 × 0.44 = 2,500 + 2,208 + 2,288 = 6,996 ÷ 15,000 kg = 0.4664
    expect(agri!.price).toEqual({ averagePerKg: usdPerKg(0.4664), pricedKg: 15_000 });
    expect(agri!.feedTypes).toEqual({
      starter: { deliveries: 1, kg: 5_000, averagePricePerKg: usdPerKg(0.5) },
      grower: { deliveries: 1, kg: 4_800, averagePricePerKg: usdPerKg(0.46) },
      finisher: { deliveries: 2, kg: 6_200, averagePricePerKg: usdPerKg(0.44) }, // only the priced 5,200 kg
    });
    expect(agri).toMatchObject({ firstDelivery: '2026-03-01', lastDelivery: '2026-04-05' });
    expect(agri!.basis).toEqual({ onTime: 3, leadTime: 3, quantity: 3, quality: 4, price: 3 });
  });

  it('agri-feeds score: all three components', () => {
    // components: on-time 66.67; quantity 100 − 2.6667 = 97.33; quality 100 − 50 = 50
    expect(agri!.components).toEqual({ onTime: idx(66.67), quantity: idx(97.33), quality: idx(50) });
    // 0.35 × 66.67 + 0.25 × 97.33 + 0.40 × 50 = 23.3345 + 24.3325 + 20 = 67.667 → 67.7
    expect(agri!.score).toEqual(idx(67.7));
  });

  it('mill-co: no expected dates → on-time null, score renormalised over quantity and quality', () => {
    expect(mill!.onTime).toEqual({
      ratePct: none('%', NO_EXPECTED),
      onTime: 0,
      late: 0,
      averageDaysLate: none('days', NO_EXPECTED),
      averageLeadTimeDays: none('days', 'no delivery carries an orderedDate'),
    });
    // variances 0 % and (2,000 − 2,500) ÷ 2,500 = −20 % → mean abs 10 %, signed −10 %
    expect(mill!.quantity).toMatchObject({ meanAbsVariancePct: pct(10), meanVariancePct: pct(-10), shortDeliveries: 1, exactDeliveries: 1 });
    expect(mill!.components).toEqual({ onTime: none('index', NO_EXPECTED), quantity: idx(90), quality: idx(50) });
    // (0.25 × 90 + 0.40 × 50) ÷ (0.25 + 0.40) = (22.5 + 20) ÷ 0.65 = 65.3846 → 65.4
    expect(mill!.score).toEqual(idx(65.4));
    // (2,000 × 0.52 + 2,000 × 0.48) ÷ 4,000 = 0.50
    expect(mill!.price.averagePerKg).toEqual(usdPerKg(0.5));
    expect(mill!.basis).toEqual({ onTime: 0, leadTime: 0, quantity: 2, quality: 2, price: 2 });
  });

  it('unknown: only the quality component (no complaint) → 100; nothing priced', () => {
    expect(unknown!.components).toEqual({
      onTime: none('index', NO_EXPECTED),
      quantity: none('index', 'no delivery carries an orderedQuantityKg'),
      quality: idx(100),
    });
    expect(unknown!.score).toEqual(idx(100));
    expect(unknown!.price).toEqual({ averagePerKg: none('USD/kg', NO_PRICE), pricedKg: 0 });
    expect(unknown!.feedTypes).toEqual({ starter: { deliveries: 1, kg: 500, averagePricePerKg: none('USD/kg', NO_PRICE) } });
    expect(unknown!.basis).toEqual({ onTime: 0, leadTime: 0, quantity: 0, quality: 1, price: 0 });
  });

  it('is plain JSON', () => {
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });
});

describe('supplierReliability: edge cases', () => {
  it('no deliveries', () => {
    expect(supplierReliability([])).toEqual({ suppliers: [], deliveries: 0, kg: 0, scoreWeights: { ...SCORE_WEIGHTS } });
  });

  it('a supplier with no expected dates has on-time null even with ordered dates (lead time still reported)', () => {
    const [s] = supplierReliability([
      { date: '2026-03-10', supplierId: 's1', feedType: 'layer', quantityKg: 1_000, orderedDate: '2026-03-03' },
      { date: '2026-03-20', supplierId: 's1', feedType: 'layer', quantityKg: 1_000, orderedDate: '2026-03-17', expectedDate: null },
    ]).suppliers;
    // lead times 7 and 3 → 5
    expect(s!.onTime).toEqual({
      ratePct: none('%', NO_EXPECTED),
      onTime: 0,
      late: 0,
      averageDaysLate: none('days', NO_EXPECTED),
      averageLeadTimeDays: days(5),
    });
    expect(s!.components.onTime).toEqual(none('index', NO_EXPECTED));
    expect(s!.basis).toMatchObject({ onTime: 0, leadTime: 2 });
  });

  it('all late, over-delivered by a lot, every delivery with issues: score 0 floors', () => {
    const [s] = supplierReliability([
      {
        date: '2026-03-10',
        supplierId: 's2',
        feedType: 'grower',
        quantityKg: 2_500,
        expectedDate: '2026-03-05',
        orderedQuantityKg: 1_000,
        qualityIssues: ['wrong_type'],
      },
      {
        date: '2026-03-20',
        supplierId: 's2',
        feedType: 'grower',
        quantityKg: 3_000,
        expectedDate: '2026-03-17',
        orderedQuantityKg: 1_000,
        qualityIssues: ['mould', 'wet'],
      },
    ]).suppliers;
    // days late 5 and 3 → 4; variance +150 % and +200 % → 175 % → quantity max(0, 100 − 175) = 0
    expect(s!.onTime).toMatchObject({ ratePct: pct(0), late: 2, averageDaysLate: days(4) });
    expect(s!.quantity).toMatchObject({ meanAbsVariancePct: pct(175), meanVariancePct: pct(175), overDeliveries: 2 });
    expect(s!.components).toEqual({ onTime: idx(0), quantity: idx(0), quality: idx(0) });
    expect(s!.score).toEqual(idx(0));
    expect(s!.quality.issuesByKind).toEqual({ wrong_type: 1, mould: 1, wet: 1 });
  });

  it('an empty supplierId is unknown; a delivery without supplierId joins the same group', () => {
    const r = supplierReliability([
      { date: '2026-03-10', supplierId: '', feedType: 'starter', quantityKg: 100 },
      { date: '2026-03-11', supplierId: null, feedType: 'starter', quantityKg: 200 },
    ]);
    expect(r.suppliers.map((s) => [s.supplierId, s.deliveries, s.kg])).toEqual([['unknown', 2, 300]]);
  });

  it('equal kg: ordered by supplier id', () => {
    const r = supplierReliability([
      { date: '2026-03-10', supplierId: 'zeta', feedType: 'starter', quantityKg: 100 },
      { date: '2026-03-10', supplierId: 'alpha', feedType: 'starter', quantityKg: 100 },
    ]);
    expect(r.suppliers.map((s) => s.supplierId)).toEqual(['alpha', 'zeta']);
  });

  it('reliabilityScore: weights renormalised over the components with data; null without any', () => {
    expect(reliabilityScore({ onTime: null, quantity: null, quality: null })).toBeNull();
    // on-time only → that component itself
    expect(reliabilityScore({ onTime: 80, quantity: null, quality: null })).toBe(80);
    // (0.35 × 100 + 0.40 × 0) ÷ 0.75 = 46.667 → 46.7
    expect(reliabilityScore({ onTime: 100, quantity: null, quality: 0 })).toBe(46.7);
  });
});

describe('supplierReliability: prices in the configured currency', () => {
  it('the price Figures carry the currency given (the analytics configuration’s pricing.currency)', () => {
    const [s] = supplierReliability([{ date: '2026-03-10', supplierId: 's', feedType: 'starter', quantityKg: 100, unitPrice: 0.61 }], {
      currency: 'EUR',
    }).suppliers;
    expect(s!.price.averagePerKg).toEqual({ value: 0.61, unit: 'EUR/kg' });
    expect(s!.feedTypes.starter!.averagePricePerKg).toEqual({ value: 0.61, unit: 'EUR/kg' });
  });
});

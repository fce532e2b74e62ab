import { describe, expect, it } from 'vitest';
import { effectiveLock, effectsOf, feedTypeFromStock, movementProblems, needsFeedType, netChanges } from '../../shared/domain/ledger.js';
import { copiesOf } from '../../shared/domain/movement-copies.js';
import { ValidationFailed } from '../../shared/errors.js';
import { ZERO_COUNTERS } from '../../shared/domain/cycle-summary.js';
import { headlineKpis } from '../../shared/domain/flock-analytics.js';
import { ANALYTICS_DEFAULTS } from '../../schemas/analytics-config.js';
import { stageOf, checkDailyRecord } from '../../shared/domain/production-stage.js';
import { movementsOfForm, formProblems } from '../../shared/domain/flocks/daily-records.js';
import { ageDays } from '../../shared/platform/calendar.js';

describe('ledger effects', () => {
  it('a mortality removes birds alive and counts a death by cause on the day', () => {
    const changes = netChanges(effectsOf({ type: 'bird_mortality', date: '2026-11-02', quantity: 4, cause: 'heat' }));
    expect(changes).toEqual([
      { target: { kind: 'cycle' }, amounts: { movementCount: 1, deaths: 4, alive: -4 }, requires: { attribute: 'alive', atLeast: 4 } },
      { target: { kind: 'day', date: '2026-11-02' }, amounts: { deaths: 4, 'deathsByCause.heat': 4 } },
    ]);
  });

  it('an edit nets the reversal and the new effects: only the difference must be available', () => {
    const before = { type: 'bird_mortality' as const, date: '2026-11-02', quantity: 5 };
    const after = { ...before, quantity: 7 };
    const [cycle] = netChanges([...effectsOf(before, -1), ...effectsOf(after, 1)]);
    expect(cycle).toEqual({ target: { kind: 'cycle' }, amounts: { deaths: 2, alive: -2 }, requires: { attribute: 'alive', atLeast: 2 } });
    const smaller = netChanges([...effectsOf(after, -1), ...effectsOf(before, 1)]);
    expect(smaller[0]!.requires).toBeUndefined();
  });

  it('feed moves the farm stock; consumption needs the resolved feed type; kilos sum exactly', () => {
    const changes = netChanges([
      ...effectsOf({ type: 'feed_delivery', date: '2026-11-01', feedType: 'starter', quantityKg: 0.1 }),
      ...effectsOf({ type: 'feed_delivery', date: '2026-11-01', feedType: 'starter', quantityKg: 0.2 }),
      ...effectsOf({ type: 'feed_consumption', date: '2026-11-01', quantityKg: 0.3 }, 1, 'starter'),
    ]);
    // +0.1 +0.2 −0.3 = 0 exactly: the balance and the day's net change are untouched; the day's use stays
    expect(changes.find((c) => c.target.kind === 'feed')?.amounts).toEqual({ 'kgOut@2026-11-01': 0.3 });
    expect(() => effectsOf({ type: 'feed_consumption', date: '2026-11-01', quantityKg: 1 })).toThrow(/resolved feed type/);
  });

  it('medicines: a delivery adds to the stock of its product and unit; a treatment from stock takes from it, and needs it', () => {
    const delivered = effectsOf({ type: 'medicine_delivery', date: '2026-11-01', product: ' ND clone 30 ', quantity: 1000, unit: 'doses' });
    const given = effectsOf({ type: 'vaccination', date: '2026-11-02', vaccine: 'ND clone 30', fromStock: { quantity: 400, unit: 'doses' } });
    const stock = { kind: 'medicine', product: 'ND clone 30', unit: 'doses' };
    expect(netChanges(delivered).find((c) => c.target.kind === 'medicine')).toEqual({
      target: stock,
      amounts: { quantity: 1000, 'quantity@2026-11-01': 1000 },
    });
    expect(netChanges(given).find((c) => c.target.kind === 'medicine')).toEqual({
      target: stock,
      amounts: { quantity: -400, 'quantity@2026-11-02': -400, 'quantityOut@2026-11-02': 400 },
      requires: { attribute: 'quantity', atLeast: 400 },
    });
    // the same product in another unit is another balance; a treatment without fromStock takes nothing
    const litres = effectsOf({ type: 'medication', date: '2026-11-02', product: 'ND clone 30', dose: '1 l', fromStock: { quantity: 1, unit: 'l' } });
    expect(netChanges(litres).find((c) => c.target.kind === 'medicine')?.target).toEqual({ ...stock, unit: 'l' });
    expect(effectsOf({ type: 'vaccination', date: '2026-11-02', vaccine: 'ND clone 30' }).some((d) => d.target.kind === 'medicine')).toBe(false);
    // delivered and given in one write: only the net change of the balance counts; each date keeps its own change
    expect(netChanges([...delivered, ...given]).find((c) => c.target.kind === 'medicine')).toEqual({
      target: stock,
      amounts: { quantity: 600, 'quantity@2026-11-01': 1000, 'quantity@2026-11-02': -400, 'quantityOut@2026-11-02': 400 },
    });
  });

  it('lock in force: stored, cycle closed, or older than the period', () => {
    const now = new Date('2026-11-10T12:00:00Z');
    const open = { status: 'active', closedAt: null };
    expect(effectiveLock({ lock: null, createdAt: '2026-11-10T00:00:00Z' }, open, now)).toBeNull();
    expect(effectiveLock({ lock: null, createdAt: '2026-11-07T11:59:59Z' }, open, now)).toMatchObject({ type: 'automatic', reason: 'older than 72 h' });
    expect(effectiveLock({ lock: null, createdAt: '2026-11-10T00:00:00Z' }, { status: 'closed', closedAt: '2026-11-10T06:00:00Z' }, now)).toMatchObject({
      type: 'automatic',
      reason: 'cycle closed',
    });
    const manual = { type: 'manual' as const, reason: 'checked', at: '2026-11-10T01:00:00Z', by: 'u' };
    expect(effectiveLock({ lock: manual, createdAt: '2026-11-01T00:00:00Z' }, open, now)).toBe(manual);
  });
});

/** A flock without a breed, with the analytics configuration's default fallbacks. */
const BASIS = { breed: null, fallbacks: ANALYTICS_DEFAULTS.fallbacks };

describe('cycle KPIs (docs/domain.md)', () => {
  it('mortality, livability, FCR and EPEF from the counters, each a Figure', () => {
    const today = new Date('2026-11-05T10:00:00Z');
    const cycle = { birdType: 'broiler' as const, startDate: '2026-10-01', endDate: null, hatchDate: null, latestWeight: { date: '2026-11-05', grams: 2500 } };
    const c = { ...ZERO_COUNTERS, ...cycle, placed: 1000, deaths: 30, culls: 10, sold: 100, alive: 860, feedConsumedKg: 2000 };
    // mortality 30/1000 = 3 %; livability (860 + 100)/1000 = 96 %; FCR 2000 / (860 × 2.5) = 0.930;
    // EPEF 96 × 2.5 × 100 ÷ (35 days × 0.9302) = 737
    expect(headlineKpis(c, BASIS, today)).toEqual({
      mortalityPct: { value: 3, unit: '%' },
      livabilityPct: { value: 96, unit: '%' },
      fcr: { value: 0.93, unit: 'kg/kg' },
      epef: { value: 737, unit: 'index' },
    });
    const none = { value: null, reason: 'no birds placed yet' };
    expect(headlineKpis({ ...ZERO_COUNTERS, ...cycle, latestWeight: null }, BASIS, today)).toEqual({
      mortalityPct: { ...none, unit: '%' },
      livabilityPct: { ...none, unit: '%' },
      fcr: { ...none, unit: 'kg/kg' },
      epef: { ...none, unit: 'index' },
    });
    expect(headlineKpis({ ...c, sold: 0, alive: 0 }, BASIS, today).fcr).toEqual({
      value: null,
      unit: 'kg/kg',
      reason: 'no live birds: every bird died or was culled',
    });
    expect(headlineKpis(null, BASIS, today, 'no active cycle').fcr).toEqual({ value: null, unit: 'kg/kg', reason: 'no active cycle' });
  });

  it('age from the hatch date, else the start date, up to the end date', () => {
    const today = new Date('2026-11-21T10:00:00Z');
    expect(ageDays('2026-11-01', '2026-11-03', null, today)).toBe(20);
    expect(ageDays(null, '2026-11-03', null, today)).toBe(18);
    expect(ageDays('2026-11-01', '2026-11-01', '2026-11-11', today)).toBe(10);
  });
});

describe('production stages and daily forms', () => {
  it('derives stages from bird type and age', () => {
    expect([0, 10, 11, 24, 25].map((d) => stageOf('broiler', d))).toEqual(['brooding', 'brooding', 'growing', 'growing', 'finishing']);
    expect([0, 27, 28, 125, 126].map((d) => stageOf('layer', d))).toEqual(['brooding', 'brooding', 'rearing', 'rearing', 'laying']);
  });

  it('names missing mandatory fields and implausible values', () => {
    const check = checkDailyRecord({ deaths: 0, feedKg: 100, waterLiters: 150, temperatureMinC: 30, temperatureMaxC: 28 }, 'brooding');
    expect(check.missingFields).toEqual(['humidityPct']);
    expect(check.warnings).toEqual(['temperatureMinC is above temperatureMaxC', 'water:feed ratio 1.50 is outside the normal 1.6–2.0']);
  });

  it('turns a form into movements and checks cross-field rules', () => {
    expect(
      movementsOfForm({ date: '2026-11-02', deaths: { heat: 2, disease: 0 }, culls: 1, feedKg: 0, eggsCollected: 10, eggsCracked: 1 }).map((m) => m.type),
    ).toEqual(['bird_mortality', 'bird_cull', 'egg_collection']);
    expect(formProblems({ eggsCollected: 1, eggsDirty: 2 })).toEqual([{ field: 'eggsDirty', message: 'must not exceed eggsCollected' }]);
  });
});

describe('day rollups carry what analytics prices and weighs', () => {
  const dayAmounts = (m: Parameters<typeof effectsOf>[0], feedType?: string) =>
    Object.fromEntries(
      effectsOf(m, 1, feedType)
        .filter((d) => d.target.kind === 'day')
        .map((d) => [d.attribute, d.amount]),
    );

  it('placements with weight and cost, priced and unpriced sales, feed per type, egg weights and prices', () => {
    expect(dayAmounts({ type: 'bird_inflow', date: '2026-11-01', quantity: 1000, averageWeightGrams: 42, unitCost: 0.5 })).toEqual({
      placed: 1000,
      inflowWeightGramsSum: 42_000,
      birdsInflowWeighed: 1000,
      birdsPlacedPriced: 1000,
      birdPlacementCostPriced: 500,
    });
    expect(dayAmounts({ type: 'bird_sale', date: '2026-11-01', quantity: 10, unitPrice: 3, totalWeightKg: 25 })).toEqual({
      sold: 10,
      soldWeightKg: 25,
      birdsSoldPriced: 10,
      birdSaleRevenuePriced: 30,
    });
    expect(dayAmounts({ type: 'bird_sale', date: '2026-11-01', quantity: 10, totalWeightKg: 25 })).toEqual({
      sold: 10,
      soldWeightKg: 25,
      soldWeightKgUnpriced: 25,
    });
    expect(dayAmounts({ type: 'bird_sale', date: '2026-11-01', quantity: 10 })).toEqual({ sold: 10, birdsSoldUnpricedUnweighed: 10 });
    expect(dayAmounts({ type: 'feed_delivery', date: '2026-11-01', feedType: 'starter', quantityKg: 400, unitPrice: 0.5 })).toEqual({
      feedDeliveredKg: 400,
      'feedDeliveredKgByType.starter': 400,
      'feedDeliveredPricedKgByType.starter': 400,
      'feedDeliveredCostByType.starter': 200,
    });
    expect(dayAmounts({ type: 'feed_consumption', date: '2026-11-01', quantityKg: 30 }, 'starter')).toEqual({
      feedConsumedKg: 30,
      'feedConsumedKgByType.starter': 30,
    });
    expect(dayAmounts({ type: 'egg_collection', date: '2026-11-01', totalEggs: 900, cracked: 9, doubleYolk: 3, averageEggWeightGrams: 61.5 })).toEqual({
      eggsCollected: 900,
      eggsCracked: 9,
      eggsDoubleYolk: 3,
      eggWeightGramsSum: 55_350,
      eggsWeighed: 900,
    });
    expect(dayAmounts({ type: 'egg_sale', date: '2026-11-01', quantity: 300, unitPrice: 0.1 })).toEqual({
      eggsSold: 300,
      eggsSoldPriced: 300,
      eggSaleRevenuePriced: 30,
    });
  });
});

describe('movement consistency beyond the schema', () => {
  const cycle = { flockId: 'FLOCK1', startDate: '2026-11-01', endDate: null };
  it('dates stay within the cycle and not in the future', () => {
    expect(movementProblems({ type: 'bird_cull', date: '2026-10-31', quantity: 1 }, cycle, '2026-11-20')).toEqual([
      { field: 'date', message: "must not be before the cycle's start date 2026-11-01" },
    ]);
    expect(movementProblems({ type: 'bird_cull', date: '2026-11-21', quantity: 1 }, cycle, '2026-11-20')).toEqual([
      { field: 'date', message: 'must not be in the future' },
    ]);
    expect(movementProblems({ type: 'bird_cull', date: '2026-11-10', quantity: 1 }, { ...cycle, endDate: '2026-11-05' }, '2026-11-20')[0]!.message).toMatch(
      /after the cycle's end date 2026-11-05/,
    );
    expect(movementProblems({ type: 'bird_cull', date: '2026-11-01', quantity: 1 }, cycle, '2026-11-01')).toEqual([]);
  });
  it('egg sub-counts within the eggs collected; delivery order dates before the delivery', () => {
    expect(
      movementProblems({ type: 'egg_collection', date: '2026-11-02', totalEggs: 10, cracked: 11, grades: { M: 6, L: 6 } }, cycle, '2026-11-20').map(
        (p) => p.field,
      ),
    ).toEqual(['cracked', 'grades']);
    expect(
      movementProblems({ type: 'egg_collection', date: '2026-11-02', totalEggs: 10, cracked: 10, dirty: 10, grades: { M: 4, L: 6 } }, cycle, '2026-11-20'),
    ).toEqual([]);
    expect(
      movementProblems(
        { type: 'feed_delivery', date: '2026-11-02', feedType: 'x', quantityKg: 1, orderedDate: '2026-11-03', expectedDate: '2026-11-01' },
        cycle,
        '2026-11-20',
      ).map((p) => p.field),
    ).toEqual(['orderedDate', 'expectedDate']);
  });
});

describe('copies the ledger keeps beside a movement', () => {
  const base = { id: 'M1', farmId: 'F1', flockId: 'FL1', cycleId: 'C1', date: '2026-11-10' };
  it('a feed delivery leaves its supplier facts; a medication with a withdrawal period leaves the window', () => {
    expect(copiesOf({ ...base, type: 'feed_delivery', fields: { feedType: 'starter', quantityKg: 500, supplierId: 'S1' } })).toEqual([
      { kind: 'delivery', item: { movementId: 'M1', date: '2026-11-10', feedType: 'starter', quantityKg: 500, supplierId: 'S1' } },
    ]);
    expect(copiesOf({ ...base, type: 'medication', fields: { product: 'Amoxicillin', dose: '10 mg/kg', withdrawalDays: 7 } })).toEqual([
      {
        kind: 'withdrawal',
        item: {
          movementId: 'M1',
          farmId: 'F1',
          flockId: 'FL1',
          cycleId: 'C1',
          date: '2026-11-10',
          endDate: '2026-11-17',
          meatEndDate: '2026-11-17',
          eggEndDate: '2026-11-17',
          withdrawalDays: 7,
          eggWithdrawalDays: 7,
          treatmentDays: 1,
          treatmentEnd: '2026-11-10',
          product: 'Amoxicillin',
        },
      },
    ]);
  });
  it('no copy for a medication without a withdrawal period, nor for any other movement', () => {
    expect(copiesOf({ ...base, type: 'medication', fields: { product: 'Vitamin C', dose: '1 g/l', withdrawalDays: 0 } })).toEqual([]);
    expect(copiesOf({ ...base, type: 'bird_mortality', fields: { quantity: 3 } })).toEqual([]);
  });
});

describe('rules of a movement that need the farm or the flock', () => {
  it('a transfer goes to another flock', () => {
    const cycle = { flockId: 'FLOCK1', startDate: '2026-11-01', endDate: null };
    expect(movementProblems({ type: 'bird_transfer_out', date: '2026-11-02', quantity: 5, counterpartFlockId: 'FLOCK1' }, cycle, '2026-11-20')).toEqual([
      { field: 'counterpartFlockId', message: 'must be another flock' },
    ]);
    expect(movementProblems({ type: 'bird_transfer_out', date: '2026-11-02', quantity: 5, counterpartFlockId: 'FLOCK2' }, cycle, '2026-11-20')).toEqual([]);
  });
  it('feed consumption without a type draws from the only feed in stock, and is refused when none or several are', () => {
    expect(needsFeedType({ type: 'feed_consumption', date: '2026-11-02', quantityKg: 10 })).toBe(true);
    expect(needsFeedType({ type: 'feed_consumption', date: '2026-11-02', quantityKg: 10, feedType: 'starter' })).toBe(false);
    expect(feedTypeFromStock('F1', ['starter'])).toBe('starter');
    expect(() => feedTypeFromStock('F1', [])).toThrow('No feed in stock on farm F1; record a feed_delivery first');
    expect(() => feedTypeFromStock('F1', ['starter', 'grower'])).toThrow(ValidationFailed);
  });
});

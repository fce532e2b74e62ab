import { describe, expect, it } from 'vitest';
import { ANALYTICS_DEFAULTS } from '../../schemas/analytics-config.js';
import { decideFarmPricingChange, decideFarmPricingRemoval, effectivePricing, isCurrencyCode } from '../../shared/domain/pricing/farm-pricing.js';
import { reportCurrency, supplierReliability, type FeedDeliveryFact } from '../../shared/domain/analytics/suppliers.js';
import { pricedInFarmCurrency } from '../../shared/domain/procurement/receipts.js';
import { unitIn } from '../../shared/domain/rules/calculations.js';
import { recordTypeOf } from '../../shared/domain/continuity/format.js';
import { detailsOf } from '../support/decisions.js';

/** A farm's pricing over the service's, merged and decided without a database. */

const now = new Date('2026-03-10T10:00:00.000Z');
const by = { caller: { id: 'U1' }, requestId: 'req-1', now };
const service = { ...structuredClone(ANALYTICS_DEFAULTS.pricing), feedPerKgByType: { starter: 0.52, grower: 0.48 } };

describe('effective pricing', () => {
  it('without an override: the service’s pricing, every field from the service, no warning', () => {
    const e = effectivePricing(service, undefined);
    expect(e.pricing).toEqual(service);
    expect(new Set(Object.values(e.sources))).toEqual(new Set(['service']));
    expect(e.sources).toHaveProperty(['feedPerKgByType.starter'], 'service');
    expect(e.warnings).toEqual([]);
  });

  it('a partial override wins field by field, feed prices by type merge type by type', () => {
    const e = effectivePricing(service, { feedPerKg: 0.4, feedPerKgByType: { starter: 0.5, finisher: 0.44 } });
    expect(e.pricing).toEqual({ ...service, feedPerKg: 0.4, feedPerKgByType: { starter: 0.5, grower: 0.48, finisher: 0.44 } });
    expect(e.sources).toMatchObject({
      currency: 'service',
      feedPerKg: 'farm',
      chickPerBird: 'service',
      'feedPerKgByType.starter': 'farm',
      'feedPerKgByType.grower': 'service',
      'feedPerKgByType.finisher': 'farm',
    });
    expect(e.warnings).toEqual([]);
  });

  it('another currency: the service’s prices are used as the same amounts, one warning per non-zero price taken from the service', () => {
    const e = effectivePricing(service, { currency: 'GBP', feedPerKgByType: { starter: 0.38 } });
    expect(e.pricing.currency).toBe('GBP');
    expect(e.pricing.chickPerBird).toBe(service.chickPerBird);
    expect(e.warnings).toContain("chickPerBird: the service's 0.55 USD is used as 0.55 GBP; set it for this farm");
    expect(e.warnings).toContain("feedPerKgByType.grower: the service's 0.48 USD is used as 0.48 GBP; set it for this farm");
    expect(e.warnings.some((w) => w.startsWith('feedPerKgByType.starter') || w.startsWith('medicationPerTreatment'))).toBe(false);
  });
});

describe('farm pricing decisions', () => {
  const none = { override: {}, version: 0 };

  it('a first override: version 1 with the fields it sets, audited and named as a resource change', () => {
    const d = decideFarmPricingChange('F1', none, { currency: 'GBP', eggPerUnit: 0.2 }, by);
    expect(d?.next).toEqual({
      farmId: 'F1',
      override: { currency: 'GBP', eggPerUnit: 0.2 },
      version: 1,
      changedFields: ['currency', 'eggPerUnit'],
      updatedAt: now.toISOString(),
      updatedBy: 'U1',
      requestId: 'req-1',
    });
    expect(d?.audit).toEqual([{ action: 'farm_pricing.update', targetType: 'farm_pricing', targetId: 'F1', changes: expect.any(Object) }]);
    expect(d?.changes).toEqual([{ type: 'farm_pricing', id: 'F1', op: 'upsert', version: 1, farmIds: ['F1'] }]);
  });

  it('replaces the override as a whole: a field it no longer names is removed', () => {
    const d = decideFarmPricingChange('F1', { override: { currency: 'GBP', eggPerUnit: 0.2 }, version: 3 }, { currency: 'GBP', feedPerKg: 0.4 }, by);
    expect(d?.next).toMatchObject({ override: { currency: 'GBP', feedPerKg: 0.4 }, version: 4, changedFields: ['eggPerUnit', 'feedPerKg'] });
  });

  it('nothing to change: the same fields, or an empty feed-type map that sets nothing', () => {
    expect(decideFarmPricingChange('F1', { override: { currency: 'GBP' }, version: 2 }, { currency: 'GBP' }, by)).toBeUndefined();
    expect(decideFarmPricingChange('F1', none, { feedPerKgByType: {} }, by)).toBeUndefined();
  });

  it('refuses a currency that is not an ISO 4217 code, naming the field', () => {
    expect(isCurrencyCode('GBP')).toBe(true);
    expect(isCurrencyCode('ABC')).toBe(false);
    expect(detailsOf(() => decideFarmPricingChange('F1', none, { currency: 'ABC' }, by))).toEqual([
      { field: 'currency', message: expect.stringContaining('ISO 4217') },
    ]);
  });

  it('a removal is a new version that sets nothing; nothing to remove: no version', () => {
    const d = decideFarmPricingRemoval('F1', { override: { currency: 'GBP' }, version: 2 }, by);
    expect(d?.next).toMatchObject({ override: {}, version: 3, changedFields: ['currency'] });
    expect(d?.audit[0]?.action).toBe('farm_pricing.remove');
    expect(decideFarmPricingRemoval('F1', { override: {}, version: 3 }, by)).toBeUndefined();
  });
});

describe('money across currencies', () => {
  const fact = (over: Partial<FeedDeliveryFact>): FeedDeliveryFact => ({ date: '2026-03-01', supplierId: 'S1', feedType: 'starter', quantityKg: 500, ...over });

  it('an order’s prices go on the ledger only in its farm’s currency (an order without one was priced in it)', () => {
    expect(pricedInFarmCurrency({ currency: 'GBP' }, 'GBP')).toBe(true);
    expect(pricedInFarmCurrency({ currency: null }, 'GBP')).toBe(true);
    expect(pricedInFarmCurrency({}, 'GBP')).toBe(true);
    expect(pricedInFarmCurrency({ currency: 'EUR' }, 'GBP')).toBe(false);
  });

  it('supplier prices are averaged in the report’s currency; the others are listed apart, per currency, never added in', () => {
    const report = supplierReliability(
      [
        fact({ unitPrice: 0.36 }),
        fact({ unitPrice: 0.4, quantityKg: 1000, currency: 'EUR' }),
        fact({ unitPrice: 0.5, quantityKg: 1000, currency: 'EUR', feedType: 'grower' }),
        fact({ unitPrice: 0.3, currency: 'GBP' }),
      ],
      { currency: 'GBP' },
    );
    const [s] = report.suppliers;
    expect(s?.price).toEqual({ averagePerKg: { value: 0.33, unit: 'GBP/kg' }, pricedKg: 1000 });
    expect(s?.otherCurrencyPrices).toEqual([{ currency: 'EUR', deliveries: 2, pricedKg: 2000, averagePerKg: { value: 0.45, unit: 'EUR/kg' } }]);
    expect(s?.feedTypes.grower?.averagePricePerKg).toMatchObject({ value: null, unit: 'GBP/kg' });
  });

  it('a report over several farms averages in their currency when they share one, else in the service’s', () => {
    expect(reportCurrency(['GBP', 'GBP'], 'USD')).toBe('GBP');
    expect(reportCurrency(['GBP', 'EUR'], 'USD')).toBe('USD');
    expect(reportCurrency([], 'USD')).toBe('USD');
  });

  it('a farm’s pricing override travels with the farm’s export', () => {
    expect(recordTypeOf({ PK: 'FARM#F1', SK: 'PRICING' })).toBe('farm_pricing');
    expect(recordTypeOf({ PK: 'FARM#F1#PRICING', SK: 'V#0000000001' })).toBeUndefined();
  });

  it('a rule’s money unit names the farm’s currency', () => {
    expect(unitIn('currency/kg', 'GBP')).toBe('GBP/kg');
    expect(unitIn('currency/egg', 'EUR')).toBe('EUR/egg');
    expect(unitIn('%', 'GBP')).toBe('%');
  });
});

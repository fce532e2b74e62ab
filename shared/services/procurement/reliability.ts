import { readFarmsWithPricing } from '../../db/farm-pricing.js';
import { feedReceiptsOfSupplier, getOrders } from '../../db/procurement.js';
import type { Caller } from '../../domain/caller.js';
import { canAccessFarm } from '../../domain/farm-access.js';
import { missing } from '../../domain/analytics/figures.js';
import { reportCurrency, supplierReliability } from '../../domain/analytics/suppliers.js';
import { supplierFill } from '../../domain/procurement/fill-rate.js';
import { farmDateAt } from '../../domain/procurement/orders.js';
import { completeAll } from '../analytics/config.js';
import { farmPricesOf } from '../analytics/farm-pricing.js';
import { visibleSupplier } from './suppliers.js';

/**
 * A supplier's reliability over its feed receipts of the farms the caller sees: the analytics' own
 * `supplierReliability` (the same code and figures as GET /api/v2/analytics/cycle/{flockId}/{cycleId}/suppliers),
 * and the fill rate of the closed feed lines of the orders those receipts belong to (each order's farm's
 * today decides which are past due). Prices are averaged in one currency: the receipts' farms' when
 * they share one, else the service's; prices in other currencies are listed apart, never added in.
 */
export async function supplierReliabilityFor(user: Caller, supplierId: string, now = new Date()) {
  const supplier = await visibleSupplier(user, supplierId);
  const receipts = await feedReceiptsOfSupplier(supplierId);
  const mine = receipts.filter((r) => canAccessFarm(user, r.farmId));
  // the receipts' farms with their prices (and the configuration once) in one BatchGetItem, beside the orders
  const farmIds = [...new Set(mine.map((r) => r.farmId))];
  const [orders, read] = await Promise.all([getOrders([...new Set(mine.map((r) => r.orderId))]), readFarmsWithPricing(farmIds)]);
  const currencyOf = new Map(farmIds.map((f) => [f, farmPricesOf(read.pricing.get(f)!).currency]));
  const currency = reportCurrency([...currencyOf.values()], completeAll(read.storedConfig?.config).pricing.currency);
  // a fact without a currency was priced in its farm's
  const facts = mine.flatMap((r) => r.deliveries.map((d) => ({ ...d, currency: d.currency ?? currencyOf.get(r.farmId)! })));
  const report = supplierReliability(facts, { currency });
  const entry = report.suppliers.find((s) => s.supplierId === supplierId) ?? null;
  const zones = new Map(read.farms.map((f) => [f.id, f.timezone]));
  const none = 'no feed receipt';
  const fill = supplierFill(orders, (farmId) => farmDateAt(now.toISOString(), zones.get(farmId)), none);
  return {
    supplierId,
    farmIds: supplier.farmIds.filter((f) => canAccessFarm(user, f)),
    currency,
    receipts: facts.length,
    onTimeRatePct: entry?.onTime.ratePct ?? missing('%', none),
    fillRatePct: fill.pct,
    qualityIssueRatePct: entry?.quality.issueRatePct ?? missing('%', none),
    fill: fill.fill,
    score: entry?.score ?? missing('index', none),
    reliability: entry,
  };
}

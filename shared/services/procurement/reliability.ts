import { readFarmsWithPricing } from '../../db/farm-pricing.js';
import { feedReceiptsOfSupplier, getOrders } from '../../db/procurement.js';
import { bookedDeliveriesOfSupplier } from '../../db/farm-movements.js';
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
 * A supplier's reliability over its feed receipts of the farms the caller sees, and its feed deliveries
 * booked on those farms without a receipt (their `DELIVERY#` copies): the analytics' own
 * `supplierReliability` (the same code and figures as GET /api/v2/analytics/cycle/{flockId}/{cycleId}/suppliers),
 * and the fill rate of the closed feed lines of the orders those receipts belong to (each order's farm's
 * today decides which are past due). Prices are averaged in one currency: the receipts' farms' when
 * they share one, else the service's; prices in other currencies are listed apart, never added in.
 */
export async function supplierReliabilityFor(user: Caller, supplierId: string, now = new Date()) {
  const supplier = await visibleSupplier(user, supplierId);
  const visible = supplier.farmIds.filter((f) => canAccessFarm(user, f));
  const [receipts, booked] = await Promise.all([
    feedReceiptsOfSupplier(supplierId),
    // deliveries of this supplier booked on a farm by hand (a receipt's are in the receipt): one Query per farm
    Promise.all(visible.map(async (farmId) => ({ farmId, deliveries: await bookedDeliveriesOfSupplier(farmId, supplierId) }))),
  ]);
  const mine = receipts.filter((r) => canAccessFarm(user, r.farmId));
  const delivered = [...mine, ...booked.filter((b) => b.deliveries.length)];
  // the delivering farms with their prices (and the configuration once) in one BatchGetItem, beside the orders
  const farmIds = [...new Set(delivered.map((r) => r.farmId))];
  const [orders, read] = await Promise.all([getOrders([...new Set(mine.map((r) => r.orderId))]), readFarmsWithPricing(farmIds)]);
  const currencyOf = new Map(farmIds.map((f) => [f, farmPricesOf(read.pricing.get(f)!).currency]));
  const currency = reportCurrency([...currencyOf.values()], completeAll(read.storedConfig?.config).pricing.currency);
  // a fact without a currency was priced in its farm's
  const facts = delivered.flatMap((r) => r.deliveries.map((d) => ({ ...d, currency: d.currency ?? currencyOf.get(r.farmId)! })));
  const report = supplierReliability(facts, { currency });
  const entry = report.suppliers.find((s) => s.supplierId === supplierId) ?? null;
  const zones = new Map(read.farms.map((f) => [f.id, f.timezone]));
  const none = 'no feed receipt';
  const fill = supplierFill(orders, (farmId) => farmDateAt(now.toISOString(), zones.get(farmId)), none);
  return {
    supplierId,
    farmIds: visible,
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

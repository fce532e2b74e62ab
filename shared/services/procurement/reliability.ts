import { getFarmsByIds } from '../../db/farms.js';
import { feedReceiptsOfSupplier, getOrders } from '../../db/procurement.js';
import { bookedDeliveriesOfSupplier } from '../../db/farm-movements.js';
import type { Caller } from '../../domain/caller.js';
import { canAccessFarm } from '../../domain/farm-access.js';
import { missing } from '../../domain/analytics/figures.js';
import { supplierReliability } from '../../domain/analytics/suppliers.js';
import { supplierFill } from '../../domain/procurement/fill-rate.js';
import { farmDateAt } from '../../domain/procurement/orders.js';
import { currentAnalyticsConfig } from '../analytics/config.js';
import { visibleSupplier } from './suppliers.js';

/**
 * A supplier's reliability over its feed receipts of the farms the caller sees, and its feed deliveries
 * booked on those farms without a receipt (their `DELIVERY#` copies): the analytics' own
 * `supplierReliability` (the same code and figures as GET /api/v2/analytics/cycle/{flockId}/{cycleId}/suppliers),
 * and the fill rate of the closed feed lines of the orders those receipts belong to (each order's farm's
 * today decides which are past due).
 */
export async function supplierReliabilityFor(user: Caller, supplierId: string, now = new Date()) {
  const supplier = await visibleSupplier(user, supplierId);
  const visible = supplier.farmIds.filter((f) => canAccessFarm(user, f));
  const [receipts, config, booked] = await Promise.all([
    feedReceiptsOfSupplier(supplierId),
    currentAnalyticsConfig(),
    // deliveries of this supplier booked on a farm by hand (a receipt's are in the receipt): one Query per farm
    Promise.all(visible.map((farmId) => bookedDeliveriesOfSupplier(farmId, supplierId))),
  ]);
  const mine = receipts.filter((r) => canAccessFarm(user, r.farmId));
  const facts = [...mine.flatMap((r) => r.deliveries), ...booked.flat()];
  const report = supplierReliability(facts, { currency: config.config.pricing.currency });
  const entry = report.suppliers.find((s) => s.supplierId === supplierId) ?? null;
  const [orders, farms] = await Promise.all([getOrders([...new Set(mine.map((r) => r.orderId))]), getFarmsByIds([...new Set(mine.map((r) => r.farmId))])]);
  const zones = new Map(farms.map((f) => [f.id, f.timezone]));
  const none = 'no feed receipt';
  const fill = supplierFill(orders, (farmId) => farmDateAt(now.toISOString(), zones.get(farmId)), none);
  return {
    supplierId,
    farmIds: visible,
    receipts: facts.length,
    onTimeRatePct: entry?.onTime.ratePct ?? missing('%', none),
    fillRatePct: fill.pct,
    qualityIssueRatePct: entry?.quality.issueRatePct ?? missing('%', none),
    fill: fill.fill,
    score: entry?.score ?? missing('index', none),
    reliability: entry,
  };
}

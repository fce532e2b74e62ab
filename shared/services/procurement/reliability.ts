import { feedReceiptsOfSupplier, getOrders } from '../../db/procurement.js';
import type { Caller } from '../../domain/caller.js';
import { canAccessFarm } from '../../domain/farm-access.js';
import { figure, missing } from '../../domain/analytics/figures.js';
import { supplierReliability } from '../../domain/analytics/suppliers.js';
import { fillRate } from '../../domain/procurement/orders.js';
import { currentAnalyticsConfig } from '../analytics/config.js';
import { visibleSupplier } from './suppliers.js';

/**
 * A supplier's reliability over its feed receipts of the farms the caller sees: the analytics' own
 * `supplierReliability` (the same code and figures as GET /api/v2/analytics/cycle/{flockId}/{cycleId}/suppliers),
 * and the fill rate of the orders those receipts belong to.
 */
export async function supplierReliabilityFor(user: Caller, supplierId: string) {
  const supplier = await visibleSupplier(user, supplierId);
  const [receipts, config] = await Promise.all([feedReceiptsOfSupplier(supplierId), currentAnalyticsConfig()]);
  const mine = receipts.filter((r) => canAccessFarm(user, r.farmId));
  const facts = mine.flatMap((r) => r.deliveries);
  const report = supplierReliability(facts, { currency: config.config.pricing.currency });
  const entry = report.suppliers.find((s) => s.supplierId === supplierId) ?? null;
  const orders = await getOrders([...new Set(mine.map((r) => r.orderId))]);
  const fill = fillRate(orders.flatMap((o) => o.lines.filter((l) => l.itemKind === 'feed')));
  const none = 'no feed receipt';
  return {
    supplierId,
    farmIds: supplier.farmIds.filter((f) => canAccessFarm(user, f)),
    receipts: facts.length,
    onTimeRatePct: entry?.onTime.ratePct ?? missing('%', none),
    fillRatePct: fill.pct === null ? missing('%', none) : figure(fill.pct, '%', 2),
    qualityIssueRatePct: entry?.quality.issueRatePct ?? missing('%', none),
    fill: {
      orderedKg: fill.orderedKg,
      receivedKg: fill.receivedKg,
      lines: orders.reduce((a, o) => a + o.lines.filter((l) => l.itemKind === 'feed').length, 0),
    },
    score: entry?.score ?? missing('index', none),
    reliability: entry,
  };
}

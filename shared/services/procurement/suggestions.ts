import { isoDate } from '../../platform/calendar.js';
import { farmStock, exportFarmMovements } from '../../db/inventory.js';
import { farmWithForecastAndPricing } from '../../db/forecasts.js';
import { farmPricesOf } from '../analytics/farm-pricing.js';
import { farmNotFound } from '../../domain/references.js';
import { ordersOfFarm } from '../../db/procurement.js';
import type { Caller } from '../../domain/caller.js';
import { addDays } from '../../platform/calendar.js';
import { reorder } from '../../domain/procurement/orders.js';
import { round } from '../../domain/weights.js';
import { farmOfRequest } from '../farms.js';
import type { SuggestionsQuery } from '../../../schemas/procurement.js';

const today = () => isoDate(new Date());

/** Days between ordering and delivery the suggestions assume when the supplier has no lead time on record. */
export const DEFAULT_LEAD_DAYS = 3;
const TREND_DAYS = 3;

/**
 * One suggestion per feed type the farm stocks or consumed in the last 3 days, when its stock will not
 * last the lead time plus `coverDays`: a draft order body and the reasoning. Writes nothing.
 */
export async function reorderSuggestionsFor(user: Caller, query: SuggestionsQuery) {
  const farmId = farmOfRequest(user, query.farmId);
  const coverDays = query.coverDays ?? 14;
  const now = today();
  const from = addDays(now, -TREND_DAYS);
  const to = addDays(now, -1);
  const [{ farmExists, feed: forecast, pricing }, stock, consumed, orders] = await Promise.all([
    farmWithForecastAndPricing(farmId),
    farmStock(farmId),
    exportFarmMovements({ farmId, type: 'feed_consumption', from, to, order: 'asc' }, 10_000, 50_000),
    ordersOfFarm(farmId),
  ]);
  if (!farmExists) throw farmNotFound(farmId);
  const farmCurrency = farmPricesOf(pricing).currency;
  const used = new Map<string, number>();
  for (const m of consumed.items) {
    const t = String(m.fields.feedType ?? '');
    used.set(t, (used.get(t) ?? 0) + Number(m.fields.quantityKg ?? 0));
  }
  const types = new Set([...stock.feed.map((f) => f.feedType), ...used.keys()].filter(Boolean));
  const suggestions = [];
  for (const feedType of [...types].sort()) {
    const stockKg = round(stock.feed.find((f) => f.feedType === feedType)?.kg ?? 0, 3);
    const dailyKg = round((used.get(feedType) ?? 0) / TREND_DAYS, 3);
    const predicted = forecast?.stock.byType.find((b) => b.feedType === feedType)?.runOutDate ?? null;
    const { quantityKg, daysOfStock } = reorder({ stockKg, dailyKg, leadDays: DEFAULT_LEAD_DAYS, coverDays });
    if (quantityKg <= 0) continue;
    const trendRunOut = daysOfStock === null ? null : addDays(now, Math.floor(daysOfStock));
    const runOutDate = predicted ?? trendRunOut;
    const last = orders.find((o) => o.status !== 'cancelled' && o.lines.some((l) => l.itemKind === 'feed' && l.feedType === feedType));
    const lastLine = last?.lines.find((l) => l.itemKind === 'feed' && l.feedType === feedType);
    const leadDate = addDays(now, DEFAULT_LEAD_DAYS);
    const expectedDate = runOutDate && runOutDate < leadDate ? (runOutDate > now ? runOutDate : addDays(now, 1)) : leadDate;
    suggestions.push({
      feedType,
      stockKg,
      dailyConsumptionKg: dailyKg,
      runOutDate,
      runOutSource: predicted ? ('forecast' as const) : ('trend' as const),
      order: {
        farmId,
        supplierId: last?.supplierId ?? null,
        lines: [{ itemKind: 'feed' as const, feedType, quantity: quantityKg, unit: 'kg' as const, unitPrice: lastLine?.unitPrice ?? 0 }],
        // the last order's currency (its price's), else the farm's
        currency: last?.currency ?? farmCurrency,
        expectedDate,
      },
      reasoning: [
        `${stockKg} kg of ${feedType} in stock; ${dailyKg} kg/day consumed on average from ${from} to ${to}`,
        predicted
          ? `the predictive feed forecast of ${forecast!.asOf} expects it to run out on ${predicted}`
          : `at that rate it runs out on ${trendRunOut} (${daysOfStock} days); no predictive forecast for it`,
        `ordering ${quantityKg} kg covers ${coverDays} days of use after a ${DEFAULT_LEAD_DAYS}-day lead time, less what will be left then (rounded up to 100 kg)`,
        last ? `supplier and price from the last order of ${feedType} (${last.id})` : 'no earlier order of this feed: choose a supplier and price',
      ],
    });
  }
  return { farmId, asOf: new Date().toISOString(), coverDays, suggestions };
}

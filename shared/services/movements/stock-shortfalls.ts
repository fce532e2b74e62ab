import { readStockItems } from '../../db/movements.js';
import { datedDecreases, shortfallWarnings, type StockGroup } from '../../domain/stock-dates.js';
import { isoDate } from '../../platform/calendar.js';
import type { StockShortfallWarning } from '../../../schemas/warnings.js';

/**
 * The warnings of a ledger write that leaves a farm stock short at a past date (accepted: the covering
 * delivery is often entered later). Read after deciding, because which stocks a write takes down is known
 * only then (a consumption's feed type may come from the stock); a write that takes no stock down reads
 * nothing, and neither does one dated today (the common daily form). The stock view lists every shortfall as it stands (shared/services/inventory.ts).
 */
export async function stockShortfallWarnings(groups: readonly StockGroup[], now: Date): Promise<StockShortfallWarning[]> {
  const decreases = datedDecreases(groups, isoDate(now));
  if (!decreases.length) return [];
  const current = await readStockItems(decreases);
  return shortfallWarnings(decreases, current);
}

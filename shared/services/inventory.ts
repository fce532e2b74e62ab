import { shortfallsOf } from '../domain/stock-dates.js';
import { movementsCsv } from '../presentation/csv.js';
import { activeFlocksOfFarm, exportFarmMovements, farmAndCycles, datedFarmStock, searchFarmMovements, type MovementSearch } from '../db/inventory.js';
import { isFarmMovement, type MovementRecord, type StoredMovement } from '../domain/movements/record.js';
import type { CycleRecord } from '../domain/flocks/records.js';
import { Invalid } from '../errors.js';
import { farmNotFound } from '../domain/references.js';
import type { Caller } from '../domain/caller.js';
import { farmOfListRequest, farmOfRequest } from './farms.js';
import { farmPeriodDays } from './periods.js';
import { movementAnswer, withCurrentLock } from './movements/answers.js';
import type { InventoryExportQuery, InventoryMovementsQuery, InventoryStockQuery } from '../../schemas/inventory.js';
import { isoDate } from '../platform/calendar.js';

/**
 * Inventory of one farm: current stock, and the movement search and
 * CSV export across the farm's cycles. Scoped like every farm record: a farm the caller may not see is
 * answered exactly like a missing one (NotFound `Farm <id> not found`).
 */

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/**
 * Current stock: the farm's active flocks (one Query) ‖ its stock items (one Query), then the farm and
 * the flocks' active cycles in one BatchGetItem. Three data calls however many flocks (up to 99 with
 * an active cycle; each further 100 cycles cost one more BatchGetItem).
 */
export async function farmStockFor(user: Caller, query: InventoryStockQuery) {
  const farmId = farmOfRequest(user, query.farmId);
  const [flocks, stock] = await Promise.all([activeFlocksOfFarm(farmId), datedFarmStock(farmId)]);
  const refs = flocks.filter((f) => f.activeCycleId).map((f) => ({ flockId: f.id, cycleId: f.activeCycleId! }));
  const { farmExists, cycles } = await farmAndCycles(farmId, refs);
  if (!farmExists) throw farmNotFound(farmId);
  const byFlock = flocks
    .map((f) => {
      // A cycle closed between the two reads is no longer stock.
      const c = f.activeCycleId ? cycles.get(f.activeCycleId) : undefined;
      const active = c && c.status === 'active' && c.flockId === f.id ? c : undefined;
      return {
        flockId: f.id,
        name: f.name,
        birdType: f.birdType,
        houseId: f.houseId,
        cycleId: active?.id ?? null,
        cycleStartDate: active?.startDate ?? null,
        placed: active?.placed ?? 0,
        alive: active?.alive ?? 0,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.flockId.localeCompare(b.flockId));
  const feed = [...stock.feed]
    .sort((a, b) => a.feedType.localeCompare(b.feedType))
    .map(({ feedType, kg, dated }) => ({ feedType, kg, shortfalls: shortfallsOf(kg, dated) }));
  return {
    farmId,
    asOf: new Date().toISOString(),
    birds: { total: byFlock.reduce((sum, f) => sum + f.alive, 0), flocks: byFlock },
    feed: { totalKg: round(feed.reduce((sum, f) => sum + f.kg, 0)), byType: feed },
    eggs: {
      count: stock.eggs.count,
      byGrade: stock.eggs.byGrade,
      ungraded: Math.max(0, stock.eggs.count - Object.values(stock.eggs.byGrade).reduce((a, n) => a + n, 0)),
      shortfalls: shortfallsOf(stock.eggs.count, stock.eggs.dated),
    },
    medicines: [...stock.medicines]
      .sort((a, b) => a.product.localeCompare(b.product) || a.unit.localeCompare(b.unit))
      .map(({ product, unit, quantity, dated }) => ({ product, unit, quantity, shortfalls: shortfallsOf(quantity, dated) })),
  };
}

async function searchOf(
  farmId: string,
  q: { type?: string; from?: string; to?: string; flockId?: string; order?: 'asc' | 'desc' },
  defaultOrder: 'asc' | 'desc',
): Promise<MovementSearch> {
  const { from, to } = await farmPeriodDays(farmId, q);
  return { farmId, type: q.type, flockId: q.flockId, from, to, order: q.order ?? defaultOrder };
}

/** Movements with their current lock, which needs each one's cycle status, read for the distinct cycles in the same BatchGet as the farm. */
async function withLocks(farmId: string, movements: StoredMovement[]): Promise<StoredMovement[]> {
  const ofCycles = movements.filter((m): m is MovementRecord => !isFarmMovement(m));
  const { farmExists, cycles } = await farmAndCycles(farmId, ofCycles);
  if (!farmExists) throw farmNotFound(farmId);
  const now = new Date();
  // a movement booked on the farm has no cycle: it locks by its age alone, like one of an active cycle
  const missing: Pick<CycleRecord, 'status' | 'closedAt'> = { status: 'active', closedAt: null };
  return movements.map((m) => withCurrentLock(m, (m.cycleId !== null && cycles.get(m.cycleId)) || missing, now));
}

/** A page of the farm's movements (newest first unless `order=asc`): one Query (a few with filters) + one BatchGetItem. */
export async function searchMovementsFor(user: Caller, query: InventoryMovementsQuery) {
  const farmId = await farmOfListRequest(user, query.farmId, { flockId: query.flockId });
  const search = await searchOf(farmId, query, 'desc');
  const limit = query.limit ?? 25;
  const page = await searchFarmMovements(search, limit, query.cursor);
  return { items: (await withLocks(farmId, page.items)).map(movementAnswer), nextCursor: page.nextCursor, limit };
}

/** Export bounds: rows in one file, movements evaluated by the filtered reads, and bytes (below Lambda's 6 MB response limit). */
export const EXPORT_MAX_ROWS = 10_000;
export const EXPORT_MAX_READS = 50_000;
export const EXPORT_MAX_BYTES = 5_000_000;

/** The CSV export of a search (chronological unless `order=desc`), refused as Invalid when it would exceed the bounds. */
export async function exportMovementsFor(user: Caller, query: InventoryExportQuery): Promise<{ filename: string; csv: string; rows: number }> {
  const farmId = await farmOfListRequest(user, query.farmId, { flockId: query.flockId });
  const search = await searchOf(farmId, query, 'asc');
  const { items, stop } = await exportFarmMovements(search, EXPORT_MAX_ROWS, EXPORT_MAX_READS);
  // The farm check comes before any refusal, so an unknown farm is NotFound whatever its size.
  const locked = await withLocks(farmId, stop ? [] : items);
  if (stop) {
    const what =
      stop.reason === 'rows' ? `matches more than ${stop.limit} movements` : `would read more than ${stop.limit} movements to apply the type/flock filter`;
    throw new Invalid(`The export ${what}; narrow the date range (from, to)`);
  }
  const csv = movementsCsv(locked);
  if (Buffer.byteLength(csv) > EXPORT_MAX_BYTES)
    throw new Invalid(`The export is larger than ${EXPORT_MAX_BYTES / 1_000_000} MB; narrow the date range (from, to) or filter by type or flock`);
  const today = isoDate(new Date());
  return { filename: `movements-${farmId}-${search.from ?? 'all'}-${search.to ?? today}.csv`, csv, rows: locked.length };
}

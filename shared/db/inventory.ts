import { gradesOf } from '../domain/eggs/lots.js';
import { datedChanges, takenOutByDate } from '../domain/stock-dates.js';
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { batchGet, db, queryAll, tableName } from './client.js';
import { cycleFromItem } from './cycles.js';
import type { CycleRecord } from '../domain/flocks/records.js';
import type { FlockRecord } from '../domain/flocks/records.js';
import { CYCLE_SK_PREFIX, cycleKey, eggStockKey, farmKey, flocksOfFarm, MEDICINE_STOCK_SK_PREFIX, movementsOfFarm, STOCK_SK_PREFIX } from './keys.js';
import { movementFromItem } from './movements.js';
import { farmMovementFromItem } from './farm-movements.js';
import type { StoredMovement } from '../domain/movements/record.js';
import { queryPage } from './pagination.js';
import type { MedicineUnit } from '../../schemas/movements.js';

/**
 * Inventory reads of one farm (docs/data-model.md, "Inventory"): its active flocks (GSI1
 * `FLOCKS#<farmId>`), its stock items (`FARM#<farmId>` / `STOCK#…`), the farm and the cycles behind them
 * in one BatchGetItem, and its movements across cycles and those booked on the farm without one (GSI2
 * `MOVEMENTS#<farmId>` / `<date>#<id>`).
 */

export type FlockSummary = Pick<FlockRecord, 'id' | 'name' | 'birdType' | 'breed' | 'houseId' | 'activeCycleId'>;

/** The farm's active (not archived) flocks: one Query (more only past 1 MB of flocks). */
export async function activeFlocksOfFarm(farmId: string): Promise<FlockSummary[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk AND begins_with(GSI1SK, :active)',
    ProjectionExpression: 'id, #name, birdType, breed, houseId, activeCycleId',
    ExpressionAttributeNames: { '#name': 'name' },
    ExpressionAttributeValues: { ':pk': flocksOfFarm(farmId).GSI1PK, ':active': 'active#' },
  });
  return items.map((i) => ({
    id: i.id as string,
    name: i.name as string,
    birdType: i.birdType as FlockRecord['birdType'],
    breed: (i.breed as string | null | undefined) ?? null,
    houseId: (i.houseId as string | null) ?? null,
    activeCycleId: (i.activeCycleId as string | null) ?? null,
  }));
}

/** A stock's balance now and its per-date changes (shared/domain/stock-dates.ts). */
type Dated = { dated: Map<string, number> };
/** …and what was taken out of it on each date. */
type DatedWithUse = Dated & { out: Map<string, number> };

export interface FarmStock {
  feed: Array<{ feedType: string; kg: number }>;
  eggs: number;
  medicines: Array<{ product: string; unit: MedicineUnit; quantity: number }>;
}

/** Feed per type, eggs and medicines (per product and unit) of a farm: one consistent Query of its `STOCK#` items. */
export async function farmStock(farmId: string): Promise<FarmStock> {
  const { feed, eggs, medicines } = await datedFarmStock(farmId);
  return { feed: feed.map(({ dated: _, out: _out, ...f }) => f), eggs: eggs.count, medicines: medicines.map(({ dated: _, ...m }) => m) };
}

/** The farm's stock, each with its per-date changes (the balance at every past date). */
export interface DatedFarmStock {
  feed: Array<FarmStock['feed'][number] & DatedWithUse>;
  eggs: { count: number; byGrade: Record<string, number> } & Dated;
  medicines: Array<FarmStock['medicines'][number] & Dated>;
}

/** `farmStock` with each stock's per-date changes: the same one Query. */
export async function datedFarmStock(farmId: string): Promise<DatedFarmStock> {
  const stock: DatedFarmStock = { feed: [], eggs: { count: 0, byGrade: {}, dated: new Map() }, medicines: [] };
  const feedPrefix = `${STOCK_SK_PREFIX}FEED#`;
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :stock)',
        ExpressionAttributeValues: { ':pk': farmKey(farmId).PK, ':stock': STOCK_SK_PREFIX },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    for (const i of res.Items ?? []) {
      const sk = String(i.SK);
      if (sk === eggStockKey(farmId).SK) stock.eggs = { count: Number(i.count ?? 0), byGrade: gradesOf(i), dated: datedChanges(i, 'count') };
      else if (sk.startsWith(feedPrefix))
        stock.feed.push({
          feedType: (i.feedType as string | undefined) ?? sk.slice(feedPrefix.length),
          kg: Number(i.kg ?? 0),
          dated: datedChanges(i, 'kg'),
          out: takenOutByDate(i, 'kg'),
        });
      else if (sk.startsWith(MEDICINE_STOCK_SK_PREFIX))
        stock.medicines.push({
          product: String(i.product),
          unit: i.unit as MedicineUnit,
          quantity: Number(i.quantity ?? 0),
          dated: datedChanges(i, 'quantity'),
        });
    }
    start = res.LastEvaluatedKey;
  } while (start);
  return stock;
}

/**
 * Whether the farm exists, and the given cycles, in ONE BatchGetItem (consistent): the farm item rides
 * along with the cycles a list needs anyway. (More than 99 distinct cycles take one more call per 100.)
 */
export async function farmAndCycles(
  farmId: string,
  refs: ReadonlyArray<{ flockId: string; cycleId: string }>,
): Promise<{ farmExists: boolean; cycles: Map<string, CycleRecord> }> {
  const distinct = new Map(refs.map((r) => [r.cycleId, r]));
  const farm = farmKey(farmId);
  const items = await batchGet([farm, ...[...distinct.values()].map((r) => cycleKey(r.flockId, r.cycleId))], { consistent: true });
  const cycles = new Map<string, CycleRecord>();
  let farmExists = false;
  for (const item of items) {
    if (item.PK === farm.PK && item.SK === farm.SK) farmExists = true;
    else if (String(item.SK).startsWith(CYCLE_SK_PREFIX)) {
      const cycle = cycleFromItem(item)!;
      cycles.set(cycle.id, cycle);
    }
  }
  return { farmExists, cycles };
}

export interface MovementSearch {
  farmId: string;
  type?: string;
  flockId?: string;
  from?: string;
  to?: string;
  order: 'asc' | 'desc';
}

/** A movement of the farm's list: a cycle's, or a delivery booked on the farm (no cycle). */
const storedMovementOf = (i: Record<string, unknown>): StoredMovement => (i.entity === 'FarmMovement' ? farmMovementFromItem(i)! : movementFromItem(i)!);

/** The Query of a search: the date range is the key condition on `<date>#<id>`, type and flock are filters. */
function searchQuery(s: MovementSearch) {
  const partition = movementsOfFarm(s.farmId);
  // `~` sorts after every ULID character, so `<to>#~` includes every movement of the last day.
  const filters: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':pk': partition.GSI2PK, ':lo': s.from ?? '0000', ':hi': `${s.to ?? '9999-12-31'}#~` };
  if (s.type) {
    filters.push('#type = :type');
    names['#type'] = 'type';
    values[':type'] = s.type;
  }
  if (s.flockId) {
    filters.push('flockId = :flock');
    values[':flock'] = s.flockId;
  }
  const input: QueryCommandInput = {
    TableName: tableName(),
    IndexName: 'GSI2',
    KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK BETWEEN :lo AND :hi',
    ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
    ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
    ExpressionAttributeValues: values,
    ScanIndexForward: s.order === 'asc',
  };
  return { input, filtered: filters.length > 0 };
}

/**
 * One page of a farm's movements (shared/db/pagination.ts: the cursor is bound to the farm, the date range,
 * the filters and the order). Pages are filled across filtered reads (DynamoDB applies `Limit` before the
 * filter); after 5 reads a short page comes back with a cursor. The next cursor is null only when nothing
 * is left (each read looks one item ahead).
 */
export async function searchFarmMovements(
  s: MovementSearch,
  limit: number,
  cursor: string | undefined,
): Promise<{ items: StoredMovement[]; nextCursor: string | null }> {
  const { input } = searchQuery(s);
  const page = await queryPage(input, { limit, cursor });
  return { items: page.items.map(storedMovementOf), nextCursor: page.nextCursor };
}

export type ExportStop = { reason: 'rows' | 'reads'; limit: number };

/**
 * Every movement of a search, for the export: stops (and says why) past `maxRows` matches or after
 * evaluating `maxReads` movements, so one request never reads a farm's whole history.
 */
export async function exportFarmMovements(s: MovementSearch, maxRows: number, maxReads: number): Promise<{ items: StoredMovement[]; stop?: ExportStop }> {
  const q = searchQuery(s);
  const items: StoredMovement[] = [];
  let start: Record<string, unknown> | undefined;
  let read = 0;
  do {
    const res = await db().send(new QueryCommand({ ...q.input, ...(q.filtered ? {} : { Limit: maxRows + 1 - items.length }), ExclusiveStartKey: start }));
    items.push(...(res.Items ?? []).map(storedMovementOf));
    if (items.length > maxRows) return { items, stop: { reason: 'rows', limit: maxRows } };
    read += res.ScannedCount ?? 0;
    start = res.LastEvaluatedKey;
    if (start && read >= maxReads) return { items, stop: { reason: 'reads', limit: maxReads } };
  } while (start);
  return { items };
}

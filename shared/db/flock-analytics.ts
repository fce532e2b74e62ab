import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, db, eachLimited, tableName } from './client.js';
import { cycleFromItem } from './cycles.js';
import type { CycleRecord } from '../domain/flocks/records.js';
import { flockFromItem } from './flocks.js';
import type { FlockRecord } from '../domain/flocks/records.js';
import { analyticsConfigKey, CYCLE_SK_PREFIX, cycleKey, farmKey, flockKey, flockPartition, flocksOfFarm } from './keys.js';
import type { AnalyticsSections } from '../../schemas/analytics-config.js';

/**
 * The reads of flock analytics (`/api/v1/flock-analytics`). Only cycle records are read (their running
 * counters give every KPI), never daily rollups or movements:
 * - history: ONE Query of the flock's partition returns the flock (`META`) and its cycles (`CYCLE#…`),
 *   newest first, `SK BETWEEN CYCLE# AND META` (a flock of more than `maxCycles` cycles: the newest ones),
 *   with, in parallel, one GetItem of the analytics configuration;
 * - compare: one BatchGetItem of the flocks (+ the named cycles) and the analytics configuration, one of
 *   their active cycles, and for a flock without an active cycle one Query (Limit 1) of its latest cycle;
 * - ranking: one Query of the farm's flocks (GSI1 `FLOCKS#<farmId>`, projected), one BatchGetItem of the
 *   farm, the analytics configuration and the flocks' active cycles (+ for `status=all`, one Query per flock
 *   without an active cycle).
 * The configuration's fallbacks decide the weight FCR and EPEF use (as in the analytics). The layer
 * figures that count days read the laying cycles' daily rollups besides (./analytics.ts `readCyclesDays`:
 * one Query per cycle) and their farms' time zones (one BatchGetItem): history and compare for every
 * layer or breeder cycle they show, ranking only when it ranks by such a figure.
 */

/** The stored analytics configuration (sections as stored; complete them with the defaults), if any. */
export type StoredSections = Partial<AnalyticsSections> | undefined;

const CONFIG = analyticsConfigKey();
const isConfig = (item: Record<string, unknown>) => item.PK === CONFIG.PK && item.SK === CONFIG.SK;
const sectionsOf = (item: Record<string, unknown> | undefined): StoredSections => item?.config as Partial<AnalyticsSections> | undefined;

/** Sort keys of the flock partition: the flock item (`META`) and the cycles' prefix. */
const KEY = { cycle: CYCLE_SK_PREFIX, meta: flockKey('').SK } as const;

export interface FlockHistoryRead {
  flock: FlockRecord | undefined;
  /** Oldest first (by ULID, i.e. creation order). */
  cycles: CycleRecord[];
  /** False when the flock has more cycles than were read (the oldest ones are left out). */
  complete: boolean;
  storedConfig: StoredSections;
}

/**
 * The flock and up to `maxCycles` of its newest cycles: one Query (a few more only if other items sort
 * between CYCLE# and META), and in parallel the analytics configuration (one GetItem).
 */
export async function readFlockHistory(flockId: string, maxCycles: number, maxPages = 3): Promise<FlockHistoryRead> {
  const [read, config] = await Promise.all([
    readFlockCycles(flockId, maxCycles, maxPages),
    db().send(new GetCommand({ TableName: tableName(), Key: CONFIG, ConsistentRead: true })),
  ]);
  return { ...read, storedConfig: sectionsOf(config.Item) };
}

async function readFlockCycles(flockId: string, maxCycles: number, maxPages: number): Promise<Omit<FlockHistoryRead, 'storedConfig'>> {
  const pk = flockPartition(flockId);
  let flock: FlockRecord | undefined;
  const newestFirst: CycleRecord[] = [];
  let start: Record<string, unknown> | undefined;
  let pages = 0;
  do {
    const res = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :first AND :last',
        ExpressionAttributeValues: { ':pk': pk, ':first': KEY.cycle, ':last': KEY.meta },
        ScanIndexForward: false,
        // the flock, maxCycles cycles and one more to know whether older ones exist
        Limit: maxCycles + 2 - newestFirst.length,
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    for (const item of res.Items ?? []) {
      const sk = String(item.SK);
      if (sk === KEY.meta) flock = flockFromItem(item);
      else if (sk.startsWith(KEY.cycle)) newestFirst.push(cycleFromItem(item)!);
    }
    start = res.LastEvaluatedKey;
    pages++;
  } while (start && newestFirst.length <= maxCycles && pages < maxPages);
  const complete = !start && newestFirst.length <= maxCycles;
  return { flock, cycles: newestFirst.slice(0, maxCycles).reverse(), complete };
}

/** Flocks and cycles by key (+ the analytics configuration when `withConfig`), in one BatchGetItem (chunks of 100 keys). */
export async function readFlocksAndCycles(flockIds: readonly string[], cycles: ReadonlyArray<{ flockId: string; cycleId: string }>, withConfig = false) {
  const keys = [...flockIds.map(flockKey), ...cycles.map((c) => cycleKey(c.flockId, c.cycleId))];
  const items = keys.length ? await batchGet(withConfig ? [CONFIG, ...keys] : keys, { consistent: true }) : [];
  const flocks = new Map<string, FlockRecord>();
  const found = new Map<string, CycleRecord>();
  let storedConfig: StoredSections;
  for (const item of items) {
    if (isConfig(item)) storedConfig = sectionsOf(item);
    else if (item.SK === KEY.meta) flocks.set(String(item.id), flockFromItem(item)!);
    else found.set(`${item.flockId}:${item.id}`, cycleFromItem(item)!);
  }
  return { flocks, cycles: found, storedConfig };
}

/** The farm exists? (with its time zone) the analytics configuration and the cycles by key, in one BatchGetItem. */
export async function readFarmAndCycles(farmId: string, cycles: ReadonlyArray<{ flockId: string; cycleId: string }>) {
  const items = await batchGet([farmKey(farmId), CONFIG, ...cycles.map((c) => cycleKey(c.flockId, c.cycleId))], { consistent: true });
  const found = new Map<string, CycleRecord>();
  let farm = false;
  let timeZone = 'UTC';
  let storedConfig: StoredSections;
  for (const item of items) {
    if (item.PK === farmKey(farmId).PK && item.SK === farmKey(farmId).SK) {
      farm = true;
      if (typeof item.timezone === 'string') timeZone = item.timezone;
    } else if (isConfig(item)) storedConfig = sectionsOf(item);
    else found.set(`${item.flockId}:${item.id}`, cycleFromItem(item)!);
  }
  return { farm, timeZone, cycles: found, storedConfig };
}

/** The newest cycle of each flock (undefined: none): one Query (Limit 1) per flock, at most `parallel` at a time. */
export async function readLatestCycles(flockIds: readonly string[], parallel = 10): Promise<Map<string, CycleRecord | undefined>> {
  const latest = await eachLimited(flockIds, parallel, async (id) => {
    const res = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :c)',
        ExpressionAttributeValues: { ':pk': flockPartition(id), ':c': KEY.cycle },
        ScanIndexForward: false,
        Limit: 1,
        ConsistentRead: true,
      }),
    );
    return cycleFromItem(res.Items?.[0]);
  });
  return new Map(flockIds.map((id, i) => [id, latest[i]]));
}

export type FarmFlock = Pick<FlockRecord, 'id' | 'farmId' | 'houseId' | 'name' | 'birdType' | 'breed' | 'hatchDate' | 'status' | 'activeCycleId'>;

/**
 * A farm's flocks (`active`: the active ones; `all`: active and archived), the fields ranking needs
 * only: one Query of GSI1 per page (a projected flock is ~300 bytes, so thousands per page), at most `max`.
 */
export async function readFarmFlocks(farmId: string, status: 'active' | 'all', max: number): Promise<{ flocks: FarmFlock[]; complete: boolean }> {
  const flocks: FarmFlock[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'GSI1',
        KeyConditionExpression: status === 'all' ? 'GSI1PK = :pk' : 'GSI1PK = :pk AND begins_with(GSI1SK, :prefix)',
        ExpressionAttributeValues: { ':pk': flocksOfFarm(farmId).GSI1PK, ...(status === 'all' ? {} : { ':prefix': `${status}#` }) },
        ExpressionAttributeNames: { '#name': 'name', '#status': 'status' },
        ProjectionExpression: 'id, farmId, houseId, #name, birdType, breed, hatchDate, #status, activeCycleId',
        Limit: max + 1 - flocks.length,
        ExclusiveStartKey: start,
      }),
    );
    flocks.push(...(res.Items ?? []).map((i) => flockFromItem(i)!));
    start = res.LastEvaluatedKey;
  } while (start && flocks.length <= max);
  return { flocks: flocks.slice(0, max), complete: flocks.length <= max && !start };
}

import { batchGet } from './client.js';
import { withdrawalWindows } from './compliance.js';
import { cycleFromItem } from './cycles.js';
import type { CycleRecord } from '../domain/flocks/records.js';
import { farmFromItem, houseFromItem } from './farms.js';
import type { FarmRecord, HouseRecord } from '../domain/farms/records.js';
import { flockFromItem } from './flocks.js';
import type { FlockRecord } from '../domain/flocks/records.js';
import { cycleKey, farmKey, flockKey, houseKey, latestForecastKey, type Key } from './keys.js';
import { eggLotsOnHand, feedTypesInStock, WITHDRAWAL_REV } from './movements.js';
import type { EggLot } from '../domain/eggs/lots.js';
import { getSupplierAndOrder } from './procurement.js';
import type { OrderRecord, SupplierRecord } from '../domain/procurement/records.js';
import type { FlockForecast } from '../domain/predictive/records.js';
import type { WithdrawalWindow } from '../domain/compliance/withdrawals.js';
import type { MovementReads } from '../domain/movements/create.js';

/**
 * What recording a movement reads before it decides, in two round trips: first the records the request
 * names (the cycle, and the flocks birds enter with their forecasts), then what those point at (the
 * house and farm birds enter, the other cycle of a transfer, the sale's withdrawal windows, the
 * delivery's supplier and order, the farm's feed in stock), all at once.
 */
export interface MovementHeads {
  cycle: CycleRecord | undefined;
  /** The cycle's withdrawal revision as read with it (0 when none): a sale's write conditions on it. */
  withdrawalRev: number;
  flock?: FlockRecord | undefined;
  forecast?: FlockForecast | undefined;
  counterpartFlock?: FlockRecord | undefined;
  counterpartForecast?: FlockForecast | undefined;
  /** The cycle's egg lots on hand, oldest first: a movement that takes eggs. */
  eggLots?: EggLot[];
}

interface MovementHeadsQuery {
  flockId: string;
  cycleId: string;
  /** Birds enter this cycle's house: its flock and forecast. */
  withFlock: boolean;
  /** A transfer's other flock… */
  counterpartFlockId?: string | undefined;
  /** …and its forecast, when the birds enter that flock's house. */
  withCounterpartForecast?: boolean;
  /** The movement takes eggs: the cycle's lots on hand (a Query of the cycle's partition, beside the BatchGetItem). */
  eggLots?: boolean;
}

const same = (a: Key) => (i: Record<string, unknown>) => i.PK === a.PK && i.SK === a.SK;

/** Round one: ONE consistent BatchGetItem of the records named by the path and body (and, beside it, the cycle's egg lots). */
async function readMovementHeads(q: MovementHeadsQuery): Promise<MovementHeads> {
  const keys = { cycle: cycleKey(q.flockId, q.cycleId), flock: flockKey(q.flockId), forecast: latestForecastKey(q.flockId) };
  const other = q.counterpartFlockId ? { flock: flockKey(q.counterpartFlockId), forecast: latestForecastKey(q.counterpartFlockId) } : undefined;
  const wanted = [
    keys.cycle,
    ...(q.withFlock ? [keys.flock, keys.forecast] : []),
    ...(other ? [other.flock, ...(q.withCounterpartForecast ? [other.forecast] : [])] : []),
  ].filter((k, i, all) => all.findIndex((x) => x.PK === k.PK && x.SK === k.SK) === i);
  const [items, eggLots] = await Promise.all([batchGet(wanted, { consistent: true }), q.eggLots ? eggLotsOnHand(q.cycleId) : undefined]);
  const forecastOf = (k: Key) => items.find(same(k))?.data as FlockForecast | undefined;
  const cycleItem = items.find(same(keys.cycle));
  return {
    cycle: cycleFromItem(cycleItem),
    withdrawalRev: Number(cycleItem?.[WITHDRAWAL_REV] ?? 0),
    ...(eggLots ? { eggLots } : {}),
    ...(q.withFlock ? { flock: flockFromItem(items.find(same(keys.flock))), forecast: forecastOf(keys.forecast) } : {}),
    ...(other
      ? {
          counterpartFlock: flockFromItem(items.find(same(other.flock))),
          ...(q.withCounterpartForecast ? { counterpartForecast: forecastOf(other.forecast) } : {}),
        }
      : {}),
  };
}

export interface MovementSurroundings {
  house?: HouseRecord | undefined;
  farm?: FarmRecord | undefined;
  counterpartCycle?: CycleRecord | undefined;
  supplier?: SupplierRecord | undefined;
  order?: OrderRecord | undefined;
  /** The cycle's withdrawal windows from the sale's date on (read after the cycle, whose revision the sale conditions on). */
  windows?: WithdrawalWindow[];
  /** The feed types the farm holds (kg > 0), for a consumption that names none. */
  feedInStock?: string[];
}

interface MovementSurroundingsQuery {
  farmId: string;
  cycleId: string;
  /** The house birds enter (its farm is read with it: the density tier). */
  houseId?: string | null | undefined;
  counterpartCycle?: { flockId: string; cycleId: string } | undefined;
  supplierId?: string | undefined;
  orderId?: string | undefined;
  windowsFrom?: string | undefined;
  feedInStock?: boolean;
}

/** Round two: one BatchGetItem and the Queries it cannot hold, in parallel. */
async function readMovementSurroundings(q: MovementSurroundingsQuery): Promise<MovementSurroundings> {
  const house = q.houseId ? houseKey(q.farmId, q.houseId) : undefined;
  const farm = q.houseId ? farmKey(q.farmId) : undefined;
  const other = q.counterpartCycle ? cycleKey(q.counterpartCycle.flockId, q.counterpartCycle.cycleId) : undefined;
  const keys = [house, farm, other].filter((k): k is Key => k !== undefined);
  const [items, refs, windows, stock] = await Promise.all([
    keys.length ? batchGet(keys, { consistent: true }) : Promise.resolve([]),
    q.supplierId || q.orderId ? getSupplierAndOrder(q.supplierId, q.orderId) : Promise.resolve({}),
    q.windowsFrom !== undefined ? withdrawalWindows(q.farmId, { from: q.windowsFrom, cycleId: q.cycleId }) : Promise.resolve(undefined),
    q.feedInStock ? feedTypesInStock(q.farmId) : Promise.resolve(undefined),
  ]);
  return {
    ...(house ? { house: houseFromItem(items.find(same(house))), farm: farmFromItem(items.find(same(farm!))) } : {}),
    ...(other ? { counterpartCycle: cycleFromItem(items.find(same(other))) } : {}),
    ...refs,
    ...(windows ? { windows } : {}),
    ...(stock ? { feedInStock: stock.map((s) => s.feedType) } : {}),
  };
}

/**
 * Both rounds: the records named (round one), then what they point at (round two, skipped when the cycle
 * does not exist). The house read is the receiving flock's, and the other side's cycle its active one,
 * only within the cycle's farm: nothing of another farm is read on a body's say-so.
 */
export async function readMovementBasis(flockId: string, cycleId: string, q: MovementReads) {
  const heads = await readMovementHeads({ flockId, cycleId, ...q });
  const { cycle } = heads;
  if (!cycle) return { heads, around: {} as MovementSurroundings };
  const receiving = q.withFlock ? heads.flock : q.withCounterpartForecast ? heads.counterpartFlock : undefined;
  const other = heads.counterpartFlock;
  const around = await readMovementSurroundings({
    farmId: cycle.farmId,
    cycleId,
    houseId: receiving?.farmId === cycle.farmId ? receiving.houseId : undefined,
    counterpartCycle: other?.activeCycleId && other.farmId === cycle.farmId ? { flockId: other.id, cycleId: other.activeCycleId } : undefined,
    supplierId: q.supplierId,
    orderId: q.orderId,
    // eggs are judged on the days they were laid: the windows from the oldest lot on hand on
    windowsFrom: q.windowsFrom !== undefined && heads.eggLots?.[0] && heads.eggLots[0].laidOn < q.windowsFrom ? heads.eggLots[0].laidOn : q.windowsFrom,
    feedInStock: q.feedInStock,
  });
  return { heads, around, receiving };
}

/**
 * Egg lots rebuilt from a cycle's history (shared/domain/eggs/lot-history.ts): the reads the rebuild needs,
 * and the writes that bring stored lots to it, for a migration of live data (scripts/migrate-egg-lots.ts)
 * and for a restore of an export without lots.
 */
import { changesEggLots, lotAttributes, type LotBalance, type LotDifference } from '../domain/eggs/lot-history.js';
import type { CycleRef, MovementRecord } from '../domain/movements/record.js';
import { Conflict } from '../errors.js';
import { queryAll, tableName } from './client.js';
import type { Write } from './commit.js';
import { absentOr, all, eq, isNew } from './conditions.js';
import { cycleFromItem } from './cycles.js';
import { allFarmIds } from './flocks.js';
import { CYCLE_SK_PREFIX, cyclePartition, EGG_LOT_SK_PREFIX, eggLotKey, flockKey, flocksOfFarm, MOVEMENT_SK_PREFIX, movementKey } from './keys.js';
import { eggLotDescriptor, lotFromItem, movementFromItem } from './movements.js';

const inPartition = (cycleId: string, prefix: string) => ({
  TableName: tableName(),
  KeyConditionExpression: 'PK = :pk AND begins_with(SK, :s)',
  ExpressionAttributeValues: { ':pk': cyclePartition(cycleId), ':s': prefix },
  ConsistentRead: true,
});

/**
 * A cycle's egg lots (emptied ones too), THEN its egg movements, each one consistent Query. The order
 * matters: a movement recorded between the two reads is in the history but not in the lots read, so
 * the lots it changed differ from what was read and their conditioned writes fail (run again).
 */
export async function eggHistoryOf(cycleId: string): Promise<{ lots: LotBalance[]; movements: MovementRecord[] }> {
  const lots = (await queryAll(inPartition(cycleId, EGG_LOT_SK_PREFIX))).map(lotFromItem);
  const movements = (await queryAll(inPartition(cycleId, MOVEMENT_SK_PREFIX))).map((i) => movementFromItem(i)!).filter((m) => changesEggLots(m.type));
  return { lots, movements };
}

/**
 * A lot brought to its history: the differences ADDed, on the condition that the lot still holds what
 * was read (absent when it was not stored). Run twice, the second run finds no difference; run beside a
 * movement that changes the lot, one of the two fails and the other counts it once.
 */
export function lotBackfillWrite(ref: CycleRef, d: LotDifference, now: string): Write {
  const read: Record<string, number> = d.stored ? lotAttributes(d.stored) : {};
  const held = [...new Set([...Object.keys(read), ...Object.keys(d.add)])].map((k) => (read[k] ? eq(k, read[k]) : absentOr(k, 0)));
  return {
    update: eggLotKey(ref.cycleId, d.laidOn),
    add: d.add,
    set: { ...eggLotDescriptor(ref, d.laidOn), updatedAt: now },
    when: d.stored ? all(...held) : isNew(),
    failed: () => new Conflict(`Egg lot ${d.laidOn} of cycle ${ref.cycleId} changed while its history was read; run again`),
  };
}

/** A movement recorded before lots, given the lots the rebuild drew for it (`fromLots`), at the version read. */
export const movementLotsWrite = (m: MovementRecord, fields: Record<string, unknown>): Write => ({
  update: movementKey(m.cycleId, m.id),
  set: { fields },
  version: { read: m.version, what: `Movement ${m.id}` },
});

/** A lot as a whole item (a restore writes the lots its file lacks). */
export const eggLotItem = (ref: CycleRef, l: LotBalance, now: string): Record<string, unknown> => ({
  ...eggLotKey(ref.cycleId, l.laidOn),
  ...eggLotDescriptor(ref, l.laidOn),
  ...lotAttributes(l),
  updatedAt: now,
});

/** Every cycle of the farms named (all farms when none), farm by farm and flock by flock: never a Scan. */
export async function* cyclesOf(farmIds?: readonly string[]): AsyncGenerator<CycleRef> {
  for (const farmId of farmIds ?? (await allFarmIds())) {
    const flocks = await queryAll({
      TableName: tableName(),
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': flocksOfFarm(farmId).GSI1PK },
      ProjectionExpression: 'id',
    });
    for (const flock of flocks) {
      const cycles = await queryAll({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :c)',
        ExpressionAttributeValues: { ':pk': flockKey(String(flock.id)).PK, ':c': CYCLE_SK_PREFIX },
      });
      for (const item of cycles) {
        const c = cycleFromItem(item)!;
        yield { farmId: c.farmId, flockId: c.flockId, cycleId: c.id };
      }
    }
  }
}

import type { FarmLedgerGroup } from '../domain/movements/farm.js';
import type { FarmMovementRecord } from '../domain/movements/record.js';
import type { FeedDeliveryFact } from '../domain/analytics/suppliers.js';
import { copiesOf } from '../domain/movement-copies.js';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, db, queryAll, tableName } from './client.js';
import type { Write } from './commit.js';
import { isNew } from './conditions.js';
import { farmFromItem, houseFromItem } from './farms.js';
import { DELIVERY_SK_PREFIX, farmDeliveryKey, farmKey, farmMovementKey, farmMovementLocator, farmPartition, houseKey, movementsOfFarm } from './keys.js';
import { movementChanged, stockChangeWrite, unlocked } from './movements.js';
import { pick } from './items.js';

/**
 * Deliveries booked on the farm's stock without a cycle: the movement in the farm's partition
 * (`FARM#<farmId>` / `MOV#<id>`), listed with the cycle movements on GSI2 `MOVEMENTS#<farmId>` /
 * `<date>#<id>` (the inventory search and export read both), and a feed delivery's supplier facts beside it
 * (`DELIVERY#<id>`). Their writes: the movement, its copy and the farm's stock, in one commit.
 */

const FIELDS: readonly (keyof FarmMovementRecord)[] = ['id', 'farmId', 'type', 'date', 'fields', 'lock', 'createdAt', 'createdBy', 'updatedAt', 'version'];

export function farmMovementFromItem(item: Record<string, unknown> | undefined): FarmMovementRecord | undefined {
  if (!item) return undefined;
  return { ...pick<FarmMovementRecord>(item, FIELDS, null), cycleId: null, flockId: null };
}

function farmMovementItem(m: FarmMovementRecord) {
  return {
    ...farmMovementKey(m.farmId, m.id),
    ...farmMovementLocator(m.id),
    ...movementsOfFarm(m.farmId),
    GSI2SK: `${m.date}#${m.id}`,
    entity: 'FarmMovement',
    ...m,
  };
}

/** A feed delivery's supplier facts, as the ledger's copy rule (`copiesOf`) says, under the farm. */
function copyWrites(m: FarmMovementRecord): Write[] {
  return copiesOf({ ...m, flockId: '', cycleId: '' })
    .filter((c) => c.kind === 'delivery')
    .map((c) => ({ put: { ...farmDeliveryKey(m.farmId, m.id), entity: 'FeedDelivery', farmId: m.farmId, ...c.item }, failed: movementChanged(m.id) }));
}

export interface FarmLedgerWrite {
  group: FarmLedgerGroup;
  puts?: FarmMovementRecord[];
  /** The movement at its version, still unlocked (created after `createdAfter`). */
  replace?: { movement: FarmMovementRecord; expectedVersion: number; createdAfter: string };
  remove?: { movement: FarmMovementRecord; createdAfter: string };
}

/** The writes of one farm movement's create, correction or deletion: the movement, its copy, the stock changes (never below zero). */
export function farmLedgerWrites(w: FarmLedgerWrite, now: string): Write[] {
  const writes: Write[] = [];
  for (const m of w.puts ?? []) writes.push({ put: farmMovementItem(m), when: isNew(), failed: movementChanged(m.id) }, ...copyWrites(m));
  if (w.replace) {
    const { movement, expectedVersion, createdAfter } = w.replace;
    // the copy's key is the movement's: a put replaces it
    writes.push(
      { put: farmMovementItem(movement), when: unlocked(expectedVersion, createdAfter), failed: movementChanged(movement.id) },
      ...copyWrites(movement),
    );
  }
  if (w.remove) {
    const { movement, createdAfter } = w.remove;
    writes.push({
      delete: farmMovementKey(movement.farmId, movement.id),
      when: unlocked(movement.version, createdAfter),
      failed: movementChanged(movement.id),
    });
    if (movement.type === 'feed_delivery') writes.push({ delete: farmDeliveryKey(movement.farmId, movement.id), failed: movementChanged(movement.id) });
  }
  for (const change of w.group.changes) writes.push(stockChangeWrite(w.group.farmId, change, now));
  return writes;
}

/** The farm and the house a farm movement names, in one BatchGetItem (consistent). */
export async function getFarmAndBin(farmId: string, houseId: string | undefined) {
  const items = await batchGet([farmKey(farmId), ...(houseId ? [houseKey(farmId, houseId)] : [])], { consistent: true });
  return {
    farm: farmFromItem(items.find((i) => i.SK === 'META')),
    house: houseFromItem(items.find((i) => i.SK !== 'META')),
  };
}

/** The farm a farm movement belongs to, from its id alone (GSI1 locator, one Query); undefined when there is none. */
export async function farmOfFarmMovement(movementId: string): Promise<string | undefined> {
  const res = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': farmMovementLocator(movementId).GSI1PK },
      ProjectionExpression: 'farmId',
      Limit: 1,
    }),
  );
  return res.Items?.[0]?.farmId as string | undefined;
}

/** The farm and one of its farm movements, in one BatchGetItem (consistent). */
export async function getFarmAndMovement(farmId: string, movementId: string) {
  const key = farmMovementKey(farmId, movementId);
  const items = await batchGet([farmKey(farmId), key], { consistent: true });
  return {
    farm: farmFromItem(items.find((i) => i.SK === 'META')),
    movement: farmMovementFromItem(items.find((i) => i.SK === key.SK)),
  };
}

const farmDeliveryItems = (farmId: string) =>
  queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': farmPartition(farmId), ':prefix': DELIVERY_SK_PREFIX },
    ConsistentRead: true,
  });

/** The supplier facts of the feed deliveries booked on the farm (its `DELIVERY#` copies), dated within `from`–`to` when given: one Query. */
export async function readFarmDeliveries(farmId: string, period: { from?: string; to?: string } = {}): Promise<FeedDeliveryFact[]> {
  const { from = '0000', to = '9999' } = period;
  return (await farmDeliveryItems(farmId)).map(deliveryFactOf).filter((d) => d.date >= from && d.date <= to);
}

/** A supplier's feed deliveries booked on the farm by hand (not by a receipt, which keeps its own facts): one Query. */
export async function bookedDeliveriesOfSupplier(farmId: string, supplierId: string): Promise<FeedDeliveryFact[]> {
  return (await farmDeliveryItems(farmId)).filter((i) => i.supplierId === supplierId && !i.receiptId).map(deliveryFactOf);
}

/** A `DELIVERY#` copy (of a cycle or of the farm) as the analytics reads it. */
export function deliveryFactOf(i: Record<string, unknown>): FeedDeliveryFact {
  return {
    date: String(i.date),
    supplierId: (i.supplierId as string | undefined) ?? null,
    feedType: String(i.feedType),
    quantityKg: Number(i.quantityKg),
    orderedDate: (i.orderedDate as string | undefined) ?? null,
    expectedDate: (i.expectedDate as string | undefined) ?? null,
    orderedQuantityKg: (i.orderedQuantityKg as number | undefined) ?? null,
    qualityIssues: (i.qualityIssues as string[] | undefined) ?? null,
    unitPrice: (i.unitPrice as number | undefined) ?? null,
  };
}

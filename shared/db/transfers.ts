import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, db, tableName } from './client.js';
import type { Write } from './commit.js';
import { absent, eq, isNew } from './conditions.js';
import {
  equipmentHeldBy,
  equipmentKey,
  equipmentOwnedBy,
  RESTRICTION_ITEMS_PREFIX,
  restrictionFlagKey,
  transferKey,
  transfersFromFarm,
  transfersToFarm,
} from './keys.js';
import { gsi1Page, gsi2Page, invalidCursor, openCursor, sealCursor } from './pagination.js';
import { equalityFilter, pick } from './items.js';
import { Conflict, NotFound } from '../errors.js';
import type { TransferStatus } from '../../schemas/sharing.js';
import { FarmRestricted, type EquipmentLine, type TransferRecord } from '../domain/transfers/records.js';

/**
 * Transfers between farms (docs/data-model.md, "Sharing"): `TRANSFER#<id>`/`META`, listed per sending
 * farm on GSI1 and per receiving farm on GSI2 (newest first); the register of shared equipment
 * (`EQUIPMENT#<id>`/`META`, its holder moves on completion); the farm's restriction flag, which every
 * request and completion checks in its transaction.
 */

const FIELDS = [
  'id',
  'kind',
  'status',
  'from',
  'to',
  'quantity',
  'feedType',
  'grade',
  'unitCost',
  'items',
  'notes',
  'requestedBy',
  'approved',
  'rejected',
  'cancelled',
  'completed',
  'completedDate',
  'date',
  'createdAt',
  'updatedAt',
  'version',
] as const satisfies readonly (keyof TransferRecord)[];

export const transferNotFound = (id: string) => new NotFound(`Transfer ${id} not found`);
const fromItem = (item: Record<string, unknown> | undefined): TransferRecord | undefined => (item ? pick<TransferRecord>(item, FIELDS, null) : undefined);
const sortKey = (t: TransferRecord) => `${t.createdAt}#${t.id}`;
const transferItem = (t: TransferRecord) => ({
  ...transferKey(t.id),
  ...transfersFromFarm(t.from.farmId),
  GSI1SK: sortKey(t),
  ...transfersToFarm(t.to.farmId),
  GSI2SK: sortKey(t),
  type: 'Transfer',
  ...t,
});

/**
 * The disease-suspicion incidents (not closed) that restrict a farm's movements: one strongly consistent
 * Query of the farm's `RESTRICTION…` items reads both the flag (`RESTRICTIONS`, its `incidentIds`) and the
 * per-incident `RESTRICTION#<incidentId>` items. The transaction's ConditionCheck sees only the flag;
 * reading the items too refuses a restriction written before the flag existed (no backfill needed), and
 * an incident opened after this read is caught by the flag, which its transaction writes.
 */
export async function restrictionsOf(farmId: string): Promise<string[]> {
  const res = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': restrictionFlagKey(farmId).PK, ':prefix': RESTRICTION_ITEMS_PREFIX },
      ConsistentRead: true,
    }),
  );
  const ids = new Set<string>();
  for (const item of res.Items ?? []) {
    for (const id of (item.incidentIds as Set<string> | undefined) ?? []) ids.add(id);
    if (typeof item.incidentId === 'string') ids.add(item.incidentId);
  }
  return [...ids].sort();
}

/** The check that holds only while the farm has no restricting incident (the flag's set is absent once emptied). */
export const unrestricted = (farmId: string): Write => ({
  check: restrictionFlagKey(farmId),
  when: absent('incidentIds'),
  failed: () => new FarmRestricted(farmId, []),
});

export async function getTransfer(id: string): Promise<TransferRecord | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: transferKey(id), ConsistentRead: true }));
  return fromItem(res.Item);
}

/**
 * A new transfer: the sending farm is not restricted (the receiving farm is not looked up: a request
 * answers alike for a real and a made-up farm, docs/decisions.md, "References in bodies"), and the
 * transfer is new.
 */
export function transferCreate(t: TransferRecord): Write[] {
  return [unrestricted(t.from.farmId), { put: transferItem(t), when: isNew(), failed: () => new Conflict('A transfer with this id already exists') }];
}

/** The transfer's status changed by another request since it was read: the service names what it is now. */
export class TransferLost extends Conflict {
  constructor(readonly transferId: string) {
    super(`Transfer ${transferId} was changed concurrently`);
  }
}

/**
 * The transfer's step at the version read (`stated`: the body's version; the request's If-Match is about
 * it too), and only from the status read (a completion also from `approved` only).
 */
export function transferStep(current: TransferRecord, fields: Partial<TransferRecord>, stated: number | undefined): Write {
  return {
    update: transferKey(current.id),
    set: fields,
    version: { read: current.version, what: `Transfer ${current.id}`, stated, subject: true },
    when: eq('status', current.status),
    failed: () => new TransferLost(current.id),
  };
}

export interface EquipmentRecord {
  id: string;
  name: string;
  serial: string | null;
  ownerFarmId: string;
  holderFarmId: string;
  updatedAt: string;
}

const EQUIPMENT_FIELDS = ['id', 'name', 'serial', 'ownerFarmId', 'holderFarmId', 'updatedAt'] as const;

export async function getEquipment(ids: readonly string[]): Promise<EquipmentRecord[]> {
  if (ids.length === 0) return [];
  const items = await batchGet(
    ids.map((id) => equipmentKey(id)),
    { consistent: true },
  );
  return items.map((i) => pick<EquipmentRecord>(i, EQUIPMENT_FIELDS, null));
}

/** A completion's move of one piece of equipment: a registered piece changes holder only if the sender holds it; a new one is registered, held by the receiver. */
export function equipmentMove(line: EquipmentLine, fromFarmId: string, toFarmId: string, now: string): Write {
  if (line.registers) {
    const item: EquipmentRecord = {
      id: line.equipmentId,
      name: line.name,
      serial: line.serial,
      ownerFarmId: fromFarmId,
      holderFarmId: toFarmId,
      updatedAt: now,
    };
    const listed = { ...equipmentHeldBy(toFarmId), GSI1SK: equipmentSortKey(item), ...equipmentOwnedBy(fromFarmId), GSI2SK: equipmentSortKey(item) };
    return {
      put: { ...equipmentKey(line.equipmentId), type: 'Equipment', ...listed, ...item },
      when: isNew(),
      failed: () => new Conflict(`Equipment ${line.equipmentId} is already registered`),
    };
  }
  return {
    update: equipmentKey(line.equipmentId),
    set: { holderFarmId: toFarmId, GSI1PK: equipmentHeldBy(toFarmId).GSI1PK, updatedAt: now },
    when: eq('holderFarmId', fromFarmId),
    failed: () => new Conflict(`Equipment ${line.equipmentId} is no longer held by farm ${fromFarmId}`),
  };
}

const equipmentSortKey = (e: { name: string; id: string }) => `${e.name.toLowerCase()}#${e.id}`;

/** A page of the register: the pieces a farm holds now (`held`) or owns wherever they are (`owned`), by name. */
export async function listEquipmentOfFarm(
  farmId: string,
  side: 'held' | 'owned',
  opts: { limit: number; cursor?: string },
): Promise<{ items: EquipmentRecord[]; nextCursor: string | null }> {
  const page = side === 'held' ? await gsi1Page(equipmentHeldBy(farmId), {}, opts) : await gsi2Page(equipmentOwnedBy(farmId), {}, opts);
  return { items: page.items.map((i) => pick<EquipmentRecord>(i, EQUIPMENT_FIELDS, null)), nextCursor: page.nextCursor };
}

/** The two lists of a farm's transfers: those it sends (GSI1) and those it receives (GSI2), both by `<createdAt>#<id>`. */
const SIDES = {
  outgoing: { index: 'GSI1', pk: 'GSI1PK', sk: 'GSI1SK', partition: (farmId: string) => transfersFromFarm(farmId).GSI1PK },
  incoming: { index: 'GSI2', pk: 'GSI2PK', sk: 'GSI2SK', partition: (farmId: string) => transfersToFarm(farmId).GSI2PK },
} as const;
export type TransferDirection = 'both' | keyof typeof SIDES;

/** Where a page stopped: the sort key of the last transfer it covered (the next page lists older ones). */
const SORT_KEY = /^\d{4}-\d{2}-\d{2}T[\d:.]+Z#[0-9A-HJKMNP-TV-Z]{26}$/;
const isPosition = (p: unknown): p is { before: string } =>
  typeof p === 'object' &&
  p !== null &&
  Object.keys(p).length === 1 &&
  typeof (p as { before?: unknown }).before === 'string' &&
  SORT_KEY.test((p as { before: string }).before);

/**
 * A page of a farm's transfers, newest first: those it sends, those it receives, or both (one Query of
 * each list, merged by `<createdAt>#<id>`); `status` filters. A page ends where every list read has been
 * read down to, so no transfer is skipped or listed twice; a filtered page may hold fewer than `limit`
 * while a cursor follows.
 */
export async function listTransfersOfFarm(
  farmId: string,
  direction: TransferDirection,
  status: TransferStatus | undefined,
  opts: { limit: number; cursor?: string },
): Promise<{ items: TransferRecord[]; nextCursor: string | null }> {
  const list = { list: 'transfers-of-farm', farmId, direction, status: status ?? null };
  const position = openCursor(list, opts.cursor);
  if (position !== undefined && !isPosition(position)) throw invalidCursor();
  const before = position?.before;
  const sides = direction === 'both' ? [SIDES.outgoing, SIDES.incoming] : [SIDES[direction]];
  const reads = await Promise.all(
    sides.map(async (side) => {
      const res = await db().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: side.index,
          KeyConditionExpression: `${side.pk} = :pk${before ? ` AND ${side.sk} < :before` : ''}`,
          ...equalityFilter({ status }, { ':pk': side.partition(farmId), ...(before ? { ':before': before } : {}) }),
          ScanIndexForward: false,
          Limit: opts.limit + 1, // one more than the page: a list that ends here says so (no cursor to an empty page)
        }),
      );
      // a list cut short by Limit has been read down to its last key; the rest of it is older
      return { items: res.Items ?? [], readTo: res.LastEvaluatedKey ? String(res.LastEvaluatedKey[side.sk]) : null };
    }),
  );
  // what every list has been read down to: newer transfers are all known, older ones wait for the next page
  const floor = reads.reduce<string | null>((f, r) => (r.readTo !== null && (f === null || r.readTo > f) ? r.readTo : f), null);
  const known = reads
    .flatMap((r) => r.items.map((i) => fromItem(i)!))
    .filter((t) => floor === null || sortKey(t) >= floor)
    .sort((a, b) => (sortKey(a) < sortKey(b) ? 1 : -1));
  const items = known.slice(0, opts.limit);
  const last = items.at(-1);
  const stop = items.length < known.length ? sortKey(last!) : floor;
  return { items, nextCursor: stop === null ? null : sealCursor(list, { before: stop }) };
}

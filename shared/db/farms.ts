import type { FarmChanges, FarmRecord, HouseChanges, HouseRecord } from '../domain/farms/records.js';
import { farmNotFound } from '../domain/references.js';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulidx';
import { batchGet, db, tableName } from './client.js';
import { commit, type Versioned, type Write } from './commit.js';
import { absent, all, any, eq, exists, isNew, sizeBelow } from './conditions.js';
import { HOUSE_SK_PREFIX, defaultFarmKey, farmKey, gsi1, houseKey, houseNameKey, userKey } from './keys.js';
import { queryPage } from './pagination.js';
import { systemCaller } from '../domain/caller.js';
import { commandContext } from '../domain/command.js';
import { nameKey } from '../domain/names.js';
import { Conflict, type AppError } from '../errors.js';

/**
 * Farms and their houses. A farm is `FARM#<id>`/`META` (listed for admins through GSI1 `FARMS`, ordered
 * by lower-cased name); its houses live in the same partition (`HOUSE#<id>`), next to one
 * `HOUSENAME#<normalized name>` item per house that makes house names unique within the farm.
 */

const farmSortKey = (name: string, id: string) => `${nameKey(name)}#${id}`;

function farmItem(farm: FarmRecord) {
  return { ...farmKey(farm.id), ...gsi1.farms, GSI1SK: farmSortKey(farm.name, farm.id), type: 'Farm', ...farm };
}

function houseItem(house: HouseRecord) {
  return { ...houseKey(house.farmId, house.id), type: 'House', ...house };
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);

/** Stored item → record; items written before a field existed (the seeded default farm) get its default. */
export function farmFromItem(item: Record<string, unknown> | undefined): FarmRecord | undefined {
  if (!item) return undefined;
  return {
    id: item.id as string,
    name: item.name as string,
    location: str(item.location),
    countryCode: str(item.countryCode),
    timezone: str(item.timezone) ?? 'UTC',
    totalAreaHa: num(item.totalAreaHa),
    densityTier: item.densityTier === 39 || item.densityTier === 42 ? item.densityTier : 33,
    waterReserveLiters: num(item.waterReserveLiters),
    notes: str(item.notes),
    isDefault: item.isDefault === true,
    createdBy: str(item.createdBy),
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
    version: item.version as number,
  };
}

export function houseFromItem(item: Record<string, unknown> | undefined): HouseRecord | undefined {
  if (!item) return undefined;
  return {
    id: item.id as string,
    farmId: item.farmId as string,
    name: item.name as string,
    nameKey: str(item.nameKey) ?? nameKey(item.name as string),
    usableAreaM2: item.usableAreaM2 as number,
    capacity: item.capacity as number,
    houseType: str(item.houseType),
    cageAreaM2: num(item.cageAreaM2),
    rangeAreaM2: num(item.rangeAreaM2),
    notes: str(item.notes),
    createdBy: str(item.createdBy),
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
    version: item.version as number,
  };
}

// ---------------------------------------------------------------------------------------------------
// The default farm (used by `npm start`'s seed and by admin user creation)

/** The part of the farm repository the foundation needs: the default farm and existence checks. */
export async function getDefaultFarmId(): Promise<string | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: defaultFarmKey(), ConsistentRead: true }));
  return res.Item?.farmId as string | undefined;
}

/** Creates the default farm once (idempotent, race-safe): the pointer and the farm in one transaction. */
export async function ensureDefaultFarm(name: string): Promise<{ id: string; created: boolean }> {
  const existing = await getDefaultFarmId();
  if (existing) return { id: existing, created: false };
  const ctx = commandContext(systemCaller('default-farm', [], 'all'));
  const now = ctx.now.toISOString();
  const farm: FarmRecord = {
    id: ulid(),
    name,
    location: null,
    countryCode: null,
    timezone: 'UTC',
    totalAreaHa: null,
    densityTier: 33,
    waterReserveLiters: null,
    notes: null,
    isDefault: true,
    createdBy: null,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  try {
    await commit(ctx, { writes: [{ put: { ...defaultFarmKey(), type: 'DefaultFarm', farmId: farm.id }, when: isNew() }, farmWrites.create(farm)] });
    return { id: farm.id, created: true };
  } catch (err) {
    if (err instanceof Conflict) return { id: (await getDefaultFarmId())!, created: false };
    throw err;
  }
}

/** Which of `ids` name existing farms. */
export async function existingFarmIds(ids: readonly string[]): Promise<Set<string>> {
  const items = await batchGet(
    ids.map((id) => farmKey(id)),
    { projection: 'id' },
  );
  return new Set(items.map((i) => i.id as string));
}

// ---------------------------------------------------------------------------------------------------
// Farms

export async function getFarm(id: string): Promise<FarmRecord | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: farmKey(id), ConsistentRead: true }));
  return farmFromItem(res.Item);
}

/** The farms of `ids` that exist, in the order of `ids` (one BatchGetItem per 100 ids). */
export async function getFarmsByIds(ids: readonly string[]): Promise<FarmRecord[]> {
  if (ids.length === 0) return [];
  const items = await batchGet(ids.map((id) => farmKey(id)));
  const byId = new Map(items.map((i) => [i.id as string, farmFromItem(i)!]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

/** Every farm, by name (GSI1 `FARMS`): the admin's list. */
export async function listAllFarms(opts: { limit: number; cursor?: string }): Promise<{ items: FarmRecord[]; nextCursor: string | null }> {
  const page = await queryPage({ IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': gsi1.farms.GSI1PK } }, opts);
  return { items: page.items.map((i) => farmFromItem(i)!), nextCursor: page.nextCursor };
}

/** The writes of farms: a new farm, a change (only the named attributes: other modules keep on the item survive). */
export const farmWrites = {
  create: (farm: FarmRecord): Write => ({ put: farmItem(farm), when: isNew() }),
  /** A rename also moves the farm in the admin list (GSI1SK). */
  update: (farmId: string, changes: FarmChanges, version: Versioned): Write => ({
    update: farmKey(farmId),
    set: { ...changes, ...(changes.name !== undefined ? { GSI1SK: farmSortKey(changes.name, farmId) } : {}) },
    version,
  }),
  /**
   * The farm appended to its creator's `farmIds` (an atomic `list_append`, so a concurrent change of the
   * user is never overwritten; `version` is bumped so a stale admin PATCH of the user is a Conflict), as
   * long as the user exists and holds fewer than `maxFarms` farms (else the error `refused` names).
   */
  assignCreator: (userId: string, farmId: string, now: string, maxFarms: number, refused: () => AppError): Write => ({
    update: userKey(userId),
    append: { farmIds: [farmId] },
    set: { updatedAt: now },
    add: { version: 1 },
    when: all(exists(), any(absent('farmIds'), sizeBelow('farmIds', maxFarms))),
    failed: refused,
  }),
};

// ---------------------------------------------------------------------------------------------------
// Houses

const houseNameTaken = (name: string) => new Conflict(`A house named "${name}" already exists in this farm`);

/** The farm and one of its houses in ONE strongly consistent BatchGetItem. */
export async function getFarmAndHouse(farmId: string, houseId: string): Promise<{ farm: FarmRecord | undefined; house: HouseRecord | undefined }> {
  const fk = farmKey(farmId);
  const hk = houseKey(farmId, houseId);
  const found = await batchGet([fk, hk], { consistent: true });
  return {
    farm: farmFromItem(found.find((i) => i.SK === fk.SK)),
    house: houseFromItem(found.find((i) => i.SK === hk.SK)),
  };
}

export async function getHouse(farmId: string, houseId: string): Promise<HouseRecord | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: houseKey(farmId, houseId), ConsistentRead: true }));
  return houseFromItem(res.Item);
}

/** A farm's houses in creation order (one Query on the farm's partition, `begins_with(SK, HOUSE#)`). */
export async function listHouses(farmId: string, opts: { limit: number; cursor?: string }): Promise<{ items: HouseRecord[]; nextCursor: string | null }> {
  const page = await queryPage(
    { KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)', ExpressionAttributeValues: { ':pk': farmKey(farmId).PK, ':prefix': HOUSE_SK_PREFIX } },
    opts,
  );
  return { items: page.items.map((i) => houseFromItem(i)!), nextCursor: page.nextCursor };
}

/**
 * The writes of houses. A create: the farm must exist (→ NotFound), the name must be free in the farm
 * (its uniqueness item is new → Conflict), the house is new; concurrent creates of one name: exactly one
 * wins. A change at the version read; a rename (another normalized name) releases the old name item and
 * claims the new one (Conflict when the new name is taken).
 */
export const houseWrites = {
  create: (house: HouseRecord): Write[] => [
    { check: farmKey(house.farmId), when: exists(), failed: () => farmNotFound(house.farmId) },
    nameClaim(house.farmId, house.nameKey, house.id, house.name),
    { put: houseItem(house), when: isNew() },
  ],
  update: (current: HouseRecord, changes: HouseChanges, version: Versioned): Write[] => {
    const write: Write = { update: houseKey(current.farmId, current.id), set: { ...changes }, version };
    if (changes.nameKey === undefined || changes.nameKey === current.nameKey) return [write];
    const changed = () => new Conflict(`House ${current.id} was changed by another request (expected version ${version.read}); read it again and retry`);
    return [
      write,
      { delete: houseNameKey(current.farmId, current.nameKey), when: any(absent(), eq('houseId', current.id)), failed: changed },
      nameClaim(current.farmId, changes.nameKey, current.id, changes.name ?? current.name),
    ];
  },
};

function nameClaim(farmId: string, key: string, houseId: string, name: string): Write {
  return { put: { ...houseNameKey(farmId, key), type: 'HouseNameClaim', houseId }, when: isNew(), failed: () => houseNameTaken(name) };
}

/** The house with this id in any of these farms (one BatchGetItem of ≤ 100 keys), or undefined. */
export async function findHouseInFarms(farmIds: readonly string[], houseId: string): Promise<HouseRecord | undefined> {
  if (farmIds.length === 0) return undefined;
  const found = await batchGet(farmIds.map((f) => houseKey(f, houseId)));
  return houseFromItem(found[0]);
}

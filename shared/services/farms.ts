import { ensureDefaultRules } from './rules/defaults.js';
import { ulid } from 'ulidx';
import { canAccessFarm, visibleTo } from '../domain/farm-access.js';
import { diff } from '../domain/accounts.js';
import type { CommandContext } from '../domain/command.js';
import { checkVersion, commit, type Versioned } from '../db/commit.js';
import type { AuditEvent } from '../domain/decision.js';
import {
  farmWrites,
  findHouseInFarms,
  getFarm,
  getFarmAndHouse,
  getFarmsByIds,
  houseNotFound,
  houseWrites,
  listAllFarms,
  listHouses,
  type FarmChanges,
  type FarmRecord,
  type HouseChanges,
  type HouseRecord,
} from '../db/farms.js';
import { farmNotFound } from '../domain/references.js';
import { Conflict, ValidationFailed } from '../errors.js';
import type { Caller } from '../domain/caller.js';
import { displayName, nameKey } from '../domain/names.js';
import { locateCycle } from '../db/cycles.js';
import { allFarmIds } from '../db/flocks.js';
import { scopedFlock } from './flocks/flocks.js';
import { openCursor, sealCursor } from '../db/pagination.js';
import { idempotentCommand } from './idempotency.js';
import type { CreateFarmBody, CreateHouseBody, UpdateFarmBody, UpdateHouseBody } from '../../schemas/farms.js';
import { log } from '../platform/log.js';

/**
 * Farms and houses (the Configuration group), scoped to the caller's farms (../domain/farm-access.ts):
 * a farm the caller may not see is answered exactly like a farm that does not exist (`Farm <id> not
 * found`), on every route, before any read.
 *
 * A non-admin who creates a farm is assigned to it in the same transaction (else the creator could not
 * see what it just made); admins see every farm and are not assigned.
 */

/** A non-admin can be assigned at most this many farms by creating them (the admin API's farmIds limit). */
export const MAX_FARMS_PER_USER = 100;
const farmLimitReached = () =>
  new Conflict(`You are assigned to the maximum of ${MAX_FARMS_PER_USER} farms; ask an admin to unassign one before creating another (nothing was created)`);

export function toFarmDto(f: FarmRecord) {
  return {
    id: f.id,
    name: f.name,
    location: f.location,
    countryCode: f.countryCode,
    timezone: f.timezone,
    totalAreaHa: f.totalAreaHa,
    densityTier: f.densityTier,
    waterReserveLiters: f.waterReserveLiters,
    notes: f.notes,
    isDefault: f.isDefault,
    createdBy: f.createdBy,
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
    version: f.version,
  };
}

export function toHouseDto(h: HouseRecord) {
  return {
    id: h.id,
    farmId: h.farmId,
    name: h.name,
    usableAreaM2: h.usableAreaM2,
    capacity: h.capacity,
    type: h.houseType,
    notes: h.notes,
    createdBy: h.createdBy,
    createdAt: h.createdAt,
    updatedAt: h.updatedAt,
    version: h.version,
  };
}

/** Optional free text: trimmed; absent or null → null. */
const cleanText = (text: string | null | undefined): string | null => (text === undefined || text === null ? null : text.trim());

/** The canonical spelling of an IANA time zone (`europe/paris` → `Europe/Paris`), or undefined if unknown. */
export function canonicalTimeZone(zone: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

function timeZoneOrThrow(zone: string): string {
  const canonical = canonicalTimeZone(zone);
  if (!canonical) throw new ValidationFailed([{ field: 'timezone', message: `"${zone}" is not a known IANA time zone (e.g. "Africa/Dakar", "UTC")` }]);
  return canonical;
}

/** The farm if the caller may see it and it exists; otherwise the one NotFound (no read for a farm out of scope). */
async function visibleFarm(user: Caller, farmId: string): Promise<FarmRecord> {
  const farm = canAccessFarm(user, farmId) ? await getFarm(farmId) : undefined;
  return visibleTo(
    user,
    farm,
    () => farmNotFound(farmId),
    (f) => f.id,
  );
}

// ---------------------------------------------------------------------------------------------------
// Farms

/** Where a page of a user's own farms stopped: after which farm id, at which position of their list. */
interface IdCursor {
  a: string;
  n: number;
}

/**
 * Admins: every farm by name (one Query on GSI1). Everyone else: their own farms in the order of their
 * `farmIds` (one BatchGetItem per page); the cursor (sealed for this user's list) names the last farm
 * returned, so a page continues after it even when the list changed meanwhile (or at the same position
 * when that farm was removed).
 */
export async function listFarmsFor(user: Caller, opts: { limit: number; cursor?: string }): Promise<{ items: FarmRecord[]; nextCursor: string | null }> {
  if (user.allFarms) return listAllFarms(opts);
  const ids = user.farmIds;
  const list = ['farms of', user.id];
  const c = openCursor(list, opts.cursor) as IdCursor | undefined;
  const at = c ? ids.indexOf(c.a) : -1;
  const start = c ? (at >= 0 ? at + 1 : Math.min(c.n, ids.length)) : 0;
  const slice = ids.slice(start, start + opts.limit);
  const end = start + slice.length;
  return {
    items: await getFarmsByIds(slice),
    nextCursor: end < ids.length && slice.length > 0 ? sealCursor(list, { a: slice[slice.length - 1]!, n: end } satisfies IdCursor) : null,
  };
}

export const getFarmFor = visibleFarm;

export async function createFarmFor(ctx: CommandContext, body: CreateFarmBody) {
  const { caller } = ctx;
  return idempotentCommand(ctx, 'farm', body, async (ctx) => {
    const timezone = body.timezone === undefined ? 'UTC' : timeZoneOrThrow(body.timezone);
    const now = ctx.now.toISOString();
    const farm: FarmRecord = {
      id: ulid(),
      name: displayName(body.name),
      location: cleanText(body.location),
      countryCode: body.countryCode ?? null,
      timezone,
      totalAreaHa: body.totalAreaHa ?? null,
      densityTier: body.densityTier ?? 33,
      waterReserveLiters: body.waterReserveLiters ?? null,
      notes: cleanText(body.notes),
      isDefault: false,
      createdBy: caller.id,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    const assign = !caller.allFarms;
    if (assign && caller.farmIds.length >= MAX_FARMS_PER_USER) throw farmLimitReached();
    const { id: _id, createdAt: _c, updatedAt: _u, version: _v, ...fields } = farm;
    const audit: AuditEvent[] = [
      { action: 'farm.create', targetType: 'farm', targetId: farm.id, changes: { ...fields, ...(assign ? { assignedTo: caller.id } : {}) } },
    ];
    if (assign) audit.push({ action: 'farm.assign-creator', targetType: 'user', targetId: caller.id, changes: { farmIds: { added: [farm.id] } } });
    const response = { created: true, message: 'Farm created', data: toFarmDto(farm) };
    await commit(ctx, {
      writes: [farmWrites.create(farm), ...(assign ? [farmWrites.assignCreator(caller.id, farm.id, now, MAX_FARMS_PER_USER, farmLimitReached)] : [])],
      audit,
      changes: [{ type: 'farm', id: farm.id, op: 'upsert', version: 1 }],
      response,
    });
    // a new farm starts with the default rules of the thresholds in force (written once; the rule job catches a failure here)
    await ensureDefaultRules(ctx, farm.id).catch((err) =>
      log.warn('default rules not written', { farmId: farm.id, error: err instanceof Error ? err.message : String(err) }),
    );
    return response;
  });
}

const FARM_FIELDS = ['name', 'location', 'countryCode', 'timezone', 'totalAreaHa', 'densityTier', 'waterReserveLiters', 'notes'] as const;

export async function updateFarmFor(ctx: CommandContext, farmId: string, body: UpdateFarmBody): Promise<FarmRecord> {
  const current = await visibleFarm(ctx.caller, farmId);
  const version: Versioned = { read: current.version, what: `Farm ${farmId}`, stated: body.version, subject: true };
  // a stale version answers before the body is judged and before "nothing to change"
  checkVersion(ctx, version);
  const next: FarmRecord = {
    ...current,
    ...(body.name !== undefined ? { name: displayName(body.name) } : {}),
    ...(body.location !== undefined ? { location: cleanText(body.location) } : {}),
    ...(body.countryCode !== undefined ? { countryCode: body.countryCode } : {}),
    ...(body.timezone !== undefined ? { timezone: timeZoneOrThrow(body.timezone) } : {}),
    ...(body.totalAreaHa !== undefined ? { totalAreaHa: body.totalAreaHa } : {}),
    ...(body.densityTier !== undefined ? { densityTier: body.densityTier } : {}),
    ...(body.waterReserveLiters !== undefined ? { waterReserveLiters: body.waterReserveLiters } : {}),
    ...(body.notes !== undefined ? { notes: cleanText(body.notes) } : {}),
  };
  const changes = diff(current, next, FARM_FIELDS);
  if (Object.keys(changes).length === 0) return current;
  const set: FarmChanges = Object.fromEntries(Object.keys(changes).map((f) => [f, next[f as (typeof FARM_FIELDS)[number]]]));
  const saved = { ...next, updatedAt: ctx.now.toISOString(), version: current.version + 1 };
  await commit(ctx, {
    writes: [farmWrites.update(farmId, set, version)],
    audit: [{ action: 'farm.update', targetType: 'farm', targetId: farmId, changes }],
    changes: [{ type: 'farm', id: farmId, op: 'upsert', version: saved.version }],
  });
  return saved;
}

// ---------------------------------------------------------------------------------------------------
// Houses

/** A farm's houses, after checking (in parallel with the Query) that the farm exists and is visible. */
export async function listHousesFor(user: Caller, farmId: string, opts: { limit: number; cursor?: string }) {
  if (!canAccessFarm(user, farmId)) throw farmNotFound(farmId);
  const [farm, page] = await Promise.all([getFarm(farmId), listHouses(farmId, opts)]);
  if (!farm) throw farmNotFound(farmId);
  return page;
}

/** The house with one read (farm and house together; none for a farm out of scope): a missing farm answers like a farm out of scope. */
async function visibleHouse(user: Caller, farmId: string, houseId: string): Promise<HouseRecord> {
  const { farm, house } = canAccessFarm(user, farmId) ? await getFarmAndHouse(farmId, houseId) : { farm: undefined, house: undefined };
  visibleTo(
    user,
    farm,
    () => farmNotFound(farmId),
    (f) => f.id,
  );
  return visibleTo(user, house, () => houseNotFound(houseId));
}

export const getHouseFor = visibleHouse;

export async function createHouseFor(ctx: CommandContext, farmId: string, body: CreateHouseBody) {
  return idempotentCommand(ctx, `house:${farmId}`, body, async (ctx) => {
    if (!canAccessFarm(ctx.caller, farmId)) throw farmNotFound(farmId);
    const now = ctx.now.toISOString();
    const name = displayName(body.name);
    const house: HouseRecord = {
      id: ulid(),
      farmId,
      name,
      nameKey: nameKey(name),
      usableAreaM2: body.usableAreaM2,
      capacity: body.capacity,
      houseType: body.type ?? null,
      notes: cleanText(body.notes),
      createdBy: ctx.caller.id,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    const { id: _id, nameKey: _k, createdAt: _c, updatedAt: _u, version: _v, houseType, ...fields } = house;
    // The farm's existence is checked inside the transaction (ConditionCheck → the same NotFound).
    const response = { created: true, message: 'House created', data: toHouseDto(house) };
    await commit(ctx, {
      writes: houseWrites.create(house),
      audit: [{ action: 'house.create', targetType: 'house', targetId: house.id, changes: { ...fields, type: houseType } }],
      changes: [{ type: 'house', id: house.id, op: 'upsert', version: 1 }],
      response,
    });
    return response;
  });
}

const HOUSE_FIELDS = ['name', 'usableAreaM2', 'capacity', 'houseType', 'notes'] as const;

export async function updateHouseFor(ctx: CommandContext, farmId: string, houseId: string, body: UpdateHouseBody): Promise<HouseRecord> {
  const current = await visibleHouse(ctx.caller, farmId, houseId);
  const version: Versioned = { read: current.version, what: `House ${houseId}`, stated: body.version, subject: true };
  // a stale version answers before "nothing to change"
  checkVersion(ctx, version);
  const name = body.name !== undefined ? displayName(body.name) : undefined;
  const next: HouseRecord = {
    ...current,
    ...(name !== undefined ? { name, nameKey: nameKey(name) } : {}),
    ...(body.usableAreaM2 !== undefined ? { usableAreaM2: body.usableAreaM2 } : {}),
    ...(body.capacity !== undefined ? { capacity: body.capacity } : {}),
    ...(body.type !== undefined ? { houseType: body.type } : {}),
    ...(body.notes !== undefined ? { notes: cleanText(body.notes) } : {}),
  };
  const changes = diff(current, next, HOUSE_FIELDS);
  if (Object.keys(changes).length === 0) return current;
  const set: HouseChanges = Object.fromEntries(Object.keys(changes).map((f) => [f, next[f as (typeof HOUSE_FIELDS)[number]]]));
  if (changes.name) set.nameKey = next.nameKey;
  // The audit speaks the API's names: `type`, not the stored `houseType`.
  const { houseType: typeChange, ...rest } = changes;
  const audited = typeChange ? { ...rest, type: typeChange } : rest;
  const saved = { ...next, updatedAt: ctx.now.toISOString(), version: current.version + 1 };
  await commit(ctx, {
    writes: houseWrites.update(current, set, version),
    audit: [{ action: 'house.update', targetType: 'house', targetId: houseId, changes: audited }],
    changes: [{ type: 'house', id: houseId, op: 'upsert', version: saved.version }],
  });
  return saved;
}

/** The farm a farm-wide request is about (inventory, recommendations…): `farmId`, or the caller's only farm. Admins (who see every farm) must name one. */
export function farmOfRequest(user: Caller, farmId: string | undefined): string {
  if (farmId !== undefined) {
    if (!canAccessFarm(user, farmId)) throw farmNotFound(farmId);
    return farmId;
  }
  if (!user.allFarms && user.farmIds.length === 1) return user.farmIds[0]!;
  const why = user.allFarms
    ? 'admins see every farm'
    : user.farmIds.length === 0
      ? 'you are not assigned to any farm'
      : `you are assigned to ${user.farmIds.length} farms`;
  throw new ValidationFailed([{ field: 'farmId', message: `is required: ${why}` }]);
}

/**
 * The house `houseId` as the caller may see it, when the request may leave out its farm: `farmId` when
 * given; otherwise the farm of the caller's (an admin's: every farm) that holds it, one BatchGetItem per
 * 100 farms (an admin's farm list is one more Query). A house the caller cannot see is not found.
 */
export async function houseOfCaller(user: Caller, houseId: string, farmId: string | undefined): Promise<HouseRecord> {
  if (farmId !== undefined) return visibleHouse(user, farmId, houseId);
  return visibleTo(user, await findHouseInFarms(user.allFarms ? await allFarmIds() : user.farmIds, houseId), () => houseNotFound(houseId));
}

/** The farm-scoped records a list may name besides its farm: each of them tells the farm. */
export interface NamedRecords {
  flockId?: string | undefined;
  cycleId?: string | undefined;
  houseId?: string | undefined;
}

/**
 * The farm a list is about when it may name a flock, a cycle or a house: `farmId`, or the caller's only
 * farm (as `farmOfRequest`); otherwise (an admin, a user of several farms) the farm of the flock (its
 * item), else of the cycle (its locator), else of the house (`houseOfCaller`) the request names. A flock or
 * house the caller cannot see is not found, like a missing one; with nothing named, or only a cycle the
 * caller cannot see, a missing one or one started before cycles had a locator, `farmId` is required.
 */
export async function farmOfListRequest(user: Caller, farmId: string | undefined, named: NamedRecords): Promise<string> {
  if (farmId !== undefined || (!user.allFarms && user.farmIds.length === 1)) return farmOfRequest(user, farmId);
  return (await farmOfNamed(user, named)) ?? farmOfRequest(user, undefined);
}

async function farmOfNamed(user: Caller, named: NamedRecords): Promise<string | undefined> {
  if (named.flockId !== undefined) return (await scopedFlock(user, named.flockId)).farmId;
  const cycle = named.cycleId === undefined ? undefined : await locateCycle(named.cycleId);
  // a cycle of a farm the caller cannot see reads like one that has no locator: the farm must be named
  if (cycle && canAccessFarm(user, cycle.farmId)) return cycle.farmId;
  if (named.houseId !== undefined) return (await houseOfCaller(user, named.houseId, undefined)).farmId;
  return undefined;
}

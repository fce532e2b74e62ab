import { ensureDefaultRules } from './rules/defaults.js';
import { canAccessFarm, visibleTo } from '../domain/farm-access.js';
import type { CommandContext } from '../domain/command.js';
import { checkVersion, commit, type Versioned } from '../db/commit.js';
import { unchanged } from '../domain/decision.js';
import { decideFarmCreate, decideFarmUpdate, farmLimitReached, MAX_FARMS_PER_USER } from '../domain/farms/farms.js';
import { decideHouseCreate, decideHouseUpdate } from '../domain/farms/houses.js';
import { farmWrites, findHouseInFarms, getFarm, getFarmAndHouse, getFarmsByIds, houseWrites, listAllFarms, listHouses } from '../db/farms.js';
import { houseNotFound } from '../domain/references.js';
import type { FarmRecord, HouseRecord } from '../domain/farms/records.js';
import { farmNotFound } from '../domain/references.js';
import { ValidationFailed } from '../errors.js';
import type { Caller } from '../domain/caller.js';
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
 * What a create or an edit writes is decided in shared/domain/farms/ (farms.ts, houses.ts).
 */

export { MAX_FARMS_PER_USER };

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
    // present when declared
    ...(h.cageAreaM2 ? { cageAreaM2: h.cageAreaM2 } : {}),
    ...(h.rangeAreaM2 ? { rangeAreaM2: h.rangeAreaM2 } : {}),
    notes: h.notes,
    createdBy: h.createdBy,
    createdAt: h.createdAt,
    updatedAt: h.updatedAt,
    version: h.version,
  };
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
  return idempotentCommand(ctx, 'farm', body, async (ctx) => {
    const { farm, assign, audit, changes } = decideFarmCreate(ctx.caller, body, ctx.now);
    const response = { created: true, message: 'Farm created', data: toFarmDto(farm) };
    await commit(ctx, {
      writes: [
        farmWrites.create(farm),
        ...(assign ? [farmWrites.assignCreator(ctx.caller.id, farm.id, ctx.now.toISOString(), MAX_FARMS_PER_USER, farmLimitReached)] : []),
      ],
      audit,
      changes,
      response,
    });
    // a new farm starts with the default rules of the thresholds in force (written once; the rule job catches a failure here)
    await ensureDefaultRules(ctx, farm.id).catch((err) =>
      log.warn('default rules not written', { farmId: farm.id, error: err instanceof Error ? err.message : String(err) }),
    );
    return response;
  });
}

export async function updateFarmFor(ctx: CommandContext, farmId: string, body: UpdateFarmBody): Promise<FarmRecord> {
  const current = await visibleFarm(ctx.caller, farmId);
  const version: Versioned = { read: current.version, what: `Farm ${farmId}`, stated: body.version, subject: true };
  // a stale version answers before the body is judged and before "nothing to change"
  checkVersion(ctx, version);
  const { change, audit, changes } = decideFarmUpdate(current, body, ctx.now);
  if (unchanged(change)) return current;
  await commit(ctx, { writes: [farmWrites.update(farmId, change.fields, version)], audit, changes });
  return change.next;
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
    const { house, audit, changes } = decideHouseCreate(ctx.caller, farmId, body, ctx.now);
    // The farm's existence is checked inside the transaction (ConditionCheck → the same NotFound).
    const response = { created: true, message: 'House created', data: toHouseDto(house) };
    await commit(ctx, { writes: houseWrites.create(house), audit, changes, response });
    return response;
  });
}

export async function updateHouseFor(ctx: CommandContext, farmId: string, houseId: string, body: UpdateHouseBody): Promise<HouseRecord> {
  const current = await visibleHouse(ctx.caller, farmId, houseId);
  const version: Versioned = { read: current.version, what: `House ${houseId}`, stated: body.version, subject: true };
  // a stale version answers before "nothing to change"
  checkVersion(ctx, version);
  const { change, audit, changes } = decideHouseUpdate(current, body, ctx.now);
  if (unchanged(change)) return current;
  await commit(ctx, { writes: houseWrites.update(current, change.fields, version), audit, changes });
  return change.next;
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

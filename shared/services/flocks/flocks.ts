import { flockNotFound } from '../../domain/references.js';
import { canAccessFarm, visibleTo } from '../../domain/farm-access.js';
import { unchanged } from '../../domain/decision.js';
import { decideFlockArchive, decideFlockCreate, decideFlockUpdate, flockHasActiveCycle, type PlacementFound } from '../../domain/flocks/flocks.js';
import type { CommandContext } from '../../domain/command.js';
import { checkVersion, commit, type Versioned } from '../../db/commit.js';
import { eq } from '../../db/conditions.js';
import { getDefaultFarmId } from '../../db/farms.js';
import { allFarmIds, flockWrites, getFlock, listFlocks, placementExists } from '../../db/flocks.js';
import type { FlockRecord } from '../../domain/flocks/records.js';
import { NotFound } from '../../errors.js';
import type { Caller } from '../../domain/caller.js';
import { idempotentCommand } from '../idempotency.js';
import type { CreateFlockBody, ListFlocksQuery, UpdateFlockBody } from '../../../schemas/flocks.js';

/** Flocks, scoped to the caller's farms: another farm's flock is answered as missing. */

export function toFlockDto(f: FlockRecord) {
  return {
    id: f.id,
    farmId: f.farmId,
    houseId: f.houseId,
    name: f.name,
    birdType: f.birdType,
    breed: f.breed,
    hatchDate: f.hatchDate,
    source: f.source,
    notes: f.notes,
    status: f.status,
    activeCycleId: f.activeCycleId,
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
    version: f.version,
  };
}

export async function scopedFlock(user: Caller, flockId: string): Promise<FlockRecord> {
  return visibleTo(user, await getFlock(flockId), () => flockNotFound(flockId));
}

/** What a placement on this farm (and house) finds: one read, none on a farm the caller may not see. */
async function readPlacement(user: Caller, farmId: string | undefined, houseId: string | null | undefined): Promise<PlacementFound | undefined> {
  return farmId && canAccessFarm(user, farmId) ? placementExists(farmId, houseId) : undefined;
}

export async function createFlockFor(ctx: CommandContext, body: CreateFlockBody) {
  return idempotentCommand(ctx, 'flock', body, async (ctx) => {
    const farmId = body.farmId ?? (await getDefaultFarmId());
    const placement = await readPlacement(ctx.caller, farmId, body.houseId);
    const { flock, audit, changes } = decideFlockCreate(ctx.caller, body, farmId, placement, ctx.now);
    const response = { created: true, message: 'Flock created', data: toFlockDto(flock) };
    await commit(ctx, { writes: [flockWrites.create(flock)], audit, changes, response });
    return response;
  });
}

export async function listFlocksFor(user: Caller, query: ListFlocksQuery) {
  let farmIds: string[];
  if (query.farmId) {
    if (!canAccessFarm(user, query.farmId)) throw new NotFound(`Farm ${query.farmId} not found`);
    farmIds = [query.farmId];
  } else {
    farmIds = user.allFarms ? await allFarmIds() : [...user.farmIds];
  }
  const limit = query.limit ?? 25;
  const page = await listFlocks({ farmIds, status: query.status ?? 'active', birdType: query.birdType, houseId: query.houseId, limit, cursor: query.cursor });
  return { ...page, limit };
}

export async function updateFlockFor(ctx: CommandContext, flockId: string, body: UpdateFlockBody): Promise<FlockRecord> {
  const current = await scopedFlock(ctx.caller, flockId);
  const version: Versioned = { read: current.version, what: `Flock ${flockId}`, stated: body.version, subject: true };
  // a stale version answers before the house is checked and before "nothing to change"
  checkVersion(ctx, version);
  const placement = body.houseId ? await readPlacement(ctx.caller, current.farmId, body.houseId) : undefined;
  const { change, audit, changes } = decideFlockUpdate(ctx.caller, current, body, placement, ctx.now);
  if (unchanged(change)) return current;
  await commit(ctx, { writes: [flockWrites.replace(change.next, version)], audit, changes });
  return change.next;
}

/** Archives the flock (its history stays); refused while a cycle is active. */
export async function archiveFlockFor(ctx: CommandContext, flockId: string): Promise<void> {
  const current = await scopedFlock(ctx.caller, flockId);
  const decision = decideFlockArchive(current, ctx.now);
  if (!decision) return;
  await commit(ctx, {
    // the archive takes no If-Match: only the version read conditions it, and a cycle started meanwhile refuses it
    writes: [
      flockWrites.replace(
        decision.next,
        { read: current.version, what: `Flock ${flockId}` },
        { when: eq('activeCycleId', null), failed: flockHasActiveCycle(current) },
      ),
    ],
    audit: decision.audit,
    changes: decision.changes,
  });
}

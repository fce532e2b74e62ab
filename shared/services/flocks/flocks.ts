import { flockNotFound } from '../../domain/references.js';
import { ulid } from 'ulidx';
import { canAccessFarm, visibleTo } from '../../domain/farm-access.js';
import { diff } from '../../domain/accounts.js';
import type { CommandContext } from '../../domain/command.js';
import { checkVersion, commit, type Versioned } from '../../db/commit.js';
import { eq } from '../../db/conditions.js';
import { getDefaultFarmId, houseNotFound } from '../../db/farms.js';
import { farmNotFound } from '../../domain/references.js';
import { allFarmIds, flockWrites, getFlock, listFlocks, placementExists, type FlockRecord } from '../../db/flocks.js';
import { Conflict, NotFound, ValidationFailed } from '../../errors.js';
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

/** Checks (with one read) that the caller may place a flock on this farm and house: another farm's, like a missing one, is a 404 naming it. */
async function checkPlacement(user: Caller, farmId: string, houseId: string | null | undefined): Promise<void> {
  const exists = canAccessFarm(user, farmId) ? await placementExists(farmId, houseId) : { farm: false, house: true };
  if (!exists.farm) throw farmNotFound(farmId);
  if (!exists.house) throw houseNotFound(houseId!);
}

export async function createFlockFor(ctx: CommandContext, body: CreateFlockBody) {
  return idempotentCommand(ctx, 'flock', body, async (ctx) => {
    const farmId = body.farmId ?? (await getDefaultFarmId());
    if (!farmId) throw new ValidationFailed([{ field: 'farmId', message: 'is required: there is no default farm' }]);
    await checkPlacement(ctx.caller, farmId, body.houseId);
    const now = ctx.now.toISOString();
    const flock: FlockRecord = {
      id: ulid(),
      farmId,
      houseId: body.houseId ?? null,
      name: body.name.trim(),
      birdType: body.birdType,
      breed: body.breed?.trim() || null,
      hatchDate: body.hatchDate ?? null,
      source: body.source ?? null,
      notes: body.notes ?? null,
      status: 'active',
      activeCycleId: null,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    const response = { created: true, message: 'Flock created', data: toFlockDto(flock) };
    await commit(ctx, {
      writes: [flockWrites.create(flock)],
      audit: [{ action: 'flock.create', targetType: 'flock', targetId: flock.id, changes: { name: flock.name, farmId, birdType: flock.birdType } }],
      changes: [{ type: 'flock', id: flock.id, op: 'upsert', version: 1 }],
      response,
    });
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

const EDITABLE = ['name', 'breed', 'houseId', 'hatchDate', 'source', 'notes'] as const;

export async function updateFlockFor(ctx: CommandContext, flockId: string, body: UpdateFlockBody): Promise<FlockRecord> {
  const current = await scopedFlock(ctx.caller, flockId);
  const version: Versioned = { read: current.version, what: `Flock ${flockId}`, stated: body.version, subject: true };
  // a stale version answers before the house is checked and before "nothing to change"
  checkVersion(ctx, version);
  if (body.houseId) await checkPlacement(ctx.caller, current.farmId, body.houseId);
  const next: FlockRecord = { ...current };
  for (const field of EDITABLE)
    if (body[field] !== undefined)
      (next as unknown as Record<string, unknown>)[field] = typeof body[field] === 'string' ? (body[field] as string).trim() : body[field];
  const changes = diff(current, next, EDITABLE);
  if (Object.keys(changes).length === 0) return current;
  const saved = { ...next, updatedAt: ctx.now.toISOString(), version: current.version + 1 };
  await commit(ctx, {
    writes: [flockWrites.replace(saved, version)],
    audit: [{ action: 'flock.update', targetType: 'flock', targetId: flockId, changes }],
    changes: [{ type: 'flock', id: flockId, op: 'upsert', version: saved.version }],
  });
  return saved;
}

/** Archives the flock (its history stays); refused while a cycle is active. */
export async function archiveFlockFor(ctx: CommandContext, flockId: string): Promise<void> {
  const current = await scopedFlock(ctx.caller, flockId);
  if (current.status === 'archived') return;
  const activeCycle = () =>
    new Conflict(`Flock ${flockId} has an active cycle${current.activeCycleId ? ` (${current.activeCycleId})` : ''}; close it before archiving the flock`);
  if (current.activeCycleId) throw activeCycle();
  const saved: FlockRecord = { ...current, status: 'archived', updatedAt: ctx.now.toISOString(), version: current.version + 1 };
  await commit(ctx, {
    // the archive takes no If-Match: only the version read conditions it, and a cycle started meanwhile refuses it
    writes: [flockWrites.replace(saved, { read: current.version, what: `Flock ${flockId}` }, { when: eq('activeCycleId', null), failed: activeCycle })],
    audit: [{ action: 'flock.archive', targetType: 'flock', targetId: flockId, changes: { status: { from: 'active', to: 'archived' } } }],
    changes: [{ type: 'flock', id: flockId, op: 'upsert', version: saved.version }],
  });
}

import { ulid } from 'ulidx';
import type { CreateFlockBody, UpdateFlockBody } from '../../../schemas/flocks.js';
import { Conflict, ValidationFailed } from '../../errors.js';
import type { Caller } from '../caller.js';
import { recordChange, type AuditEvent, type ResourceChange, upsertOf } from '../decision.js';
import { canAccessFarm } from '../farm-access.js';
import { farmNotFound, houseNotFound } from '../references.js';
import type { FlockRecord } from './records.js';

/** Flocks, decided without I/O: where a flock is placed, its edits and its archive. */

type Scope = Pick<Caller, 'allFarms' | 'farmIds'>;

/** What a placement read found: whether the farm exists and, when a house is named, the house in it. */
export interface PlacementFound {
  farm: boolean;
  house: boolean;
}

/** A flock placed on this farm and house: another farm's, like a missing one, is a 404 naming it. */
export function judgePlacement(caller: Scope, farmId: string, houseId: string | null | undefined, found: PlacementFound | undefined): void {
  if (!canAccessFarm(caller, farmId) || !found?.farm) throw farmNotFound(farmId);
  if (houseId && !found.house) throw houseNotFound(houseId);
}

const flockChange = (f: FlockRecord): ResourceChange => upsertOf('flock', f);

/** A new flock on `farmId` (the body's, else the default farm; none: 400), placed where the caller may. */
export function decideFlockCreate(
  caller: Pick<Caller, 'id' | 'allFarms' | 'farmIds'>,
  body: CreateFlockBody,
  farmId: string | undefined,
  placement: PlacementFound | undefined,
  now: Date,
) {
  if (!farmId) throw new ValidationFailed([{ field: 'farmId', message: 'is required: there is no default farm' }]);
  judgePlacement(caller, farmId, body.houseId, placement);
  const at = now.toISOString();
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
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
  const audit: AuditEvent[] = [
    { action: 'flock.create', targetType: 'flock', targetId: flock.id, changes: { name: flock.name, farmId, birdType: flock.birdType } },
  ];
  return { flock, audit, changes: [flockChange(flock)] };
}

const EDITABLE = ['name', 'breed', 'houseId', 'hatchDate', 'source', 'notes'] as const;

/**
 * An edit of a flock (its version already compared with the client's); a new house is judged from
 * `placement` (read only when the body names one). Nothing changed: `unchanged(change)`.
 */
export function decideFlockUpdate(caller: Scope, current: FlockRecord, body: UpdateFlockBody, placement: PlacementFound | undefined, now: Date) {
  if (body.houseId) judgePlacement(caller, current.farmId, body.houseId, placement);
  const edited: FlockRecord = { ...current };
  for (const field of EDITABLE)
    if (body[field] !== undefined)
      (edited as unknown as Record<string, unknown>)[field] = typeof body[field] === 'string' ? (body[field] as string).trim() : body[field];
  const change = recordChange(current, edited, EDITABLE, now);
  const audit: AuditEvent[] = [{ action: 'flock.update', targetType: 'flock', targetId: current.id, changes: change.changes }];
  return { change, audit, changes: [flockChange(change.next)] };
}

/** The refusal of an archive while a cycle is active (also the named conflict of a cycle started meanwhile). */
export const flockHasActiveCycle = (flock: Pick<FlockRecord, 'id' | 'activeCycleId'>) => () =>
  new Conflict(`Flock ${flock.id} has an active cycle${flock.activeCycleId ? ` (${flock.activeCycleId})` : ''}; close it before archiving the flock`);

/** Archiving a flock (its history stays): nothing to do when archived already; refused while a cycle is active. */
export function decideFlockArchive(current: FlockRecord, now: Date) {
  if (current.status === 'archived') return undefined;
  if (current.activeCycleId) throw flockHasActiveCycle(current)();
  const next: FlockRecord = { ...current, status: 'archived', updatedAt: now.toISOString(), version: current.version + 1 };
  const audit: AuditEvent[] = [{ action: 'flock.archive', targetType: 'flock', targetId: current.id, changes: { status: { from: 'active', to: 'archived' } } }];
  return { next, audit, changes: [flockChange(next)] };
}

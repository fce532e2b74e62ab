import { ulid } from 'ulidx';
import type { FarmMovementInput } from '../../../schemas/inventory.js';
import type { MovementInput, UpdateMovementBody } from '../../../schemas/movements.js';
import { createFarmMovementBody } from '../../../schemas/compiled/inventory.js';
import { problemsOf } from '../../../schemas/problems.js';
import { NotFound, ValidationFailed } from '../../errors.js';
import type { Caller } from '../caller.js';
import { type AuditEvent, type ResourceChange, upsertOf, deleteOf } from '../decision.js';
import { visibleTo } from '../farm-access.js';
import { farmEffectsOf, farmMovementProblems, netChanges, type NetChange } from '../ledger.js';
import { backdatedOf } from '../procurement/orders.js';
import { deliveryReferenceIds, farmNotFound, houseNotFound, judgeDeliveryReferences } from '../references.js';
import { latestAllowedDate } from '../weights.js';
import { judgeOwnMovement, judgeUnlocked, judgeWritableEdits, movementDiff } from './change.js';
import { inputOf, type FarmMovementRecord } from './record.js';

/**
 * Deliveries booked on the farm's stock without a cycle (feed delivered before the chicks arrive, a farm
 * between cycles, a medicine delivery): decided without I/O. They change the farm's stock only (no cycle
 * counter, no daily rollup); any past day is taken (back-dated paperwork is audited as such), never a
 * future one. Corrections follow the rules of a cycle movement's: unlocked (the auto-lock period counts
 * from its creation: there is no cycle to close), never one a receipt wrote, the stock never below zero.
 */

/** The farm's stock changes a group of farm movements makes, in one commit. */
export interface FarmLedgerGroup {
  farmId: string;
  changes: NetChange[];
}

/** What the decisions read: the farm (scoping, its calendar) and the house a movement names. */
export interface FarmFacts {
  farm: { id: string; timezone: string } | undefined;
  /** The house `houseId` names, as read in the farm (undefined: none). */
  house?: { id: string; farmId: string } | undefined;
  /** The farm's date now (a movement dated before it was entered after the fact). */
  today: string;
}

/** The farm's lock rules: no cycle, so only the movement's own lock and its age. */
const NO_CYCLE = { status: 'active', closedAt: null } as const;

const visibleFarm = (caller: Pick<Caller, 'allFarms' | 'farmIds'>, farmId: string, farm: FarmFacts['farm']) =>
  visibleTo(
    caller,
    farm,
    () => farmNotFound(farmId),
    (f) => f.id,
  );

/** The house bin must be a house of this farm (any other id, also another farm's house, is the 404 of a missing one). */
function judgeHouse(farmId: string, houseId: string | undefined, house: FarmFacts['house']): void {
  if (houseId !== undefined && house?.farmId !== farmId) throw houseNotFound(houseId);
}

function judgeDate(input: MovementInput, now: Date): void {
  const problems = farmMovementProblems(input, latestAllowedDate(now));
  if (problems.length) throw new ValidationFailed(problems);
}

/** The supplier and order a delivery names (read before deciding), as `judgeDeliveryReferences` wants them. */
export const farmMovementReads = (body: Record<string, unknown>) => deliveryReferenceIds(body);

export interface FarmCreateFacts extends FarmFacts {
  caller: Pick<Caller, 'id' | 'allFarms' | 'farmIds'>;
  now: Date;
  references?: { supplier?: { farmIds: readonly string[] } | undefined; order?: { farmId: string; supplierId: string } | undefined };
}

/** A delivery to the farm's stock: the farm and house scoped, the date judged, the movement, its stock changes and audit event. */
export function decideFarmMovementCreate(farmId: string, body: FarmMovementInput, facts: FarmCreateFacts) {
  const farm = visibleFarm(facts.caller, farmId, facts.farm);
  const { farmId: _f, houseId, ...input } = body;
  judgeHouse(farm.id, houseId, facts.house);
  judgeDate(input as MovementInput, facts.now);
  judgeDeliveryReferences(farm.id, input, facts.references ?? {});
  const movement = newFarmMovement(input as MovementInput, farm.id, houseId, facts.caller.id, facts.now.toISOString());
  const { type, date } = movement;
  const group: FarmLedgerGroup = { farmId: farm.id, changes: netChanges(farmEffectsOf(input as MovementInput)) };
  const audit: AuditEvent[] = [
    {
      action: 'movement.create',
      targetType: 'movement',
      targetId: movement.id,
      changes: { farmId: farm.id, type, date, fields: movement.fields, ...backdatedOf(date, facts.today) },
    },
  ];
  const changes: ResourceChange[] = [upsertOf('movement', movement)];
  return { movement, group, audit, changes };
}

/** A new delivery booked on the farm (in the house bin `houseId` when named), created by `userId` at `now`, with fields a service adds. */
export function newFarmMovement(
  input: MovementInput,
  farmId: string,
  houseId: string | undefined,
  userId: string,
  now: string,
  extraFields: Record<string, unknown> = {},
): FarmMovementRecord {
  const { type, date, ...fields } = input;
  return {
    id: ulid(),
    cycleId: null,
    flockId: null,
    farmId,
    type,
    date,
    fields: { ...fields, ...(houseId ? { houseId } : {}), ...extraFields },
    lock: null,
    createdAt: now,
    createdBy: userId,
    updatedAt: now,
    version: 1,
  };
}

/** The farm movement as read, scoped: another farm's is the 404 of a missing one (the farm first, like every farm id). */
export function visibleFarmMovement(
  caller: Pick<Caller, 'allFarms' | 'farmIds'>,
  farmId: string,
  movementId: string,
  found: { farm: FarmFacts['farm']; movement: FarmMovementRecord | undefined },
): FarmMovementRecord {
  visibleFarm(caller, farmId, found.farm);
  if (!found.movement) throw farmMovementNotFound(movementId);
  return found.movement;
}

/** The one answer for a farm movement that does not exist and for one of a farm the caller may not see. */
export const farmMovementNotFound = (movementId: string) => new NotFound(`Movement ${movementId} not found`);

/** The farm a farm movement was located in, when the caller may see it (else the 404 of a missing movement). */
export function judgeLocatedFarm(caller: Pick<Caller, 'allFarms' | 'farmIds'>, movementId: string, farmId: string | undefined): string {
  return visibleTo(
    caller,
    farmId,
    () => farmMovementNotFound(movementId),
    (f) => f,
  );
}

/**
 * A correction, first step (its version already compared): the fields it may change, unlocked, not a
 * receipt's, the merged input valid for its type. Returns the edit and what the second step reads: a house
 * bin or a supplier and order the edit names.
 */
export function judgeFarmMovementEdit(movement: FarmMovementRecord, body: UpdateMovementBody, now: Date, autoLockHours: number) {
  const { version: _v, ...edits } = body;
  // the house bin is the service's field of a cycle movement, but this delivery's own: it may change
  const { houseId: _h, ...guarded } = edits;
  judgeWritableEdits(movement, guarded);
  judgeUnlocked(movement, NO_CYCLE, now, autoLockHours);
  judgeOwnMovement(movement);
  const merged: Record<string, unknown> = { ...inputOf(movement), ...edits };
  for (const [k, v] of Object.entries(merged)) if (v === null) delete merged[k];
  const details = problemsOf(createFarmMovementBody, merged);
  if (details.length) throw new ValidationFailed(details);
  const { houseId, ...input } = merged as FarmMovementInput;
  judgeDate(input as MovementInput, now);
  const references = 'supplierId' in edits || 'orderId' in edits ? deliveryReferenceIds(merged) : undefined;
  return {
    edits,
    next: input as MovementInput,
    houseId,
    reads: {
      houseId: 'houseId' in edits ? houseId : undefined,
      references: references?.supplierId || references?.orderId ? references : undefined,
    },
  };
}

/** A correction, second step: the house and references judged, the movement as it will be, the stock reversed and applied, the audit. */
export function decideFarmMovementUpdate(
  movement: FarmMovementRecord,
  edit: ReturnType<typeof judgeFarmMovementEdit>,
  facts: Pick<FarmCreateFacts, 'house' | 'references'>,
  now: Date,
) {
  if (edit.reads.houseId !== undefined) judgeHouse(movement.farmId, edit.reads.houseId, facts.house);
  if (edit.reads.references) judgeDeliveryReferences(movement.farmId, edit.next as { supplierId?: unknown; orderId?: unknown }, facts.references ?? {});
  const { type: _t, date, ...fields } = edit.next;
  const updated: FarmMovementRecord = {
    ...movement,
    date,
    fields: { ...fields, ...(edit.houseId ? { houseId: edit.houseId } : {}) },
    updatedAt: now.toISOString(),
    version: movement.version + 1,
  };
  const group: FarmLedgerGroup = {
    farmId: movement.farmId,
    changes: netChanges([...farmEffectsOf(inputOf(movement), -1), ...farmEffectsOf(edit.next, 1)]),
  };
  const audit: AuditEvent[] = [{ action: 'movement.update', targetType: 'movement', targetId: movement.id, changes: movementDiff(movement, updated) }];
  const changes: ResourceChange[] = [upsertOf('movement', updated)];
  return { updated, group, audit, changes };
}

/** A deletion: unlocked, not a receipt's; the stock it added is taken back (never below zero). */
export function decideFarmMovementDeletion(movement: FarmMovementRecord, now: Date, autoLockHours: number) {
  judgeUnlocked(movement, NO_CYCLE, now, autoLockHours);
  judgeOwnMovement(movement);
  const group: FarmLedgerGroup = { farmId: movement.farmId, changes: netChanges(farmEffectsOf(inputOf(movement), -1)) };
  const audit: AuditEvent[] = [
    {
      action: 'movement.delete',
      targetType: 'movement',
      targetId: movement.id,
      changes: { farmId: movement.farmId, type: movement.type, date: movement.date, fields: movement.fields },
    },
  ];
  const changes: ResourceChange[] = [deleteOf('movement', movement)];
  return { group, audit, changes };
}

/** What a farm movement's lock is judged against (no cycle: its own lock, else automatic once older than the auto-lock period). */
export const farmMovementLock = NO_CYCLE;

import { Conflict, ValidationFailed } from '../../errors.js';
import type { Caller } from '../caller.js';
import { diff } from '../changes.js';
import { isSale, judgeSale, overrideEvent, type WithdrawalWindow } from '../compliance/withdrawals.js';
import { type AuditEvent, type ResourceChange, upsertOf, deleteOf } from '../decision.js';
import { effectiveLock, effectsOf, movementProblems, netChanges } from '../ledger.js';
import { deliveryReferenceIds, judgeDeliveryReferences } from '../references.js';
import { drawFromLots, drawsEggs, withDrawsReturned, type EggLot, type LotDraw } from '../eggs/lots.js';
import { latestAllowedDate } from '../weights.js';
import { inputOf, refOf, type LedgerGroup, type MovementRecord, type StoredMovement } from './record.js';
import type { MovementInput, UpdateMovementBody } from '../../../schemas/movements.js';
import { FARM_TRANSFER_TYPES, READ_ONLY_MOVEMENT_FIELDS, SERVICE_FIELDS } from '../../../schemas/compiled/constants/movements.js';
import { problemsOf } from '../../../schemas/problems.js';
import type { CompiledSchema } from '../../../schemas/compiled-schema.js';

/**
 * Editing and deleting a movement, decided without I/O: only unlocked ones, never one another record owns
 * (a daily record, a receipt, a transfer between farms); the ledger follows. Each is decided in two steps,
 * so that what is read in between (the delivery's references, a sale's withdrawal windows, a transfer's
 * other side) is read only for a change that passed the checks before it.
 */

/** A cycle as these decisions need it. */
export type ChangeCycle = { id: string; flockId: string; farmId: string; status: string; closedAt: string | null; startDate: string; endDate: string | null };

const isTransfer = (m: MovementRecord) => m.type === 'bird_transfer_in' || m.type === 'bird_transfer_out';

/** The movement is not locked (its own lock, or automatically: cycle closed, or older than `autoLockHours`). */
export function judgeUnlocked(movement: StoredMovement, cycle: { status: string; closedAt: string | null }, now: Date, autoLockHours: number): void {
  const lock = effectiveLock(movement, cycle, now, autoLockHours);
  if (lock)
    throw new Conflict(
      `Movement ${movement.id} is locked (${lock.type}: ${lock.reason}); ${lock.type === 'manual' ? 'unlock it first' : 'it can no longer change'}`,
    );
}

/**
 * `type` and the fields the service sets may come back with an edit (a client sends back what it read), but
 * only as they are: a different value is refused, naming the field (absent and null are the same). The
 * read-only metadata may not come back at all (mass-assignment guard).
 */
export function judgeWritableEdits(movement: StoredMovement, edits: Record<string, unknown>): void {
  // the read-only metadata is refused whatever its value (also null, which would otherwise mean "remove")
  const readOnly = READ_ONLY_MOVEMENT_FIELDS.filter((k) => k in edits);
  if (readOnly.length) throw new ValidationFailed(readOnly.map((field) => ({ field, message: 'is not allowed' })));
  const stored: Record<string, unknown> = { ...movement.fields, type: movement.type };
  const same = (a: unknown, b: unknown) => diff({ v: a ?? null }, { v: b ?? null }, ['v']).v === undefined;
  const changed = ['type', ...SERVICE_FIELDS].filter((k) => k in edits && !same(edits[k], stored[k]));
  if (changed.length) throw new ValidationFailed(changed.map((field) => ({ field, message: 'cannot be changed' })));
}

const farmTransferConflict = (m: StoredMovement) =>
  new Conflict(
    `Movement ${m.id} was written by transfer ${String(m.fields.transferId)} between farms; it changes only with that transfer (send a transfer back to reverse it)`,
  );

/** Movements another record wrote change only through it (else the record and the ledger would disagree). */
export function judgeOwnMovement(m: StoredMovement): void {
  const date = m.fields.dailyRecordDate;
  if (date) throw new Conflict(`Movement ${m.id} belongs to the daily record of ${String(date)}; submit that daily record again to change it`);
  // a purchase-order receipt's movement: the order's received quantities and the supplier's receipts would no longer agree with the ledger
  if (m.fields.receiptId)
    throw new Conflict(
      `Movement ${m.id} was written by receipt ${String(m.fields.receiptId)} of purchase order ${String(m.fields.orderId)}; it cannot change on its own`,
    );
  if ((FARM_TRANSFER_TYPES as readonly string[]).includes(m.type)) throw farmTransferConflict(m);
}

/** What changed between two versions of a movement: its date and each field, as `{from, to}` (null when absent). */
export function movementDiff(before: StoredMovement, after: StoredMovement) {
  const a: Record<string, unknown> = { date: before.date, ...before.fields };
  const b: Record<string, unknown> = { date: after.date, ...after.fields };
  const changed = diff(a, b, [...new Set([...Object.keys(a), ...Object.keys(b)])]);
  return Object.fromEntries(Object.entries(changed).map(([k, c]) => [k, { from: c.from ?? null, to: c.to ?? null }]));
}

/**
 * An edit, first step (its version already compared): the fields it may change, unlocked, the movement's
 * own, not a transfer, and the merged input valid for its type (`inputSchema`: the compiled movement
 * validator, every type's or one type's, given by the caller so a route carries only the one it needs) and
 * cycle. Returns the edit and what the second step reads: the supplier and order a delivery's edit names,
 * a sale's withdrawal windows.
 */
export function judgeMovementEdit(
  movement: MovementRecord,
  cycle: ChangeCycle,
  body: UpdateMovementBody,
  now: Date,
  autoLockHours: number,
  inputSchema: CompiledSchema<unknown>,
) {
  const { version: _v, ...edits } = body;
  judgeWritableEdits(movement, edits);
  judgeUnlocked(movement, cycle, now, autoLockHours);
  judgeOwnMovement(movement);
  if (isTransfer(movement)) throw new Conflict('A transfer changes two flocks: delete it (both sides go) and record it again');
  const merged: Record<string, unknown> = { ...inputOf(movement), ...edits };
  // eggs taken anew (another quantity, date or lots): from the lots named, else the oldest on hand again
  const redraw = drawsEggs(movement.type) && ('quantity' in edits || 'date' in edits || 'fromLots' in edits || 'grade' in edits);
  if (redraw && !('fromLots' in edits)) delete merged.fromLots;
  for (const [k, v] of Object.entries(merged)) if (v === null) delete merged[k];
  const details = problemsOf(inputSchema, merged);
  if (details.length) throw new ValidationFailed(details);
  const next = merged as MovementInput;
  const problems = movementProblems(next, cycle, latestAllowedDate(now));
  if (problems.length) throw new ValidationFailed(problems);
  const references = 'supplierId' in edits || 'orderId' in edits ? deliveryReferenceIds(merged) : undefined;
  return {
    edits,
    next,
    reads: {
      references: references?.supplierId || references?.orderId ? references : undefined,
      // eggs are judged on their laying days, all within the cycle: its windows from its start
      saleFrom: isSale(next.type) ? (next.type === 'egg_sale' ? cycle.startDate : next.date) : undefined,
      ...(redraw ? { eggLots: true } : {}),
    },
  };
}

export interface EditFacts {
  /** The supplier and order the edit names, as read. */
  references?: { supplier?: { farmIds: readonly string[] }; order?: { farmId: string; supplierId: string } } | undefined;
  /** A sale: the cycle's withdrawal revision and its windows from the sale's date, as read. */
  sale?: { withdrawalRev: number; windows: readonly WithdrawalWindow[] } | undefined;
  /** Eggs taken anew: the cycle's lots on hand, as read (the movement's own draws still out of them). */
  eggLots?: readonly EggLot[] | undefined;
}

/** An edit, second step: the references and a sale judged, the movement as it will be, its ledger changes and audit events. */
export function decideMovementUpdate(
  caller: Pick<Caller, 'capabilities'>,
  movement: MovementRecord,
  cycle: ChangeCycle,
  edit: ReturnType<typeof judgeMovementEdit>,
  facts: EditFacts,
  now: Date,
) {
  const { edits } = edit;
  const next: MovementInput = edit.reads.eggLots
    ? ({
        ...edit.next,
        fromLots: drawFromLots(
          edit.next as Parameters<typeof drawFromLots>[0],
          cycle.id,
          withDrawsReturned(facts.eggLots ?? [], movement.fields.fromLots as LotDraw[] | undefined, movement.fields.grade as string | undefined),
        ),
      } as MovementInput)
    : edit.next;
  if (edit.reads.references) judgeDeliveryReferences(cycle.farmId, next as { supplierId?: unknown; orderId?: unknown }, facts.references ?? {});
  const sale = facts.sale ? judgeSale(caller, cycle.id, next, 'override' in edits && edits.override !== null, facts.sale) : undefined;
  const { type: _t, date, ...fields } = next;
  const updated: MovementRecord = { ...movement, date, fields, updatedAt: now.toISOString(), version: movement.version + 1 };
  const ref = refOf(cycle);
  const group: LedgerGroup = {
    ref,
    changes: netChanges([...effectsOf(inputOf(movement), -1), ...effectsOf(next, 1, movement.fields.feedType as string | undefined)]),
    withdrawalRev: sale?.withdrawalRev,
  };
  const audit: AuditEvent[] = [
    { action: 'movement.update', targetType: 'movement', targetId: movement.id, changes: movementDiff(movement, updated) },
    ...(sale ? overrideEvent({ ...next, id: movement.id, flockId: cycle.flockId, cycleId: cycle.id } as Parameters<typeof overrideEvent>[0], sale) : []),
  ];
  const changes: ResourceChange[] = [upsertOf('movement', updated)];
  return { updated, groups: [group], audit, changes };
}

/** A deletion, first step: unlocked and the movement's own. Returns the other side to read, for a transfer between flocks. */
export function judgeMovementRemoval(movement: MovementRecord, cycle: ChangeCycle, now: Date, autoLockHours: number) {
  judgeUnlocked(movement, cycle, now, autoLockHours);
  judgeOwnMovement(movement);
  if (!isTransfer(movement)) return undefined;
  const f = movement.fields as { counterpartFlockId: string; counterpartCycleId: string; counterpartMovementId: string };
  return { flockId: f.counterpartFlockId, cycleId: f.counterpartCycleId, movementId: f.counterpartMovementId };
}

/** A deletion, second step: the ledger reversed for the movement and, for a transfer, its other side as read (unlocked, on the same farm). */
export function decideMovementDeletion(
  movement: MovementRecord,
  cycle: ChangeCycle,
  now: Date,
  autoLockHours: number,
  other?: { cycle: ChangeCycle | undefined; movement: MovementRecord | undefined },
) {
  const groups: LedgerGroup[] = [{ ref: refOf(cycle), changes: netChanges(effectsOf(inputOf(movement), -1)) }];
  const deletes = [movement];
  if (other?.cycle && other.movement) {
    // the other side on another farm: birds that changed farm by a transfer (/api/v1/sharing) stay with it
    if (other.cycle.farmId !== cycle.farmId) throw farmTransferConflict(movement);
    judgeUnlocked(other.movement, other.cycle, now, autoLockHours);
    groups.push({ ref: refOf(other.cycle), changes: netChanges(effectsOf(inputOf(other.movement), -1)) });
    deletes.push(other.movement);
  }
  const audit: AuditEvent[] = [
    {
      action: 'movement.delete',
      targetType: 'movement',
      targetId: movement.id,
      changes: { type: movement.type, date: movement.date, fields: movement.fields },
    },
  ];
  const changes: ResourceChange[] = deletes.map((m) => deleteOf('movement', m));
  return { groups, deletes, audit, changes };
}

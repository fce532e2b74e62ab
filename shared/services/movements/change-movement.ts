import { commit, checkVersion } from '../../db/commit.js';
import { withdrawalGuardOf } from '../../db/compliance.js';
import { getCycleAndMovement, ledgerWrites, type LedgerGroup, type MovementRecord } from '../../db/movements.js';
import type { CommandContext } from '../../domain/command.js';
import { isSale, judgeSale, overrideEvent } from '../../domain/compliance/withdrawals.js';
import { diff } from '../../domain/accounts.js';
import { effectsOf, movementProblems, netChanges } from '../../domain/ledger.js';
import { inputOf, refOf } from '../../domain/movements/record.js';
import { latestAllowedDate } from '../../domain/weights.js';
import { Conflict, ValidationFailed } from '../../errors.js';
import { FARM_TRANSFER_TYPES, READ_ONLY_MOVEMENT_FIELDS, SERVICE_FIELDS, type MovementInput, type UpdateMovementBody } from '../../../schemas/movements.js';
import { createMovementBody } from '../../../schemas/compiled/movements.js';
import { problemsOf } from '../../../schemas/problems.js';
import { checkDeliveryReferences } from '../references.js';
import { assertUnlocked, autoLockCutoff, refusedToConflict, toMovementDto } from './answers.js';
import { scopedMovement } from './movement-reads.js';

/** Editing and deleting a movement: only unlocked ones, never one another record owns; the ledger follows. */

const isTransfer = (m: MovementRecord) => m.type === 'bird_transfer_in' || m.type === 'bird_transfer_out';

/**
 * `type` and the fields the service sets may come back with an edit (a client sends back what it read), but
 * only as they are: a different value is refused, naming the field (absent and null are the same). The
 * read-only metadata may not come back at all (mass-assignment guard).
 */
function assertWritableEdits(movement: MovementRecord, edits: Record<string, unknown>): void {
  // the read-only metadata is refused whatever its value (also null, which would otherwise mean "remove")
  const readOnly = READ_ONLY_MOVEMENT_FIELDS.filter((k) => k in edits);
  if (readOnly.length) throw new ValidationFailed(readOnly.map((field) => ({ field, message: 'is not allowed' })));
  const stored: Record<string, unknown> = { ...movement.fields, type: movement.type };
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const changed = ['type', ...SERVICE_FIELDS].filter((k) => k in edits && !same(edits[k], stored[k]));
  if (changed.length) throw new ValidationFailed(changed.map((field) => ({ field, message: 'cannot be changed' })));
}

/** Movements another record wrote change only through it (else the record and the ledger would disagree). */
function assertOwnMovement(m: MovementRecord): void {
  const date = m.fields.dailyRecordDate;
  if (date) throw new Conflict(`Movement ${m.id} belongs to the daily record of ${String(date)}; submit that daily record again to change it`);
  // a purchase-order receipt's movement: the order's received quantities and the supplier's receipts would no longer agree with the ledger
  if (m.fields.receiptId)
    throw new Conflict(
      `Movement ${m.id} was written by receipt ${String(m.fields.receiptId)} of purchase order ${String(m.fields.orderId)}; it cannot change on its own`,
    );
  if ((FARM_TRANSFER_TYPES as readonly string[]).includes(m.type)) throw farmTransferConflict(m);
}

const farmTransferConflict = (m: MovementRecord) =>
  new Conflict(
    `Movement ${m.id} was written by transfer ${String(m.fields.transferId)} between farms; it changes only with that transfer (send a transfer back to reverse it)`,
  );

/** What changed between two versions of a movement: its date and each field, as `{from, to}` (null when absent). */
function movementDiff(before: MovementRecord, after: MovementRecord) {
  const a: Record<string, unknown> = { date: before.date, ...before.fields };
  const b: Record<string, unknown> = { date: after.date, ...after.fields };
  const changed = diff(a, b, [...new Set([...Object.keys(a), ...Object.keys(b)])]);
  return Object.fromEntries(Object.entries(changed).map(([k, c]) => [k, { from: c.from ?? null, to: c.to ?? null }]));
}

export async function updateMovement(ctx: CommandContext, flockId: string, cycleId: string, movementId: string, body: UpdateMovementBody) {
  const { cycle, movement } = await scopedMovement(ctx.caller, flockId, cycleId, movementId);
  const version = { read: movement.version, stated: body.version, what: `Movement ${movementId}`, subject: true };
  checkVersion(ctx, version); // before the edit is judged: a stale version answers as such whatever the edit
  const { version: _v, ...edits } = body;
  assertWritableEdits(movement, edits);
  assertUnlocked(movement, cycle, ctx.now);
  assertOwnMovement(movement);
  if (isTransfer(movement)) throw new Conflict('A transfer changes two flocks: delete it (both sides go) and record it again');
  const merged: Record<string, unknown> = { ...inputOf(movement), ...edits };
  for (const [k, v] of Object.entries(merged)) if (v === null) delete merged[k];
  const details = problemsOf(createMovementBody, merged);
  if (details.length) throw new ValidationFailed(details);
  const next = merged as MovementInput;
  const problems = movementProblems(next, cycle, latestAllowedDate(ctx.now));
  if (problems.length) throw new ValidationFailed(problems);
  if ('supplierId' in edits || 'orderId' in edits) await checkDeliveryReferences(cycle.farmId, merged);
  const ref = refOf(cycle);
  const sale = isSale(next.type)
    ? judgeSale(ctx.caller, cycleId, next, 'override' in edits && edits.override !== null, await withdrawalGuardOf(ref, next.date))
    : undefined;
  const { type: _t, date, ...fields } = next;
  const updated: MovementRecord = { ...movement, date, fields, updatedAt: ctx.now.toISOString(), version: movement.version + 1 };
  const changes = netChanges([...effectsOf(inputOf(movement), -1), ...effectsOf(next, 1, movement.fields.feedType as string | undefined)]);
  await refusedToConflict(
    commit(ctx, {
      writes: ledgerWrites(
        {
          groups: [{ ref, changes, withdrawalRev: sale?.withdrawalRev }],
          replaces: [{ movement: updated, previous: movement, expectedVersion: movement.version, createdAfter: autoLockCutoff(ctx.now) }],
        },
        ctx.now.toISOString(),
      ),
      audit: [
        { action: 'movement.update', targetType: 'movement', targetId: movementId, changes: movementDiff(movement, updated) },
        ...(sale ? overrideEvent({ ...next, id: movementId, flockId, cycleId } as Parameters<typeof overrideEvent>[0], sale) : []),
      ],
      changes: [{ type: 'movement', id: movementId, op: 'upsert', version: updated.version }],
    }),
  );
  return toMovementDto(updated, cycle, ctx.now);
}

/** Deletes an unlocked movement and reverses its effects; a transfer goes with its other side. */
export async function deleteMovement(ctx: CommandContext, flockId: string, cycleId: string, movementId: string): Promise<void> {
  const { cycle, movement } = await scopedMovement(ctx.caller, flockId, cycleId, movementId);
  checkVersion(ctx, { read: movement.version, what: `Movement ${movementId}`, subject: true });
  assertUnlocked(movement, cycle, ctx.now);
  assertOwnMovement(movement);
  const groups: LedgerGroup[] = [{ ref: refOf(cycle), changes: netChanges(effectsOf(inputOf(movement), -1)) }];
  const deletes = [{ movement, createdAfter: autoLockCutoff(ctx.now) }];
  if (isTransfer(movement)) {
    // the other side is named by this movement, so it is read only now
    const f = movement.fields as { counterpartFlockId: string; counterpartCycleId: string; counterpartMovementId: string };
    const other = await getCycleAndMovement(f.counterpartFlockId, f.counterpartCycleId, f.counterpartMovementId);
    if (other.cycle && other.movement) {
      // the other side on another farm: birds that changed farm by a transfer (/api/v1/sharing) stay with it
      if (other.cycle.farmId !== cycle.farmId) throw farmTransferConflict(movement);
      assertUnlocked(other.movement, other.cycle, ctx.now);
      groups.push({ ref: refOf(other.cycle), changes: netChanges(effectsOf(inputOf(other.movement), -1)) });
      deletes.push({ movement: other.movement, createdAfter: autoLockCutoff(ctx.now) });
    }
  }
  await refusedToConflict(
    commit(ctx, {
      writes: ledgerWrites({ groups, deletes }, ctx.now.toISOString()),
      audit: [
        {
          action: 'movement.delete',
          targetType: 'movement',
          targetId: movementId,
          changes: { type: movement.type, date: movement.date, fields: movement.fields },
        },
      ],
      changes: deletes.map((d) => ({ type: 'movement', id: d.movement.id, op: 'delete' as const })),
    }),
  );
}

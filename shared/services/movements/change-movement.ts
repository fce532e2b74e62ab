import { settings } from '../../config/env.js';
import { commit, checkVersion } from '../../db/commit.js';
import { withdrawalGuardOf } from '../../db/compliance.js';
import { eggLotsOnHand, getCycleAndMovement, ledgerWrites } from '../../db/movements.js';
import { getSupplierAndOrder } from '../../db/procurement.js';
import type { CommandContext } from '../../domain/command.js';
import { decideMovementDeletion, decideMovementUpdate, judgeMovementEdit, judgeMovementRemoval } from '../../domain/movements/change.js';
import { refOf } from '../../domain/movements/record.js';
import type { UpdateMovementBody } from '../../../schemas/movements.js';
import type { CompiledSchema } from '../../../schemas/compiled-schema.js';
import { autoLockCutoff, refusedToConflict, toMovementDto } from './answers.js';
import { scopedMovement } from './movement-reads.js';
import { stockShortfallWarnings } from './stock-shortfalls.js';

/**
 * Editing and deleting a movement (decided in shared/domain/movements/change.ts): only unlocked ones, never
 * one another record owns; the ledger follows.
 */

/**
 * Edits a movement. `inputSchema` validates the movement as edited: the route's `createMovementBody` (every
 * type), or one type's validator where the caller edits only that type (the egg production's correction).
 */
export async function updateMovement(
  ctx: CommandContext,
  flockId: string,
  cycleId: string,
  movementId: string,
  body: UpdateMovementBody,
  inputSchema: CompiledSchema<unknown>,
) {
  const { cycle, movement } = await scopedMovement(ctx.caller, flockId, cycleId, movementId);
  checkVersion(ctx, { read: movement.version, stated: body.version, what: `Movement ${movementId}`, subject: true }); // before the edit is judged: a stale version answers as such whatever the edit
  const edit = judgeMovementEdit(movement, cycle, body, ctx.now, settings().autoLockHours, inputSchema);
  // read once the edit passed its checks: the references a delivery's edit names, a sale's withdrawal windows (never both: a sale names no supplier)
  const { references, saleFrom, eggLots: redraw } = edit.reads;
  const [found, sale, eggLots] = await Promise.all([
    references ? getSupplierAndOrder(references.supplierId, references.orderId) : undefined,
    saleFrom ? withdrawalGuardOf(refOf(cycle), saleFrom) : undefined,
    redraw ? eggLotsOnHand(cycle.id) : undefined,
  ]);
  const decision = decideMovementUpdate(ctx.caller, movement, cycle, edit, { references: found, sale, eggLots }, ctx.now);
  const warnings = await stockShortfallWarnings(decision.groups, ctx.now);
  await refusedToConflict(
    commit(ctx, {
      writes: ledgerWrites(
        {
          groups: decision.groups,
          replaces: [{ movement: decision.updated, previous: movement, expectedVersion: movement.version, createdAfter: autoLockCutoff(ctx.now) }],
        },
        ctx.now.toISOString(),
      ),
      audit: decision.audit,
      changes: decision.changes,
    }),
  );
  return { movement: toMovementDto(decision.updated, cycle, ctx.now), warnings };
}

/** Deletes an unlocked movement and reverses its effects; a transfer goes with its other side. */
export async function deleteMovement(ctx: CommandContext, flockId: string, cycleId: string, movementId: string): Promise<void> {
  const { cycle, movement } = await scopedMovement(ctx.caller, flockId, cycleId, movementId);
  checkVersion(ctx, { read: movement.version, what: `Movement ${movementId}`, subject: true });
  const hours = settings().autoLockHours;
  const counterpart = judgeMovementRemoval(movement, cycle, ctx.now, hours);
  // the other side of a transfer is named by this movement, so it is read only now
  const other = counterpart ? await getCycleAndMovement(counterpart.flockId, counterpart.cycleId, counterpart.movementId) : undefined;
  const decision = decideMovementDeletion(movement, cycle, ctx.now, hours, other);
  const cutoff = autoLockCutoff(ctx.now);
  await refusedToConflict(
    commit(ctx, {
      writes: ledgerWrites({ groups: decision.groups, deletes: decision.deletes.map((m) => ({ movement: m, createdAfter: cutoff })) }, ctx.now.toISOString()),
      audit: decision.audit,
      changes: decision.changes,
    }),
  );
}

import { stockShortfallWarnings } from './stock-shortfalls.js';
import { settings } from '../../config/env.js';
import { checkVersion, commit } from '../../db/commit.js';
import { farmLedgerWrites, farmOfFarmMovement, getFarmAndBin, getFarmAndMovement } from '../../db/farm-movements.js';
import { getHouse } from '../../db/farms.js';
import { getSupplierAndOrder } from '../../db/procurement.js';
import type { Caller } from '../../domain/caller.js';
import type { CommandContext } from '../../domain/command.js';
import {
  decideFarmMovementCreate,
  decideFarmMovementDeletion,
  decideFarmMovementUpdate,
  farmMovementLock,
  farmMovementReads,
  judgeFarmMovementEdit,
  judgeLocatedFarm,
  visibleFarmMovement,
} from '../../domain/movements/farm.js';
import { movementDto } from '../../domain/movements/record.js';
import { farmDateAt } from '../../domain/procurement/orders.js';
import type { FarmMovementInput } from '../../../schemas/inventory.js';
import type { UpdateMovementBody } from '../../../schemas/movements.js';
import { farmOfRequest } from '../farms.js';
import { idempotentAfterReading } from '../idempotency.js';
import { autoLockCutoff, refusedToConflict } from './answers.js';

/**
 * Deliveries booked on the farm's stock without a cycle (`/api/v1/inventory/movements`), decided in
 * shared/domain/movements/farm.ts: read (the farm with the house bin, the supplier and order named), decide,
 * commit once (the movement, its supplier copy, the stock, the audit).
 */

const answerOf = (m: Parameters<typeof movementDto>[0], now: Date) => movementDto(m, farmMovementLock, now, settings().autoLockHours);

/** Books a delivery on the farm's stock. With an Idempotency-Key a retry gets the first answer and writes nothing. */
export async function recordFarmMovement(ctx: CommandContext, body: FarmMovementInput) {
  const farmId = farmOfRequest(ctx.caller, body.farmId);
  const refs = farmMovementReads(body);
  const read = () =>
    Promise.all([getFarmAndBin(farmId, body.houseId), refs.supplierId || refs.orderId ? getSupplierAndOrder(refs.supplierId, refs.orderId) : {}]);
  return idempotentAfterReading(ctx, `farm-movement:${farmId}`, body, read, async (ctx, [{ farm, house }, references]) => {
    const today = farmDateAt(ctx.now.toISOString(), farm?.timezone);
    const decision = decideFarmMovementCreate(farmId, body, { caller: ctx.caller, now: ctx.now, farm, house, today, references });
    const response = { created: true, message: 'Delivery booked on the farm', data: answerOf(decision.movement, ctx.now) };
    await refusedToConflict(
      commit(ctx, {
        writes: farmLedgerWrites({ group: decision.group, puts: [decision.movement] }, ctx.now.toISOString()),
        audit: decision.audit,
        changes: decision.changes,
        response,
      }),
    );
    return response;
  });
}

/** A farm movement the caller may see: its farm found by its locator (one Query), then the farm and the movement (one consistent BatchGetItem). */
async function scopedFarmMovement(caller: Caller, movementId: string) {
  const farmId = judgeLocatedFarm(caller, movementId, await farmOfFarmMovement(movementId));
  return visibleFarmMovement(caller, farmId, movementId, await getFarmAndMovement(farmId, movementId));
}

export async function farmMovementFor(caller: Caller, movementId: string) {
  return answerOf(await scopedFarmMovement(caller, movementId), new Date());
}

/** Corrects a delivery booked on the farm: its old effect on the stock reversed and the new one applied, in one commit. */
export async function updateFarmMovement(ctx: CommandContext, movementId: string, body: UpdateMovementBody) {
  const movement = await scopedFarmMovement(ctx.caller, movementId);
  checkVersion(ctx, { read: movement.version, stated: body.version, what: `Movement ${movementId}`, subject: true });
  const edit = judgeFarmMovementEdit(movement, body, ctx.now, settings().autoLockHours);
  // read once the edit passed its checks: the house bin and the supplier and order the edit names
  const { houseId, references } = edit.reads;
  const [house, found] = await Promise.all([
    houseId ? getHouse(movement.farmId, houseId) : undefined,
    references ? getSupplierAndOrder(references.supplierId, references.orderId) : undefined,
  ]);
  const decision = decideFarmMovementUpdate(movement, edit, { house, references: found }, ctx.now);
  const warnings = await stockShortfallWarnings([decision.group], ctx.now);
  const replace = { movement: decision.updated, expectedVersion: movement.version, createdAfter: autoLockCutoff(ctx.now) };
  await refusedToConflict(
    commit(ctx, {
      writes: farmLedgerWrites({ group: decision.group, replace }, ctx.now.toISOString()),
      audit: decision.audit,
      changes: decision.changes,
    }),
  );
  return { movement: answerOf(decision.updated, ctx.now), warnings };
}

/** Deletes a delivery booked on the farm and takes its stock back (refused when the stock no longer holds it). */
export async function deleteFarmMovement(ctx: CommandContext, movementId: string): Promise<void> {
  const movement = await scopedFarmMovement(ctx.caller, movementId);
  checkVersion(ctx, { read: movement.version, what: `Movement ${movementId}`, subject: true });
  const decision = decideFarmMovementDeletion(movement, ctx.now, settings().autoLockHours);
  await refusedToConflict(
    commit(ctx, {
      writes: farmLedgerWrites({ group: decision.group, remove: { movement, createdAfter: autoLockCutoff(ctx.now) } }, ctx.now.toISOString()),
      audit: decision.audit,
      changes: decision.changes,
    }),
  );
}

import { settings } from '../../config/env.js';
import { commit } from '../../db/commit.js';
import { movementKey } from '../../db/keys.js';
import type { CommandContext } from '../../domain/command.js';
import { REVIEW_CAPABILITY, effectiveLock, unlockRefusal, type StoredLock } from '../../domain/ledger.js';
import type { MovementRecord } from '../../domain/movements/record.js';
import { Conflict, Forbidden } from '../../errors.js';
import { toMovementDto } from './answers.js';
import { scopedMovement } from './movement-reads.js';

/** Locking and unlocking a movement: the lock binds the locker's role; automatic locks never lift. */

async function setLock(ctx: CommandContext, m: MovementRecord, lock: StoredLock | null, action: string, changes: Record<string, unknown>) {
  await commit(ctx, {
    writes: [{ update: movementKey(m.cycleId, m.id), set: { lock }, version: { read: m.version, what: `Movement ${m.id}` } }],
    audit: [{ action, targetType: 'movement', targetId: m.id, changes }],
    changes: [{ type: 'movement', id: m.id, op: 'upsert', version: m.version + 1 }],
  });
  return { ...m, lock, version: m.version + 1, updatedAt: ctx.now.toISOString() };
}

export async function lockMovement(ctx: CommandContext, flockId: string, cycleId: string, movementId: string, reason: string) {
  const { cycle, movement } = await scopedMovement(ctx.caller, flockId, cycleId, movementId);
  const current = effectiveLock(movement, cycle, ctx.now, settings().autoLockHours);
  if (current) throw new Conflict(`Movement ${movementId} is already locked (${current.type}: ${current.reason})`);
  const lock = { type: 'manual' as const, reason, at: ctx.now.toISOString(), by: ctx.caller.id, byRole: ctx.caller.role };
  return toMovementDto(await setLock(ctx, movement, lock, 'movement.lock', { lock: { from: null, to: lock } }), cycle, ctx.now);
}

export async function unlockMovement(ctx: CommandContext, flockId: string, cycleId: string, movementId: string, reason: string) {
  const { cycle, movement } = await scopedMovement(ctx.caller, flockId, cycleId, movementId);
  const current = effectiveLock(movement, cycle, ctx.now, settings().autoLockHours);
  if (!current) throw new Conflict(`Movement ${movementId} is not locked`);
  const refusal = unlockRefusal(ctx.caller, current);
  if (refusal === 'automatic') throw new Conflict(`Movement ${movementId} is locked automatically (${current.reason}); automatic locks cannot be unlocked`);
  if (refusal === 'higher-level')
    throw new Forbidden(
      current.byRole
        ? `Movement ${movementId} was locked by the role ${current.byRole}: unlocking it needs ${REVIEW_CAPABILITY} or the role ${current.byRole} or above`
        : `Movement ${movementId} is locked for review: unlocking it needs ${REVIEW_CAPABILITY}`,
    );
  return toMovementDto(await setLock(ctx, movement, null, 'movement.unlock', { lock: { from: current, to: null }, reason }), cycle, ctx.now);
}

import { settings } from '../../config/env.js';
import { commit } from '../../db/commit.js';
import { movementKey } from '../../db/keys.js';
import type { CommandContext } from '../../domain/command.js';
import { decideMovementLock, decideMovementUnlock } from '../../domain/movements/lock.js';
import { toMovementDto } from './answers.js';
import { scopedMovement } from './movement-reads.js';

/** Locking and unlocking a movement (decided in shared/domain/movements/lock.ts): one conditioned write with its audit. */

async function commitLock(ctx: CommandContext, decision: ReturnType<typeof decideMovementLock>) {
  const m = decision.change.current;
  await commit(ctx, {
    writes: [{ update: movementKey(m.cycleId, m.id), set: decision.change.fields, version: { read: m.version, what: `Movement ${m.id}` } }],
    audit: decision.audit,
    changes: decision.changes,
  });
  return decision.change.next;
}

export async function lockMovement(ctx: CommandContext, flockId: string, cycleId: string, movementId: string, reason: string) {
  const { cycle, movement } = await scopedMovement(ctx.caller, flockId, cycleId, movementId);
  const decision = decideMovementLock(ctx.caller, movement, cycle, reason, ctx.now, settings().autoLockHours);
  return toMovementDto(await commitLock(ctx, decision), cycle, ctx.now);
}

export async function unlockMovement(ctx: CommandContext, flockId: string, cycleId: string, movementId: string, reason: string) {
  const { cycle, movement } = await scopedMovement(ctx.caller, flockId, cycleId, movementId);
  const decision = decideMovementUnlock(ctx.caller, movement, cycle, reason, ctx.now, settings().autoLockHours);
  return toMovementDto(await commitLock(ctx, decision), cycle, ctx.now);
}

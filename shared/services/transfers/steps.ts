import { commit, checkVersion } from '../../db/commit.js';
import { getFlock, type FlockRecord } from '../../db/flocks.js';
import { TransferLost, transferStep, type TransferEndRecord, type TransferRecord, type TransferStep } from '../../db/transfers.js';
import type { CommandContext } from '../../domain/command.js';
import { ACTING_SIDE, isLedgerKind, maySideAct, transferTransition } from '../../domain/transfers.js';
import { Conflict, Forbidden, ValidationFailed } from '../../errors.js';
import { idempotentCommand } from '../idempotency.js';
import { cycleOfFlock, flockOfFarm } from '../references.js';
import { complete } from './completion.js';
import { lostRace, sides, toTransferDto, visibleTransfer } from './reads.js';
import type { ApproveTransferBody, TransferAction, TransferActionBody } from '../../../schemas/sharing.js';

/** The lifecycle's steps: approve, reject, cancel (here) and complete (completion.ts). */

const ACTION_WORDS: Record<TransferAction, string> = {
  approve: 'approve',
  reject: 'reject',
  cancel: 'cancel',
  complete: 'complete',
};
const SIDE_WORDS = { from: 'the sending farm', to: 'the receiving farm', either: 'either farm' } as const;
const STEP_FIELD = { approved: 'approved', rejected: 'rejected', cancelled: 'cancelled', completed: 'completed' } as const;

/**
 * The receiving end, chosen at approval by a user of the receiving farm: the flock named (else the one the
 * sender proposed, when it is a flock of this farm) and its cycle (named, else its active one), active.
 */
async function approvedEnd(t: TransferRecord, body: ApproveTransferBody): Promise<TransferEndRecord | undefined> {
  if (!isLedgerKind(t.kind)) {
    const extra = (['flockId', 'cycleId'] as const).filter((k) => body[k] !== undefined);
    if (extra.length) throw new ValidationFailed(extra.map((field) => ({ field, message: 'is only for birds, feed and eggs (equipment goes to the farm)' })));
    return undefined;
  }
  let flock: FlockRecord;
  if (body.flockId) flock = await flockOfFarm(t.to.farmId, body.flockId);
  else {
    const proposed = t.to.flockId ? await getFlock(t.to.flockId) : undefined;
    if (proposed?.farmId !== t.to.farmId)
      throw new ValidationFailed([
        {
          field: 'flockId',
          message: `is required: the flock of farm ${t.to.farmId} whose cycle receives the ${t.kind}${t.to.flockId ? ` (the flock proposed, ${t.to.flockId}, is not one of this farm)` : ''}`,
        },
      ]);
    flock = proposed;
  }
  const cycleId = body.cycleId ?? flock.activeCycleId;
  if (!cycleId) throw new Conflict(`Flock ${flock.id} has no active cycle; start one or choose another flock`);
  const cycle = await cycleOfFlock(flock, cycleId);
  if (cycle.status !== 'active') throw new Conflict(`Cycle ${cycleId} of flock ${flock.id} is closed; choose an active cycle`);
  return { farmId: t.to.farmId, flockId: flock.id, cycleId, movementId: null };
}

/**
 * approve, reject, cancel or complete: the caller must be of the side that takes the step (else 403), at
 * the version read (If-Match → 412, body `version` → 409); an illegal move is a 409 naming the status; an
 * Idempotency-Key replays the first answer.
 */
export async function actOnTransfer(ctx: CommandContext, id: string, action: TransferAction, body: TransferActionBody | ApproveTransferBody) {
  const current = await visibleTransfer(ctx.caller, id);
  return idempotentCommand(ctx, `transfer:${id}:${action}`, body, async (ctx) => {
    if (!maySideAct(action, sides(ctx.caller, current))) {
      const side = ACTING_SIDE[action];
      const farm = side === 'to' ? current.to.farmId : current.from.farmId;
      throw new Forbidden(`Only a user of ${SIDE_WORDS[side]} (${farm}) may ${ACTION_WORDS[action]} transfer ${id}`);
    }
    // the version is compared before the lifecycle and the receiving end: a stale one answers first
    checkVersion(ctx, { read: current.version, what: `Transfer ${id}`, stated: body.version, subject: true });
    const move = transferTransition(current.status, action);
    if ('refused' in move) throw new Conflict(move.refused);
    const now = ctx.now.toISOString();
    const step: TransferStep = { at: now, by: ctx.caller.id, note: body.note?.trim() ?? null };
    if (action === 'complete') return complete(ctx, current, step, body.version);
    const receiving = action === 'approve' ? await approvedEnd(current, body) : undefined;
    const fields: Partial<TransferRecord> = {
      status: move.to,
      [STEP_FIELD[move.to as keyof typeof STEP_FIELD]]: step,
      ...(receiving ? { to: receiving } : {}),
    };
    const written: TransferRecord = { ...current, ...fields, version: current.version + 1, updatedAt: now };
    const response = { created: false, message: `Transfer ${move.to}`, data: toTransferDto(written) };
    const changes = { status: { from: current.status, to: move.to }, note: step.note, ...(receiving ? { to: { from: current.to, to: receiving } } : {}) };
    try {
      await commit(ctx, {
        writes: [transferStep(current, fields, body.version)],
        audit: [{ action: `transfer.${action}`, targetType: 'transfer', targetId: id, changes }],
        changes: [{ type: 'transfer', id, op: 'upsert', version: written.version }],
        response,
      });
    } catch (err) {
      throw err instanceof TransferLost ? await lostRace(id) : err;
    }
    return response;
  });
}

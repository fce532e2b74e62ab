import { commit, checkVersion } from '../../db/commit.js';
import { TransferLost, transferStep } from '../../db/transfers.js';
import type { CommandContext } from '../../domain/command.js';
import { approvalReads, decideTransferStep, judgeActingSide, transferMove } from '../../domain/transfers/steps.js';
import { idempotentCommand } from '../idempotency.js';
import { complete } from './completion.js';
import { lostRace, readEnd, toTransferDto, visibleTransfer } from './reads.js';
import type { ApproveTransferBody, TransferAction, TransferActionBody } from '../../../schemas/sharing.js';

/** The lifecycle's steps: approve, reject, cancel (here) and complete (completion.ts), decided in shared/domain/transfers/. */

/**
 * approve, reject, cancel or complete: the caller must be of the side that takes the step (else 403), at
 * the version read (If-Match → 412, body `version` → 409); an illegal move is a 409 naming the status; an
 * Idempotency-Key replays the first answer.
 */
export async function actOnTransfer(ctx: CommandContext, id: string, action: TransferAction, body: TransferActionBody | ApproveTransferBody) {
  const current = await visibleTransfer(ctx.caller, id);
  return idempotentCommand(ctx, `transfer:${id}:${action}`, body, async (ctx) => {
    judgeActingSide(ctx.caller, current, action);
    // the version is compared before the lifecycle and the receiving end: a stale one answers first
    checkVersion(ctx, { read: current.version, what: `Transfer ${id}`, stated: body.version, subject: true });
    transferMove(current, action);
    if (action === 'complete') return complete(ctx, current, body);
    const reads = approvalReads(current, action, body);
    const receiving = reads ? await readEnd(current.to.farmId, reads.flockId, reads.cycleId) : undefined;
    const { change, audit, changes } = decideTransferStep(ctx.caller, current, action, body, ctx.now, receiving);
    const response = { created: false, message: `Transfer ${change.next.status}`, data: toTransferDto(change.next) };
    try {
      await commit(ctx, { writes: [transferStep(current, change.fields, body.version)], audit, changes, response });
    } catch (err) {
      throw err instanceof TransferLost ? await lostRace(id) : err;
    }
    return response;
  });
}

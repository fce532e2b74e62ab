import { commit } from '../../db/commit.js';
import { getEquipment, restrictionsOf, transferCreate } from '../../db/transfers.js';
import { FarmRestricted } from '../../domain/transfers/records.js';
import type { CommandContext } from '../../domain/command.js';
import { isLedgerKind } from '../../domain/transfers/lifecycle.js';
import { decideTransferRequest, judgeSender, judgeTransferDate, judgeTransferRequest, requestedEquipmentIds } from '../../domain/transfers/requests.js';
import { farmOfRequest } from '../farms.js';
import { idempotentCommand } from '../idempotency.js';
import { readEnd, restricted, toTransferDto } from './reads.js';
import type { CreateTransferBody } from '../../../schemas/sharing.js';

/**
 * Requests a transfer (the caller is a user of the sending farm); a restricted sender is refused, naming the
 * incident. Decided in shared/domain/transfers/requests.ts; each read waits for the checks before it.
 */
export async function requestTransfer(ctx: CommandContext, body: CreateTransferBody) {
  const fromFarmId = farmOfRequest(ctx.caller, body.from.farmId);
  return idempotentCommand(ctx, `transfer:${fromFarmId}`, body, async (ctx) => {
    judgeTransferRequest(body);
    judgeTransferDate(body, ctx.now);
    judgeSender(fromFarmId, await restrictionsOf(fromFarmId));
    const facts = isLedgerKind(body.kind)
      ? { sender: await readEnd(body.from.farmId, body.from.flockId, body.from.cycleId) }
      : { register: await getEquipment(requestedEquipmentIds(body)) };
    const { transfer, audit, changes } = decideTransferRequest(ctx.caller, body, facts, ctx.now);
    const response = { created: true, message: 'Transfer requested', data: toTransferDto(transfer) };
    try {
      await commit(ctx, { writes: transferCreate(transfer), audit, changes, response });
    } catch (err) {
      // the restriction check failed: an incident was opened after the read above; name it
      if (err instanceof FarmRestricted) throw await restricted(fromFarmId);
      throw err;
    }
    return response;
  });
}

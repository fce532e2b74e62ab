import { stockShortfallWarnings } from '../movements/stock-shortfalls.js';
import { commit } from '../../db/commit.js';
import type { CommandContext } from '../../domain/command.js';
import { getCycle } from '../../db/cycles.js';
import { eggLotsOnHand, ledgerWrites } from '../../db/movements.js';
import { withdrawalGuardOf } from '../../db/compliance.js';
import { equipmentMove, restrictionsOf, TransferLost, transferStep, unrestricted } from '../../db/transfers.js';
import { FarmRestricted, type TransferRecord } from '../../domain/transfers/records.js';
import { completionReads, decideTransferCompletion } from '../../domain/transfers/completion.js';
import { judgeSender } from '../../domain/transfers/requests.js';
import { densityWarnings } from '../compliance/density-warnings.js';
import { refusedToConflict } from '../movements/answers.js';
import { alarmsOnFlockData } from '../new-data.js';
import { lostRace, restricted, toTransferDto } from './reads.js';
import type { TransferActionBody } from '../../../schemas/sharing.js';

/** Eggs sent: the sending cycle's lots, then its withdrawal revision and all its windows (a lot may be as old as the cycle). */
async function eggsSent(t: TransferRecord) {
  const ref = { farmId: t.from.farmId, flockId: t.from.flockId!, cycleId: t.from.cycleId! };
  const [lots, guard] = await Promise.all([eggLotsOnHand(ref.cycleId), withdrawalGuardOf(ref, '')]);
  return { lots, ...guard };
}

/**
 * Completion is ONE transaction: the transfer's step (from `approved`, at its version, first: a lost race
 * is named before a balance), the sender's restriction check, and both sides' movements with their
 * balances (birds, feed, eggs) or the equipment register's holders, with the audit and the idempotent
 * answer. Decided in shared/domain/transfers/completion.ts.
 */
export async function complete(ctx: CommandContext, t: TransferRecord, body: TransferActionBody) {
  judgeSender(t.from.farmId, await restrictionsOf(t.from.farmId));
  const ends = completionReads(t);
  const [from, to, eggs] = ends
    ? await Promise.all([
        getCycle(ends.from.flockId!, ends.from.cycleId!),
        getCycle(ends.to.flockId!, ends.to.cycleId!),
        t.kind === 'eggs' ? eggsSent(t) : undefined,
      ])
    : [];
  const decision = decideTransferCompletion(ctx.caller, t, body, ctx.now, ends ? { from, to } : undefined, eggs);
  const { change, date } = decision;
  // read after deciding: birds entering the receiving house warn (never refuse) above the stocking density limit
  // and a stock sent at a past date warns when the sender's stock was short then
  const [density, shortfalls] = await Promise.all([
    decision.placement ? densityWarnings(decision.placement.cycle, decision.placement.birds, date) : [],
    decision.ledger ? stockShortfallWarnings(decision.ledger.groups, ctx.now) : [],
  ]);
  const warnings = [...density, ...shortfalls];
  const response = { created: false, message: 'Transfer completed', data: toTransferDto(change.next), ...(warnings.length ? { warnings } : {}) };
  const at = change.next.updatedAt;
  const writes = [
    transferStep(t, change.fields, body.version),
    unrestricted(t.from.farmId),
    ...(decision.equipment ?? []).map((l) => equipmentMove(l, t.from.farmId, t.to.farmId, at)),
    ...(decision.ledger ? ledgerWrites(decision.ledger, at) : []),
  ];
  await refusedToConflict(commit(ctx, { writes, audit: decision.audit, changes: decision.changes, response })).catch(async (err: unknown): Promise<never> => {
    if (err instanceof TransferLost) throw await lostRace(t.id);
    if (err instanceof FarmRestricted) throw await restricted(t.from.farmId);
    throw err;
  });
  if (decision.ledger)
    await Promise.all([
      alarmsOnFlockData({ farmId: t.from.farmId, flockId: t.from.flockId! }, date),
      alarmsOnFlockData({ farmId: t.to.farmId, flockId: t.to.flockId! }, date),
    ]);
  return response;
}

import { commit, type CommitContext, type Plan } from '../../db/commit.js';
import { getCycle } from '../../db/cycles.js';
import { ledgerWrites, type MovementRecord } from '../../db/movements.js';
import {
  equipmentMove,
  FarmRestricted,
  restrictionsOf,
  TransferLost,
  transferStep,
  unrestricted,
  type TransferEndRecord,
  type TransferRecord,
  type TransferStep,
} from '../../db/transfers.js';
import { effectsOf, movementProblems, netChanges } from '../../domain/ledger.js';
import { isLedgerKind, transferMovements } from '../../domain/transfers.js';
import { latestAllowedDate } from '../../domain/weights.js';
import { Conflict } from '../../errors.js';
import { densityWarnings } from '../compliance/density-warnings.js';
import { newMovement, refOf } from '../../domain/movements/record.js';
import { refusedToConflict } from '../movements/answers.js';
import { alarmsOnFlockData } from '../new-data.js';
import { lostRace, restricted, toTransferDto } from './reads.js';
import type { MovementInput } from '../../../schemas/movements.js';

/**
 * Completion is ONE transaction: the transfer's step (from `approved`, at its version, first: a lost race
 * is named before a balance), the sender's restriction check, and both sides' movements with their
 * balances (birds, feed, eggs) or the equipment register's holders, with the audit and the idempotent
 * answer.
 */
export async function complete(ctx: CommitContext, t: TransferRecord, step: TransferStep, stated: number | undefined) {
  const restrictions = await restrictionsOf(t.from.farmId);
  if (restrictions.length) throw await restricted(t.from.farmId, restrictions);
  const now = step.at;
  const date = now.slice(0, 10);
  const base = { status: 'completed' as const, completed: step, completedDate: date };
  const named = async (err: unknown): Promise<never> => {
    if (err instanceof TransferLost) throw await lostRace(t.id);
    if (err instanceof FarmRestricted) throw await restricted(t.from.farmId);
    throw err;
  };
  const audit = (changes: Record<string, unknown>) => [{ action: 'transfer.complete', targetType: 'transfer', targetId: t.id, changes }];
  const plan = (fields: Partial<TransferRecord>, response: NonNullable<Plan['response']>, changes: Record<string, unknown>): Plan => ({
    writes: [transferStep(t, fields, stated), unrestricted(t.from.farmId)],
    audit: audit({ status: { from: t.status, to: 'completed' }, ...changes }),
    changes: [{ type: 'transfer', id: t.id, op: 'upsert', version: t.version + 1 }],
    response,
  });
  if (!isLedgerKind(t.kind)) {
    const written: TransferRecord = { ...t, ...base, version: t.version + 1, updatedAt: now };
    const response = { created: false, message: 'Transfer completed', data: toTransferDto(written) };
    const lines = t.items ?? [];
    const equipment = plan(base, response, { holders: lines.map((l) => ({ equipmentId: l.equipmentId, from: t.from.farmId, to: t.to.farmId })) });
    equipment.writes.push(...lines.map((l) => equipmentMove(l, t.from.farmId, t.to.farmId, now)));
    await commit(ctx, equipment).catch(named);
    return response;
  }
  const [fromCycle, toCycle] = await Promise.all([getCycle(t.from.flockId!, t.from.cycleId!), getCycle(t.to.flockId!, t.to.cycleId!)]);
  for (const [side, cycle, end] of [
    ['from', fromCycle, t.from],
    ['to', toCycle, t.to],
  ] as const)
    if (cycle?.status !== 'active') throw new Conflict(`Cycle ${end.cycleId} of flock ${end.flockId} (${side}) is no longer active; cancel this transfer`);
  const moves = transferMovements(
    {
      id: t.id,
      kind: t.kind,
      quantity: t.quantity!,
      feedType: t.feedType,
      from: t.from as Required<TransferEndRecord> & { flockId: string; cycleId: string },
      to: t.to as Required<TransferEndRecord> & { flockId: string; cycleId: string },
    },
    date,
  );
  const out = moves.out as MovementInput;
  const into = moves.in as MovementInput;
  const problems = [
    ...movementProblems(out, fromCycle!, latestAllowedDate(ctx.now)).map((p) => `${t.from.cycleId}: ${p.field} ${p.message}`),
    ...movementProblems(into, toCycle!, latestAllowedDate(ctx.now)).map((p) => `${t.to.cycleId}: ${p.field} ${p.message}`),
  ];
  if (problems.length) throw new Conflict(`The transfer's movements cannot be dated ${date} in their cycles (${problems.join('; ')})`);
  // locked: a transfer's movements change only with the transfer (unlocking is audited)
  const lock = { type: 'manual' as const, reason: `written by transfer ${t.id}`, at: now, by: ctx.caller.id };
  const outRecord: MovementRecord = { ...newMovement(out, refOf(fromCycle!), ctx.caller.id, now), lock };
  const inRecord: MovementRecord = { ...newMovement(into, refOf(toCycle!), ctx.caller.id, now), lock };
  if (t.kind === 'birds') {
    // the pair points at each other, as recording a transfer between two flocks does
    outRecord.fields = { ...outRecord.fields, counterpartCycleId: toCycle!.id, counterpartMovementId: inRecord.id };
    inRecord.fields = { ...inRecord.fields, counterpartCycleId: fromCycle!.id, counterpartMovementId: outRecord.id };
  }
  const fields = { ...base, from: { ...t.from, movementId: outRecord.id }, to: { ...t.to, movementId: inRecord.id } };
  const written: TransferRecord = { ...t, ...fields, version: t.version + 1, updatedAt: now };
  // birds entering the receiving house: a warning (never a refusal) when they would put it above the stocking density limit
  const warnings = t.kind === 'birds' ? await densityWarnings(toCycle!, t.quantity!, date) : [];
  const response = { created: false, message: 'Transfer completed', data: toTransferDto(written), ...(warnings.length ? { warnings } : {}) };
  const ledger = {
    groups: [
      { ref: refOf(fromCycle!), changes: netChanges(effectsOf(out)) },
      { ref: refOf(toCycle!), changes: netChanges(effectsOf(into)) },
    ],
    puts: [outRecord, inRecord],
  };
  const steps = plan(fields, response, { movements: { out: outRecord.id, in: inRecord.id } });
  await refusedToConflict(commit(ctx, { ...steps, writes: [...steps.writes, ...ledgerWrites(ledger, now)] })).catch(named);
  await Promise.all([
    alarmsOnFlockData({ farmId: t.from.farmId, flockId: t.from.flockId! }, date),
    alarmsOnFlockData({ farmId: t.to.farmId, flockId: t.to.flockId! }, date),
  ]);
  return response;
}

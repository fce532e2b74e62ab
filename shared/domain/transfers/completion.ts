import { Conflict } from '../../errors.js';
import type { Caller } from '../caller.js';
import type { AuditEvent, RecordChange, ResourceChange } from '../decision.js';
import { effectsOf, movementProblems, netChanges } from '../ledger.js';
import { newMovement, refOf, type LedgerGroup, type MovementRecord } from '../movements/record.js';
import { latestAllowedDate } from '../weights.js';
import type { EndCycle } from './ends.js';
import { drawFromLots, type EggLot } from '../eggs/lots.js';
import { eggWindowsCovering, saleRefusal, type WithdrawalWindow } from '../compliance/withdrawals.js';
import { isLedgerKind, transferMovements } from './lifecycle.js';
import { transferFarmIds, type EquipmentLine, type TransferRecord } from './records.js';
import { stepOf } from './steps.js';
import type { MovementInput } from '../../../schemas/movements.js';
import type { TransferActionBody } from '../../../schemas/sharing.js';

/**
 * Completing a transfer (from `approved`, the sender unrestricted: judged before), decided without I/O:
 * both sides' movements with their ledger changes (birds, feed, eggs), locked, or the equipment register's
 * new holders; the transfer's step and the audit event.
 */

/** A cycle as a completion needs it, as read. */
export type CompletionCycle = EndCycle & { startDate: string; endDate: string | null };

export interface CompletionDecision<C extends CompletionCycle> {
  change: RecordChange<TransferRecord>;
  audit: AuditEvent[];
  changes: ResourceChange[];
  /** The movements and ledger changes of birds, feed or eggs. */
  ledger?: { groups: LedgerGroup[]; puts: MovementRecord[] };
  /** The pieces of equipment that change holder. */
  equipment?: EquipmentLine[];
  /** Birds entering the receiving cycle's house (for the density warnings). */
  placement?: { cycle: C; birds: number };
  /** The day the movements are dated. */
  date: string;
}

/** Eggs sent: the sending cycle's lots on hand, and its withdrawal revision and windows (read in that order). */
export interface EggsSent {
  lots: readonly EggLot[];
  withdrawalRev: number;
  windows: readonly WithdrawalWindow[];
}

/**
 * The lots eggs sent to another farm come from (the oldest on hand). Eggs laid inside an egg withdrawal
 * window never leave by a transfer (no override: the receiving farm would sell them as its own stock).
 */
function eggsLeaving(
  cycleId: string,
  out: { type: 'egg_transfer_out'; date: string; quantity: number; grade?: string | undefined; fromLots: undefined },
  eggs: EggsSent | undefined,
) {
  const draws = drawFromLots(out, cycleId, eggs?.lots ?? []);
  const covering = eggWindowsCovering(
    eggs?.windows ?? [],
    draws.map((d) => d.laidOn),
  );
  if (covering.length)
    throw new Conflict(
      `${saleRefusal({ type: 'egg_sale', date: out.date, fromLots: draws }, cycleId, covering).split('. Sell')[0]}. Eggs laid inside a withdrawal period cannot be sent to another farm; send eggs laid after it, or record these as egg_loss`,
    );
  return draws;
}

/** What a completion reads besides the transfer: the cycles of both ends, for birds, feed or eggs. */
export const completionReads = (t: TransferRecord) => (isLedgerKind(t.kind) ? { from: t.from, to: t.to } : undefined);

/** `cycles`: the ends' cycles as read (birds, feed, eggs). */
export function decideTransferCompletion<C extends CompletionCycle>(
  caller: Pick<Caller, 'id'>,
  t: TransferRecord,
  body: TransferActionBody,
  now: Date,
  cycles?: { from: C | undefined; to: C | undefined },
  eggs?: EggsSent,
): CompletionDecision<C> {
  const step = stepOf(caller, body, now);
  const at = step.at;
  // the transfer's own day when it names one (a past transfer recorded late), else the completion's
  const completionDay = at.slice(0, 10);
  const date = t.date ?? completionDay;
  const backDated = date < completionDay ? { date, backDated: true } : {};
  const base = { status: 'completed' as const, completed: step, completedDate: date };
  const outcome = (fields: Partial<TransferRecord>, audited: Record<string, unknown>) => {
    const next: TransferRecord = { ...t, ...fields, version: t.version + 1, updatedAt: at };
    const status = { from: t.status, to: 'completed' };
    return {
      change: { current: t, next, fields, changes: { status } } as RecordChange<TransferRecord>,
      audit: [{ action: 'transfer.complete', targetType: 'transfer', targetId: t.id, changes: { status, ...backDated, ...audited } }] as AuditEvent[],
      changes: [{ type: 'transfer', id: t.id, op: 'upsert', version: next.version, farmIds: transferFarmIds(t, next) }] satisfies ResourceChange[],
      date,
    };
  };
  if (!isLedgerKind(t.kind)) {
    const lines = t.items ?? [];
    return {
      ...outcome(base, { holders: lines.map((l) => ({ equipmentId: l.equipmentId, from: t.from.farmId, to: t.to.farmId })) }),
      equipment: lines,
    };
  }
  const fromCycle = cycles?.from;
  const toCycle = cycles?.to;
  for (const [side, cycle, end] of [
    ['from', fromCycle, t.from],
    ['to', toCycle, t.to],
  ] as const)
    if (cycle?.status !== 'active') throw new Conflict(`Cycle ${end.cycleId} of flock ${end.flockId} (${side}) is no longer active; cancel this transfer`);
  const [from, to] = [fromCycle!, toCycle!];
  const moves = transferMovements(
    {
      id: t.id,
      kind: t.kind,
      quantity: t.quantity!,
      feedType: t.feedType,
      grade: t.grade,
      unitCost: t.unitCost,
      from: { farmId: t.from.farmId, flockId: t.from.flockId!, cycleId: t.from.cycleId! },
      to: { farmId: t.to.farmId, flockId: t.to.flockId!, cycleId: t.to.cycleId! },
    },
    date,
  );
  // eggs leave with their origin: the sender's oldest lots, whose laying days the receiver's lots keep
  const fromLots = moves.out.type === 'egg_transfer_out' ? eggsLeaving(from.id, { ...moves.out, fromLots: undefined }, eggs) : undefined;
  const out = (fromLots ? { ...moves.out, fromLots } : moves.out) as MovementInput;
  const into = (fromLots ? { ...moves.in, fromLots } : moves.in) as MovementInput;
  const latest = latestAllowedDate(now);
  const problems = [
    ...movementProblems(out, from, latest).map((p) => `${t.from.cycleId}: ${p.field} ${p.message}`),
    ...movementProblems(into, to, latest).map((p) => `${t.to.cycleId}: ${p.field} ${p.message}`),
  ];
  if (problems.length) throw new Conflict(`The transfer's movements cannot be dated ${date} in their cycles (${problems.join('; ')})`);
  // locked: a transfer's movements change only with the transfer (unlocking is audited)
  const lock = { type: 'manual' as const, reason: `written by transfer ${t.id}`, at, by: caller.id };
  const outRecord: MovementRecord = { ...newMovement(out, refOf(from), caller.id, at), lock };
  const inRecord: MovementRecord = { ...newMovement(into, refOf(to), caller.id, at), lock };
  if (t.kind === 'birds') {
    // the pair points at each other, as recording a transfer between two flocks does
    outRecord.fields = { ...outRecord.fields, counterpartCycleId: to.id, counterpartMovementId: inRecord.id };
    inRecord.fields = { ...inRecord.fields, counterpartCycleId: from.id, counterpartMovementId: outRecord.id };
  }
  const fields = { ...base, from: { ...t.from, movementId: outRecord.id }, to: { ...t.to, movementId: inRecord.id } };
  return {
    ...outcome(fields, { movements: { out: outRecord.id, in: inRecord.id } }),
    ledger: {
      groups: [
        { ref: refOf(from), changes: netChanges(effectsOf(out)), ...(fromLots ? { withdrawalRev: eggs!.withdrawalRev } : {}) },
        { ref: refOf(to), changes: netChanges(effectsOf(into)) },
      ],
      puts: [outRecord, inRecord],
    },
    ...(t.kind === 'birds' ? { placement: { cycle: to, birds: t.quantity! } } : {}),
  };
}

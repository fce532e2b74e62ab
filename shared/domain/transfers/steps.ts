import { Conflict, Forbidden, ValidationFailed } from '../../errors.js';
import type { Caller } from '../caller.js';
import type { AuditEvent, RecordChange, ResourceChange } from '../decision.js';
import { canAccessFarm } from '../farm-access.js';
import { activeEnd, flockOfFarm, type EndFacts } from './ends.js';
import { ACTING_SIDE, isLedgerKind, maySideAct, transferTransition } from './lifecycle.js';
import { transferFarmIds, type TransferEndRecord, type TransferRecord, type TransferStep } from './records.js';
import type { ApproveTransferBody, TransferAction, TransferActionBody, TransferStatus } from '../../../schemas/sharing.js';

/**
 * The lifecycle's steps, decided without I/O: who may take one (the side of the transfer, else 403), the
 * legal moves (else a 409 naming the status), the receiving end chosen at approval, and the step's record
 * and audit event. Completion: completion.ts.
 */

const SIDE_WORDS = { from: 'the sending farm', to: 'the receiving farm', either: 'either farm' } as const;
const STEP_FIELD = { approved: 'approved', rejected: 'rejected', cancelled: 'cancelled', completed: 'completed' } as const;

/** The caller is of the side that takes the step (judged before anything else of the request). */
export function judgeActingSide(caller: Pick<Caller, 'allFarms' | 'farmIds'>, t: TransferRecord, action: TransferAction): void {
  if (maySideAct(action, { from: canAccessFarm(caller, t.from.farmId), to: canAccessFarm(caller, t.to.farmId) })) return;
  const side = ACTING_SIDE[action];
  const farm = side === 'to' ? t.to.farmId : t.from.farmId;
  throw new Forbidden(`Only a user of ${SIDE_WORDS[side]} (${farm}) may ${action} transfer ${t.id}`);
}

/** The status the action moves the transfer to; an illegal move is a Conflict naming the status. */
export function transferMove(t: TransferRecord, action: TransferAction): TransferStatus {
  const move = transferTransition(t.status, action);
  if ('refused' in move) throw new Conflict(move.refused);
  return move.to;
}

/** The step's stamp: when, by whom, with the caller's note. */
export const stepOf = (caller: Pick<Caller, 'id'>, body: TransferActionBody, now: Date): TransferStep => ({
  at: now.toISOString(),
  by: caller.id,
  note: body.note?.trim() ?? null,
});

/** What an approval reads: the receiving flock (the one named, else the one proposed) and its cycle, for a legal approval of birds, feed or eggs. */
export function approvalReads(
  t: TransferRecord,
  action: TransferAction,
  body: ApproveTransferBody,
): { flockId: string | undefined; cycleId?: string } | undefined {
  if (action !== 'approve' || !isLedgerKind(t.kind) || 'refused' in transferTransition(t.status, action)) return undefined;
  return { flockId: body.flockId ?? t.to.flockId ?? undefined, ...(body.cycleId ? { cycleId: body.cycleId } : {}) };
}

/**
 * The receiving end, chosen at approval by a user of the receiving farm: the flock named (else the one the
 * sender proposed, when it is a flock of this farm) and its cycle (named, else its active one), active.
 */
function approvedEnd(t: TransferRecord, body: ApproveTransferBody, found: EndFacts | undefined): TransferEndRecord | undefined {
  if (!isLedgerKind(t.kind)) {
    const extra = (['flockId', 'cycleId'] as const).filter((k) => body[k] !== undefined);
    if (extra.length) throw new ValidationFailed(extra.map((field) => ({ field, message: 'is only for birds, feed and eggs (equipment goes to the farm)' })));
    return undefined;
  }
  const farmId = t.to.farmId;
  let flock = body.flockId ? flockOfFarm(farmId, body.flockId, found?.flock) : undefined;
  if (!flock) {
    const proposed = t.to.flockId ? found?.flock : undefined;
    if (proposed?.farmId !== farmId)
      throw new ValidationFailed([
        {
          field: 'flockId',
          message: `is required: the flock of farm ${farmId} whose cycle receives the ${t.kind}${t.to.flockId ? ` (the flock proposed, ${t.to.flockId}, is not one of this farm)` : ''}`,
        },
      ]);
    flock = proposed;
  }
  return activeEnd(farmId, flock, body.cycleId, found?.cycle, { none: 'start one or choose another flock', closed: 'choose an active cycle' });
}

/**
 * approve, reject or cancel (the side and the version already judged): the step, the receiving end of an
 * approval (`receiving`: what `approvalReads` named, as read), the audit event.
 */
export function decideTransferStep(
  caller: Pick<Caller, 'id'>,
  t: TransferRecord,
  action: Exclude<TransferAction, 'complete'>,
  body: TransferActionBody | ApproveTransferBody,
  now: Date,
  receiving: EndFacts | undefined,
) {
  const to = transferMove(t, action);
  const step = stepOf(caller, body, now);
  const end = action === 'approve' ? approvedEnd(t, body, receiving) : undefined;
  const fields: Partial<TransferRecord> = { status: to, [STEP_FIELD[to as keyof typeof STEP_FIELD]]: step, ...(end ? { to: end } : {}) };
  const next: TransferRecord = { ...t, ...fields, version: t.version + 1, updatedAt: step.at };
  const status = { from: t.status, to };
  const moved: Record<string, { from: unknown; to: unknown }> = end ? { to: { from: t.to, to: end } } : {};
  const change: RecordChange<TransferRecord> = { current: t, next, fields, changes: { status, ...moved } };
  const audit: AuditEvent[] = [{ action: `transfer.${action}`, targetType: 'transfer', targetId: t.id, changes: { status, note: step.note, ...moved } }];
  const resources: ResourceChange[] = [{ type: 'transfer', id: t.id, op: 'upsert', version: next.version, farmIds: transferFarmIds(t, next) }];
  return { change, audit, changes: resources };
}

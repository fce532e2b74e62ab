import { ulid } from 'ulidx';
import { ValidationFailed } from '../../errors.js';
import { latestAllowedDate } from '../weights.js';
import type { Caller } from '../caller.js';
import type { AuditEvent, ResourceChange } from '../decision.js';
import { equipmentNotFound } from '../references.js';
import { activeEnd, flockOfFarm, type EndFacts } from './ends.js';
import { isLedgerKind, transferProblems } from './lifecycle.js';
import {
  FarmRestricted,
  transferAnswer,
  transferFarmIds,
  type EquipmentFacts,
  type EquipmentLine,
  type TransferEndRecord,
  type TransferRecord,
} from './records.js';
import type { CreateTransferBody } from '../../../schemas/sharing.js';

/**
 * Requesting a transfer, decided without I/O, in the order a client meets the checks: what the request
 * must hold for its kind, the sender's restriction, the sending end (or the pieces of equipment), then the
 * new transfer and its audit event.
 */

/** What the schema cannot say of a request (the fields of its kind, two farms). */
export function judgeTransferRequest(body: CreateTransferBody): void {
  const problems = transferProblems(body);
  if (problems.length) throw new ValidationFailed(problems);
}

/** The transfer's own day is not in the future (the latest day any movement may take: ../weights.ts). */
export function judgeTransferDate(body: Pick<CreateTransferBody, 'date'>, now: Date): void {
  const latest = latestAllowedDate(now);
  if (body.date !== undefined && body.date > latest)
    throw new ValidationFailed([{ field: 'date', message: `${body.date} is in the future (latest ${latest}): a transfer is recorded once it took place` }]);
}

/** A farm under a movement restriction sends nothing: refused, naming its incidents. */
export function judgeSender(farmId: string, restrictions: readonly string[]): void {
  if (restrictions.length) throw new FarmRestricted(farmId, [...restrictions]);
}

/**
 * The receiving end as requested: the farm, and the flock the sender proposes there, both kept as given and
 * never looked up (a request answers alike for a real and a made-up one); the cycle is the approver's choice.
 */
const requestedEnd = (end: CreateTransferBody['to'], ledger: boolean): TransferEndRecord => ({
  farmId: end.farmId,
  flockId: ledger ? (end.flockId ?? null) : null,
  cycleId: null,
  movementId: null,
});

/** The registered pieces a request names (read from the register). */
export const requestedEquipmentIds = (body: CreateTransferBody): string[] => (body.items ?? []).flatMap((i) => (i.equipmentId ? [i.equipmentId] : []));

/** The pieces of equipment: registered ones must be held by the sender (one it neither holds nor owns is a missing one); named ones get their register id now (registered on completion). */
function equipmentLines(fromFarmId: string, items: NonNullable<CreateTransferBody['items']>, register: readonly EquipmentFacts[]): EquipmentLine[] {
  const registered = new Map(register.map((e) => [e.id, e]));
  const problems: { field: string; message: string }[] = [];
  const lines = items.map((item, i): EquipmentLine => {
    if (!item.equipmentId) return { equipmentId: ulid(), name: item.name!.trim(), serial: item.serial?.trim() ?? null, registers: true };
    const piece = registered.get(item.equipmentId);
    if (piece?.holderFarmId !== fromFarmId && piece?.ownerFarmId !== fromFarmId) throw equipmentNotFound(item.equipmentId);
    if (piece.holderFarmId !== fromFarmId) problems.push({ field: `items.${i}.equipmentId`, message: `is not held by farm ${fromFarmId} (it is lent out)` });
    return { equipmentId: item.equipmentId, name: piece.name, serial: piece.serial, registers: false };
  });
  if (problems.length) throw new ValidationFailed(problems);
  return lines;
}

export interface RequestFacts {
  /** A ledger transfer: the sending flock and its cycle (named, else active), as read. */
  sender?: EndFacts | undefined;
  /** An equipment transfer: the registered pieces it names, as read. */
  register?: readonly EquipmentFacts[] | undefined;
}

/** The new transfer (requested), once the request and the sender were judged. */
export function decideTransferRequest(caller: Pick<Caller, 'id'>, body: CreateTransferBody, facts: RequestFacts, now: Date) {
  const ledger = isLedgerKind(body.kind);
  const from: TransferEndRecord = ledger
    ? activeEnd(body.from.farmId, flockOfFarm(body.from.farmId, body.from.flockId!, facts.sender?.flock), body.from.cycleId, facts.sender?.cycle, {
        none: 'birds, feed and eggs are sent from an active cycle',
        closed: 'birds, feed and eggs are sent from an active cycle',
      })
    : { farmId: body.from.farmId, flockId: null, cycleId: null, movementId: null };
  const at = now.toISOString();
  const transfer: TransferRecord = {
    id: ulid(),
    kind: body.kind,
    status: 'requested',
    from,
    to: requestedEnd(body.to, ledger),
    quantity: body.quantity ?? null,
    feedType: body.feedType?.trim() ?? null,
    grade: body.grade ?? null,
    unitCost: body.unitCost ?? null,
    items: body.items ? equipmentLines(body.from.farmId, body.items, facts.register ?? []) : null,
    notes: body.notes?.trim() ?? null,
    requestedBy: caller.id,
    approved: null,
    rejected: null,
    cancelled: null,
    completed: null,
    completedDate: null,
    date: body.date ?? null,
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
  const audit: AuditEvent[] = [{ action: 'transfer.request', targetType: 'transfer', targetId: transfer.id, changes: transferAnswer(transfer) }];
  const changes: ResourceChange[] = [{ type: 'transfer', id: transfer.id, op: 'upsert', version: 1, farmIds: transferFarmIds(transfer) }];
  return { transfer, audit, changes };
}

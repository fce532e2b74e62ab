import { ulid } from 'ulidx';
import { auditPut } from '../db/audit.js';
import { getCycle } from '../db/cycles.js';
import { getFlock, type FlockRecord } from '../db/flocks.js';
import { LedgerRefused, applyLedger, type MovementRecord } from '../db/movements.js';
import {
  FarmRestricted,
  completeEquipmentTransfer,
  createTransfer,
  equipmentMove,
  equipmentNotFound,
  getEquipment,
  getTransfer,
  listEquipmentOfFarm,
  listTransfersOfFarm,
  restrictionsOf,
  transferNotFound,
  transferUpdate,
  unrestricted,
  updateTransfer,
  type EquipmentLine,
  type TransferEndRecord,
  type TransferRecord,
  type TransferStep,
} from '../db/transfers.js';
import type { Caller } from '../domain/caller.js';
import { expectedVersion, type Precondition } from '../domain/concurrency.js';
import { canAccessFarm } from '../domain/farm-access.js';
import { effectsOf, movementProblems, netChanges } from '../domain/ledger.js';
import { ACTING_SIDE, isLedgerKind, maySideAct, transferMovements, transferProblems, transferTransition } from '../domain/transfers.js';
import { latestAllowedDate } from '../domain/weights.js';
import { Conflict, DuplicateRequest, Forbidden, ValidationFailed } from '../errors.js';
import { farmOfRequest } from './farms.js';
import { idempotent } from './idempotency.js';
import { densityWarnings } from './density-warnings.js';
import { record, refOf, refusedToConflict } from './movements.js';
import { alarmsOnFlockData } from './new-data.js';
import { cycleOfFlock, flockOfFarm } from './references.js';
import type { MovementInput } from '../../schemas/movements.js';
import type {
  ApproveTransferBody,
  CreateTransferBody,
  ListEquipmentQuery,
  ListTransfersQuery,
  TransferAction,
  TransferActionBody,
} from '../../schemas/sharing.js';

/**
 * Transfers between farms (`/api/v1/sharing`): the sending farm requests, the receiving farm approves
 * (or rejects), the sender may cancel until completion, and either side completes. Completion is ONE
 * transaction: the transfer's status (from `approved`, at its version), the sender's restriction flag,
 * and both sides' movements with their balances (birds, feed, eggs) or the equipment register's holders.
 * A transfer is visible to the users of either farm; to anyone else it does not exist.
 */

export function toTransferDto(t: TransferRecord) {
  return {
    id: t.id,
    kind: t.kind,
    status: t.status,
    from: t.from,
    to: t.to,
    quantity: t.quantity,
    feedType: t.feedType,
    items: t.items?.map(({ equipmentId, name, serial }) => ({ equipmentId, name, serial })) ?? null,
    notes: t.notes,
    requestedBy: t.requestedBy,
    approved: t.approved,
    rejected: t.rejected,
    cancelled: t.cancelled,
    completed: t.completed,
    completedDate: t.completedDate,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    version: t.version,
  };
}

const sides = (user: Caller, t: TransferRecord) => ({ from: canAccessFarm(user, t.from.farmId), to: canAccessFarm(user, t.to.farmId) });

async function visibleTransfer(user: Caller, id: string): Promise<TransferRecord> {
  const t = await getTransfer(id);
  if (!t) throw transferNotFound(id);
  const s = sides(user, t);
  if (!s.from && !s.to) throw transferNotFound(id);
  return t;
}

export const transferFor = async (user: Caller, id: string) => toTransferDto(await visibleTransfer(user, id));

export async function listTransfersFor(user: Caller, query: ListTransfersQuery) {
  const farmId = farmOfRequest(user, query.farmId);
  const limit = query.limit ?? 25;
  const page = await listTransfersOfFarm(farmId, query.direction ?? 'both', query.status, { limit, cursor: query.cursor });
  return { items: page.items.map(toTransferDto), limit, nextCursor: page.nextCursor };
}

/** The equipment register of a farm: what it holds now, or what it owns wherever it is. */
export async function listEquipmentFor(user: Caller, query: ListEquipmentQuery) {
  const farmId = farmOfRequest(user, query.farmId);
  const limit = query.limit ?? 25;
  const page = await listEquipmentOfFarm(farmId, query.side ?? 'held', { limit, cursor: query.cursor });
  return { items: page.items.map((e) => ({ ...e, lentOut: e.ownerFarmId !== e.holderFarmId })), limit, nextCursor: page.nextCursor };
}

/** The refusal of a restricted sender, naming its incidents (read again when a transaction's check found the flag set). */
async function restricted(farmId: string, known: string[] = []): Promise<FarmRestricted> {
  return new FarmRestricted(farmId, known.length ? known : await restrictionsOf(farmId));
}

/**
 * The sending end of a ledger transfer: a flock of the sending farm (the caller's) and its cycle (given, else
 * its active one), active now. A flock or cycle of another farm is a missing one (404).
 */
async function sendingEnd(end: CreateTransferBody['from']): Promise<TransferEndRecord> {
  const flock = await flockOfFarm(end.farmId, end.flockId!);
  const cycleId = end.cycleId ?? flock.activeCycleId;
  if (!cycleId) throw new Conflict(`Flock ${flock.id} has no active cycle; birds, feed and eggs are sent from an active cycle`);
  const cycle = await cycleOfFlock(flock, cycleId);
  if (cycle.status !== 'active') throw new Conflict(`Cycle ${cycleId} of flock ${flock.id} is closed; birds, feed and eggs are sent from an active cycle`);
  return { farmId: end.farmId, flockId: flock.id, cycleId, movementId: null };
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

/** The pieces of equipment: registered ones must be held by the sender (one it neither holds nor owns is a missing one); named ones get their register id now (registered on completion). */
async function equipmentLines(fromFarmId: string, items: NonNullable<CreateTransferBody['items']>): Promise<EquipmentLine[]> {
  const registered = new Map((await getEquipment(items.flatMap((i) => (i.equipmentId ? [i.equipmentId] : [])))).map((e) => [e.id, e]));
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

/** Requests a transfer (the caller is a user of the sending farm); a restricted sender is refused, naming the incident. */
export async function requestTransfer(user: Caller, body: CreateTransferBody, requestId: string, idempotencyKey?: string) {
  const fromFarmId = farmOfRequest(user, body.from.farmId);
  return idempotent(user.id, idempotencyKey, `transfer:${fromFarmId}`, body, async (remember) => {
    const problems = transferProblems(body);
    if (problems.length) throw new ValidationFailed(problems);
    const restrictions = await restrictionsOf(fromFarmId);
    if (restrictions.length) throw await restricted(fromFarmId, restrictions);
    const ledger = isLedgerKind(body.kind);
    const from = ledger ? await sendingEnd(body.from) : { farmId: body.from.farmId, flockId: null, cycleId: null, movementId: null };
    const to = requestedEnd(body.to, ledger);
    const now = new Date().toISOString();
    const transfer: TransferRecord = {
      id: ulid(),
      kind: body.kind,
      status: 'requested',
      from,
      to,
      quantity: body.quantity ?? null,
      feedType: body.feedType?.trim() ?? null,
      items: body.items ? await equipmentLines(fromFarmId, body.items) : null,
      notes: body.notes?.trim() ?? null,
      requestedBy: user.id,
      approved: null,
      rejected: null,
      cancelled: null,
      completed: null,
      completedDate: null,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    const answer = { created: true, message: 'Transfer requested', data: toTransferDto(transfer) };
    try {
      await createTransfer(transfer, [
        ...remember(answer),
        auditPut({ actorId: user.id, action: 'transfer.request', targetType: 'transfer', targetId: transfer.id, changes: toTransferDto(transfer), requestId }),
      ]);
    } catch (err) {
      if (err instanceof FarmRestricted) throw await restricted(fromFarmId);
      throw err;
    }
    return answer;
  });
}

const ACTION_WORDS: Record<TransferAction, string> = {
  approve: 'approve',
  reject: 'reject',
  cancel: 'cancel',
  complete: 'complete',
};
const SIDE_WORDS = { from: 'the sending farm', to: 'the receiving farm', either: 'either farm' } as const;
const STEP_FIELD = { approved: 'approved', rejected: 'rejected', cancelled: 'cancelled', completed: 'completed' } as const;

/** The transfer's status was changed by another request meanwhile: name the status it has now. */
class TransferLost extends Conflict {}
async function lostRace(id: string): Promise<Conflict> {
  const now = await getTransfer(id);
  return new Conflict(`Transfer ${id} was changed concurrently; it is now ${now?.status ?? 'gone'} (version ${now?.version ?? '-'})`);
}

/**
 * approve, reject, cancel or complete: the caller must be of the side that takes the step (else 403), at
 * the version read (If-Match → 412, body `version` → 409); an illegal move is a 409 naming the status; an
 * Idempotency-Key replays the first answer.
 */
export async function actOnTransfer(
  user: Caller,
  id: string,
  action: TransferAction,
  body: TransferActionBody | ApproveTransferBody,
  precondition: Precondition | undefined,
  requestId: string,
  idempotencyKey?: string,
) {
  const current = await visibleTransfer(user, id);
  return idempotent(user.id, idempotencyKey, `transfer:${id}:${action}`, body, async (remember) => {
    if (!maySideAct(action, sides(user, current))) {
      const side = ACTING_SIDE[action];
      const farm = side === 'to' ? current.to.farmId : current.from.farmId;
      throw new Forbidden(`Only a user of ${SIDE_WORDS[side]} (${farm}) may ${ACTION_WORDS[action]} transfer ${id}`);
    }
    const version = expectedVersion(current.version, { precondition, stated: body.version }, `Transfer ${id}`);
    const move = transferTransition(current.status, action);
    if ('refused' in move) throw new Conflict(move.refused);
    const now = new Date().toISOString();
    const step: TransferStep = { at: now, by: user.id, note: body.note?.trim() ?? null };
    const stepField = STEP_FIELD[move.to as keyof typeof STEP_FIELD];
    const audit = (changes: Record<string, unknown>) =>
      auditPut({ actorId: user.id, action: `transfer.${action}`, targetType: 'transfer', targetId: id, changes, requestId });
    if (action === 'complete') return complete(user, current, version, step, remember, audit);
    const receiving = action === 'approve' ? await approvedEnd(current, body) : undefined;
    const fields: Partial<TransferRecord> = { status: move.to, [stepField]: step, ...(receiving ? { to: receiving } : {}) };
    const written: TransferRecord = { ...current, ...fields, version: version + 1, updatedAt: now };
    const answer = { created: false, message: `Transfer ${move.to}`, data: toTransferDto(written) };
    try {
      await updateTransfer(
        transferUpdate(current, version, fields, now),
        [
          ...remember(answer),
          audit({ status: { from: current.status, to: move.to }, note: step.note, ...(receiving ? { to: { from: current.to, to: receiving } } : {}) }),
        ],
        () => new TransferLost(''),
      );
    } catch (err) {
      throw err instanceof TransferLost ? await lostRace(id) : err;
    }
    return answer;
  });
}

type Remember = Parameters<Parameters<typeof idempotent>[4]>[0];

/** Completion: everything in ONE transaction, the transfer's update first (a lost race is named before a balance). */
async function complete(
  user: Caller,
  t: TransferRecord,
  version: number,
  step: TransferStep,
  remember: Remember,
  audit: (changes: Record<string, unknown>) => ReturnType<typeof auditPut>,
) {
  const restrictions = await restrictionsOf(t.from.farmId);
  if (restrictions.length) throw await restricted(t.from.farmId, restrictions);
  const now = step.at;
  const date = now.slice(0, 10);
  const base = { status: 'completed' as const, completed: step, completedDate: date };
  const onFailed = async (err: unknown): Promise<never> => {
    if (err instanceof TransferLost) throw await lostRace(t.id);
    if (err instanceof FarmRestricted) throw await restricted(t.from.farmId);
    throw err;
  };
  if (!isLedgerKind(t.kind)) {
    const written: TransferRecord = { ...t, ...base, version: version + 1, updatedAt: now };
    const answer = { created: false, message: 'Transfer completed', data: toTransferDto(written) };
    const lines = t.items ?? [];
    const items = [
      transferUpdate(t, version, base, now),
      unrestricted(t.from.farmId),
      ...lines.map((l) => equipmentMove(l, t.from.farmId, t.to.farmId, now)),
      ...remember(answer),
      audit({ status: { from: t.status, to: 'completed' }, holders: lines.map((l) => ({ equipmentId: l.equipmentId, from: t.from.farmId, to: t.to.farmId })) }),
    ];
    await completeEquipmentTransfer(items, (i) => {
      if (i === 0) return new TransferLost('');
      if (i === 1) return new FarmRestricted(t.from.farmId, []);
      const line = lines[i - 2];
      if (line)
        return new Conflict(
          line.registers ? `Equipment ${line.equipmentId} is already registered` : `Equipment ${line.equipmentId} is no longer held by farm ${t.from.farmId}`,
        );
      return new DuplicateRequest();
    }).catch(onFailed);
    return answer;
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
    ...movementProblems(out, fromCycle!, latestAllowedDate(new Date())).map((p) => `${t.from.cycleId}: ${p.field} ${p.message}`),
    ...movementProblems(into, toCycle!, latestAllowedDate(new Date())).map((p) => `${t.to.cycleId}: ${p.field} ${p.message}`),
  ];
  if (problems.length) throw new Conflict(`The transfer's movements cannot be dated ${date} in their cycles (${problems.join('; ')})`);
  // locked: a transfer's movements change only with the transfer (unlocking is audited)
  const lock = { type: 'manual' as const, reason: `written by transfer ${t.id}`, at: now, by: user.id };
  const outRecord: MovementRecord = { ...record(out, refOf(fromCycle!), user.id, now), lock };
  const inRecord: MovementRecord = { ...record(into, refOf(toCycle!), user.id, now), lock };
  if (t.kind === 'birds') {
    // the pair points at each other, as createMovementFor writes a flock-to-flock transfer
    outRecord.fields = { ...outRecord.fields, counterpartCycleId: toCycle!.id, counterpartMovementId: inRecord.id };
    inRecord.fields = { ...inRecord.fields, counterpartCycleId: fromCycle!.id, counterpartMovementId: outRecord.id };
  }
  const fields = { ...base, from: { ...t.from, movementId: outRecord.id }, to: { ...t.to, movementId: inRecord.id } };
  const written: TransferRecord = { ...t, ...fields, version: version + 1, updatedAt: now };
  // birds entering the receiving house: a warning (never a refusal) when they would put it above the stocking density limit
  const warnings = t.kind === 'birds' ? await densityWarnings(toCycle!, t.quantity!, date) : [];
  const answer = { created: false, message: 'Transfer completed', data: toTransferDto(written), ...(warnings.length ? { warnings } : {}) };
  const extra = [
    transferUpdate(t, version, fields, now),
    unrestricted(t.from.farmId),
    ...remember(answer),
    audit({ status: { from: t.status, to: 'completed' }, movements: { out: outRecord.id, in: inRecord.id } }),
  ];
  await refusedToConflict(
    applyLedger({
      groups: [
        { ref: refOf(fromCycle!), changes: netChanges(effectsOf(out)) },
        { ref: refOf(toCycle!), changes: netChanges(effectsOf(into)) },
      ],
      puts: [outRecord, inRecord],
      extra,
      onExtraFailed: (i) => (i === 0 ? new TransferLost('') : i === 1 ? new FarmRestricted(t.from.farmId, []) : new DuplicateRequest()),
    }),
  ).catch(onFailed);
  await Promise.all([
    alarmsOnFlockData({ farmId: t.from.farmId, flockId: t.from.flockId! }, date),
    alarmsOnFlockData({ farmId: t.to.farmId, flockId: t.to.flockId! }, date),
  ]);
  return answer;
}

export { LedgerRefused };

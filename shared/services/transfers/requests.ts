import { ulid } from 'ulidx';
import { commit } from '../../db/commit.js';
import {
  equipmentNotFound,
  FarmRestricted,
  getEquipment,
  restrictionsOf,
  transferCreate,
  type EquipmentLine,
  type TransferEndRecord,
  type TransferRecord,
} from '../../db/transfers.js';
import type { CommandContext } from '../../domain/command.js';
import { isLedgerKind, transferProblems } from '../../domain/transfers.js';
import { Conflict, ValidationFailed } from '../../errors.js';
import { farmOfRequest } from '../farms.js';
import { idempotentCommand } from '../idempotency.js';
import { cycleOfFlock, flockOfFarm } from '../references.js';
import { restricted, toTransferDto } from './reads.js';
import type { CreateTransferBody } from '../../../schemas/sharing.js';

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
export async function requestTransfer(ctx: CommandContext, body: CreateTransferBody) {
  const fromFarmId = farmOfRequest(ctx.caller, body.from.farmId);
  return idempotentCommand(ctx, `transfer:${fromFarmId}`, body, async (ctx) => {
    const problems = transferProblems(body);
    if (problems.length) throw new ValidationFailed(problems);
    const restrictions = await restrictionsOf(fromFarmId);
    if (restrictions.length) throw await restricted(fromFarmId, restrictions);
    const ledger = isLedgerKind(body.kind);
    const from = ledger ? await sendingEnd(body.from) : { farmId: body.from.farmId, flockId: null, cycleId: null, movementId: null };
    const to = requestedEnd(body.to, ledger);
    const now = ctx.now.toISOString();
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
      requestedBy: ctx.caller.id,
      approved: null,
      rejected: null,
      cancelled: null,
      completed: null,
      completedDate: null,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    const response = { created: true, message: 'Transfer requested', data: toTransferDto(transfer) };
    try {
      await commit(ctx, {
        writes: transferCreate(transfer),
        audit: [{ action: 'transfer.request', targetType: 'transfer', targetId: transfer.id, changes: toTransferDto(transfer) }],
        changes: [{ type: 'transfer', id: transfer.id, op: 'upsert', version: 1 }],
        response,
      });
    } catch (err) {
      // the restriction check failed: an incident was opened after the read above; name it
      if (err instanceof FarmRestricted) throw await restricted(fromFarmId);
      throw err;
    }
    return response;
  });
}

import { ulid } from 'ulidx';
import { getFlock } from '../../db/flocks.js';
import { ledgerWrites, type LedgerGroup, type MovementRecord } from '../../db/movements.js';
import { commit } from '../../db/commit.js';
import { orderVersion, orderWrites, receiptWrite } from '../../db/procurement.js';
import type { OrderRecord, ReceiptLineRecord, ReceiptRecord } from '../../domain/procurement/records.js';
import type { Caller } from '../../domain/caller.js';
import type { CommandContext } from '../../domain/command.js';
import { visibleTo } from '../../domain/farm-access.js';
import { effectsOf, movementProblems, netChanges, type Delta } from '../../domain/ledger.js';
import { latestAllowedDate } from '../../domain/weights.js';
import type { FeedDeliveryFact } from '../../domain/analytics/suppliers.js';
import { applyReceipt, outstanding, receivable } from '../../domain/procurement/orders.js';
import { Conflict, ValidationFailed, type FieldError } from '../../errors.js';
import { scopedCycle } from '../flocks/cycles.js';
import { densityWarnings } from '../compliance/density-warnings.js';
import { idempotentCommand } from '../idempotency.js';
import { newMovement, refOf } from '../../domain/movements/record.js';
import { refusedToConflict } from '../movements/answers.js';
import { alarmsOnFlockData } from '../new-data.js';
import { flockNotFound } from '../references.js';
import { farmDate, toOrderDto, toReceiptDto, visibleOrder } from './orders.js';
import type { MedicineUnit, MovementInput } from '../../../schemas/movements.js';
import { birdInflowMovementBody, feedDeliveryMovementBody, medicineDeliveryMovementBody } from '../../../schemas/compiled/service-movements.js';
import { problemsOf } from '../../../schemas/problems.js';
import type { CreateReceiptBody } from '../../../schemas/procurement.js';

/**
 * Receipts (`POST /api/v1/procurement/orders/{orderId}/receipts`): goods received on a placed order write
 * the ledger (feed_delivery with the supplier facts, bird_inflow, medicine_delivery) in the same
 * transaction as the receipt and the order's received quantities and status.
 */

/** The FeedDeliveryFact of a feed_delivery input, exactly as the analytics reads it back from the movement's DELIVERY# copy. */
function factOf(input: Extract<MovementInput, { type: 'feed_delivery' }>): FeedDeliveryFact {
  return {
    date: input.date,
    supplierId: input.supplierId ?? null,
    feedType: input.feedType,
    quantityKg: input.quantityKg,
    orderedDate: input.orderedDate ?? null,
    expectedDate: input.expectedDate ?? null,
    orderedQuantityKg: input.orderedQuantityKg ?? null,
    qualityIssues: input.qualityIssues ?? null,
    unitPrice: input.unitPrice ?? null,
  };
}

/** The active cycle of a flock of the order's farm (feed and chicks are recorded on it). */
async function targetCycle(user: Caller, farmId: string, flockId: string, field: string) {
  const flock = visibleTo(user, await getFlock(flockId), () => flockNotFound(flockId));
  // a flock of another of the caller's farms is not one this order delivers to
  if (flock.farmId !== farmId) throw flockNotFound(flockId);
  if (!flock.activeCycleId) throw new ValidationFailed([{ field, message: `flock ${flockId} has no active cycle` }]);
  return scopedCycle(user, flock.id, flock.activeCycleId);
}

/**
 * Receives goods on a placed order: the received quantities (refused past the ordered quantity unless the
 * order allows over-delivery), the receipt, the ledger movements (feed_delivery with the supplier facts on
 * the named flock's active cycle, bird_inflow for chicks; vaccines, medication and equipment have no stock
 * in the ledger) and the audit entry, in ONE transaction conditioned on the order's version. With an
 * Idempotency-Key a retry (also a concurrent one) gets the first answer and writes nothing.
 */
export async function receiveOrder(ctx: CommandContext, orderId: string, body: CreateReceiptBody) {
  await visibleOrder(ctx.caller, orderId);
  return idempotentCommand(ctx, `receipt:${orderId}`, body, (ctx) => receive(ctx, orderId, body));
}

/** A receipt's movements, each checked with its type's own schema. */
const RECEIPT_MOVEMENT_BODIES = {
  feed_delivery: feedDeliveryMovementBody,
  bird_inflow: birdInflowMovementBody,
  medicine_delivery: medicineDeliveryMovementBody,
} as const;

type ReceiptInput = Extract<MovementInput, { type: keyof typeof RECEIPT_MOVEMENT_BODIES }>;

/** The movement a line of a receipt writes (feed, chicks, vaccines or medication). */
function movementOf(
  order: OrderRecord,
  line: OrderRecord['lines'][number],
  r: CreateReceiptBody['lines'][number],
  date: string,
  orderedDate: string,
): ReceiptInput {
  const left = outstanding(line);
  if (line.itemKind === 'feed')
    return {
      type: 'feed_delivery',
      date,
      feedType: line.feedType!,
      quantityKg: r.quantity,
      supplierId: order.supplierId,
      orderId: order.id,
      orderedDate,
      expectedDate: order.expectedDate,
      ...(left > 0 ? { orderedQuantityKg: left } : {}),
      ...(r.qualityIssues?.length ? { qualityIssues: r.qualityIssues } : {}),
      unitPrice: line.unitPrice,
      ...(r.lotNumber ? { lotNumber: r.lotNumber } : {}),
    };
  if (line.itemKind === 'chicks') return { type: 'bird_inflow', date, quantity: r.quantity, supplierId: order.supplierId, unitCost: line.unitPrice };
  return {
    type: 'medicine_delivery',
    date,
    product: line.product!,
    quantity: r.quantity,
    unit: line.unit as MedicineUnit,
    supplierId: order.supplierId,
    orderId: order.id,
    unitPrice: line.unitPrice,
    ...(r.lotNumber ? { lotNumber: r.lotNumber } : {}),
  };
}

async function receive(ctx: CommandContext, orderId: string, body: CreateReceiptBody) {
  const { caller } = ctx;
  const { order } = await visibleOrder(caller, orderId);
  if (!receivable(order.status))
    throw new Conflict(`Purchase order ${orderId} is ${order.status}; goods are received on an ordered or partially received order`);
  const applied = applyReceipt(order.lines, body.lines, order.allowOverDelivery);
  if ('problems' in applied) throw new ValidationFailed(applied.problems);
  const now = ctx.now.toISOString();
  const receiptId = ulid();
  const latest = latestAllowedDate(ctx.now);
  const orderedDate = await farmDate(order.farmId, order.orderedAt!);
  if (body.date < orderedDate) throw new ValidationFailed([{ field: 'date', message: `must not be before the order was placed (${orderedDate})` }]);
  if (body.date > latest) throw new ValidationFailed([{ field: 'date', message: 'must not be in the future' }]);
  const problems: FieldError[] = [];
  const movements: MovementRecord[] = [];
  const deltas = new Map<string, { ref: LedgerGroup['ref']; deltas: Delta[] }>();
  const facts: FeedDeliveryFact[] = [];
  const lines: ReceiptLineRecord[] = [];
  const flocks = new Set<string>();
  /** Chicks placed per cycle (the stocking density they lead to is checked once all lines are read). */
  const placed = new Map<string, { cycle: Awaited<ReturnType<typeof targetCycle>>; birds: number }>();
  for (const [i, r] of body.lines.entries()) {
    const line = order.lines.find((l) => l.id === r.lineId)!;
    const base = { lineId: r.lineId, quantity: r.quantity, lotNumber: r.lotNumber ?? null, qualityIssues: r.qualityIssues ?? [] };
    if (line.itemKind === 'equipment') {
      if (r.flockId) problems.push({ field: `lines.${i}.flockId`, message: 'is not for equipment lines (equipment has no stock in the ledger)' });
      lines.push({ ...base, flockId: null, cycleId: null, movementId: null });
      continue;
    }
    if (!r.flockId) {
      problems.push({ field: `lines.${i}.flockId`, message: `is required for a ${line.itemKind} line: the flock whose active cycle records it` });
      continue;
    }
    const cycle = await targetCycle(caller, order.farmId, r.flockId, `lines.${i}.flockId`);
    const input = movementOf(order, line, r, body.date, orderedDate);
    const found = [...problemsOf(RECEIPT_MOVEMENT_BODIES[input.type], input), ...movementProblems(input, cycle, latest)];
    problems.push(...found.map((p) => ({ field: `lines.${i}.${p.field}`, message: p.message })));
    const ref = refOf(cycle);
    const m = newMovement(input, ref, caller.id, now, { receiptId });
    movements.push(m);
    const group = deltas.get(cycle.id) ?? { ref, deltas: [] };
    group.deltas.push(...effectsOf(input, 1));
    deltas.set(cycle.id, group);
    if (input.type === 'feed_delivery') facts.push(factOf(input));
    if (input.type === 'bird_inflow') placed.set(cycle.id, { cycle, birds: (placed.get(cycle.id)?.birds ?? 0) + input.quantity });
    flocks.add(cycle.flockId);
    lines.push({ ...base, flockId: cycle.flockId, cycleId: cycle.id, movementId: m.id });
  }
  if (problems.length) throw new ValidationFailed(problems);
  const receipt: ReceiptRecord = {
    id: receiptId,
    orderId,
    farmId: order.farmId,
    supplierId: order.supplierId,
    date: body.date,
    lines,
    deliveries: facts,
    notes: body.notes?.trim() ?? null,
    receivedBy: caller.id,
    createdAt: now,
  };
  const fields: Partial<OrderRecord> = { lines: applied.lines, status: applied.status, ...(applied.status === 'received' ? { receivedAt: now } : {}) };
  const updated = { ...order, ...fields, updatedAt: now, version: order.version + 1 };
  // chicks entering a house: a warning (never a refusal) when they would put it above the stocking density limit
  const warnings = (await Promise.all([...placed.values()].map((p) => densityWarnings(p.cycle, p.birds, body.date)))).flat();
  const response = {
    created: true,
    message: 'Goods received',
    data: { order: toOrderDto(updated), receipt: toReceiptDto(receipt) },
    ...(warnings.length ? { warnings } : {}),
  };
  await refusedToConflict(
    commit(ctx, {
      // the order at the version it was decided on (the receipt is no change the client preconditions)
      writes: [
        orderWrites.update(order, fields, orderVersion(order, undefined, false)),
        receiptWrite(receipt),
        ...ledgerWrites({ groups: [...deltas.values()].map((g) => ({ ref: g.ref, changes: netChanges(g.deltas) })), puts: movements }, ctx.now.toISOString()),
      ],
      audit: [
        {
          action: 'purchase_order.receive',
          targetType: 'purchase_order',
          targetId: orderId,
          changes: { receiptId, status: { from: order.status, to: applied.status }, lines: body.lines, movementIds: movements.map((m) => m.id) },
        },
      ],
      changes: [{ type: 'purchase_order', id: orderId, op: 'upsert', version: updated.version }],
      response,
    }),
  );
  for (const flockId of flocks) await alarmsOnFlockData({ farmId: order.farmId, flockId }, body.date);
  return response;
}

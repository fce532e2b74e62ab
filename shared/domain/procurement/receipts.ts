import { ulid } from 'ulidx';
import { Conflict, ValidationFailed, type FieldError } from '../../errors.js';
import type { FeedDeliveryFact } from '../analytics/suppliers.js';
import type { Caller } from '../caller.js';
import type { AuditEvent, RecordChange, ResourceChange } from '../decision.js';
import { visibleTo } from '../farm-access.js';
import { effectsOf, farmEffectsOf, farmMovementProblems, movementProblems, netChanges, type Delta } from '../ledger.js';
import { newFarmMovement, type FarmLedgerGroup } from '../movements/farm.js';
import { newMovement, refOf, type FarmMovementRecord, type LedgerGroup, type MovementRecord } from '../movements/record.js';
import { cycleNotFound, flockNotFound, houseNotFound } from '../references.js';
import { latestAllowedDate } from '../weights.js';
import { applyReceipt, backdatedOf, orderChange, outstanding, receivable } from './orders.js';
import type { OrderRecord, ReceiptLineRecord, ReceiptRecord } from './records.js';
import type { MedicineUnit, MovementInput } from '../../../schemas/movements.js';
import { birdInflowMovementBody, feedDeliveryMovementBody, medicineDeliveryMovementBody } from '../../../schemas/compiled/service-movements.js';
import { problemsOf } from '../../../schemas/problems.js';
import type { CreateReceiptBody } from '../../../schemas/procurement.js';

/**
 * Receiving goods on a placed order, decided without I/O: the received quantities (refused past the
 * ordered quantity unless the order allows over-delivery), the receipt, the ledger movements
 * (feed_delivery with the supplier facts, on the named flock's active cycle or, without a flock, booked on
 * the farm's stock; bird_inflow for chicks, always on a flock's active cycle; medicine_delivery for vaccines
 * and medication, on a cycle or the farm like feed; equipment has no stock in the ledger) and the audit
 * event. The checks run in the order a client meets them: the order's status and quantities, the date,
 * then each line in turn. Dates are the farm's calendar dates.
 */

/** The flock a line names and its active cycle, as read (either may be missing). */
export interface ReceiptTarget<C extends TargetCycle> {
  flock: { id: string; farmId: string; activeCycleId: string | null } | undefined;
  cycle: C | undefined;
}
export type TargetCycle = { id: string; flockId: string; farmId: string; startDate: string; endDate: string | null };

/** The order can take the receipt: placed and not finished, each line known once and within its ordered quantity. */
export function decideReceivedQuantities(order: OrderRecord, body: CreateReceiptBody) {
  if (!receivable(order.status))
    throw new Conflict(`Purchase order ${order.id} is ${order.status}; goods are received on an ordered or partially received order`);
  const applied = applyReceipt(order.lines, body.lines, order.allowOverDelivery);
  if ('problems' in applied) throw new ValidationFailed(applied.problems);
  return applied;
}

/**
 * A receipt is dated on or before `today`, the farm's date: goods cannot have arrived on a later day. Any
 * earlier day is possible — before the order was placed or its supplier entered (the paperwork came after
 * the goods), before the expected day (early) — and is taken; the line's cycle still bounds it (the ledger's
 * rule for every movement).
 */
export function judgeReceiptDate(date: string, today: string): void {
  if (date > today)
    throw new ValidationFailed([{ field: 'date', message: `must not be after the farm's today (${today}): the goods cannot have arrived yet` }]);
}

/**
 * The order date a delivery carries: the farm's date of placing, when that is the day it was ordered. An
 * order placed after its expected day, or after goods of it arrived, was entered after the fact: the day
 * it was placed is not the day it was ordered, so the delivery carries none (and counts in no lead time).
 */
export const knownOrderedDate = (orderedDate: string, expectedDate: string, date: string): string | null =>
  orderedDate <= expectedDate && orderedDate <= date ? orderedDate : null;

const lineOf = (order: OrderRecord, lineId: string) => order.lines.find((l) => l.id === lineId)!;

/** The houses a receipt's lines name (each read in the order's farm). */
export const receiptHouseReads = (body: CreateReceiptBody): string[] => [...new Set(body.lines.flatMap((r) => (r.houseId ? [r.houseId] : [])))];

/** The flocks a receipt's lines name (each with its active cycle to read): the lines that write a movement. */
export const receiptReads = (order: OrderRecord, body: CreateReceiptBody): string[] => [
  ...new Set(body.lines.flatMap((r) => (r.flockId && lineOf(order, r.lineId).itemKind !== 'equipment' ? [r.flockId] : []))),
];

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

/** A receipt's movements, each checked with its type's own schema. */
const RECEIPT_MOVEMENT_BODIES = {
  feed_delivery: feedDeliveryMovementBody,
  bird_inflow: birdInflowMovementBody,
  medicine_delivery: medicineDeliveryMovementBody,
} as const;

type ReceiptInput = Extract<MovementInput, { type: keyof typeof RECEIPT_MOVEMENT_BODIES }>;

/**
 * Whether an order's prices are in its farm's currency (an order without a currency was priced in it): only
 * then do they go on the ledger's movements. A movement's price is in its farm's currency, and the service
 * has no exchange rate, so the goods of an order in another currency enter the ledger unpriced (the
 * financials price them at the farm's prices and say so); the order and the receipt keep the supplier's price.
 */
export const pricedInFarmCurrency = (order: Pick<OrderRecord, 'currency'>, farmCurrency: string | undefined): boolean =>
  !farmCurrency || !order.currency || order.currency === farmCurrency;

/** The movement a line of a receipt writes (feed, chicks, vaccines or medication); `priced`: with the order's price. */
function movementOf(
  order: OrderRecord,
  line: OrderRecord['lines'][number],
  r: CreateReceiptBody['lines'][number],
  date: string,
  orderedDate: string | null,
  priced: boolean,
): ReceiptInput {
  const left = outstanding(line);
  const price = priced ? { unitPrice: line.unitPrice } : {};
  if (line.itemKind === 'feed')
    return {
      type: 'feed_delivery',
      date,
      feedType: line.feedType!,
      quantityKg: r.quantity,
      supplierId: order.supplierId,
      orderId: order.id,
      ...(orderedDate ? { orderedDate } : {}),
      expectedDate: order.expectedDate,
      ...(left > 0 ? { orderedQuantityKg: left } : {}),
      ...(r.qualityIssues?.length ? { qualityIssues: r.qualityIssues } : {}),
      ...price,
      ...(r.lotNumber ? { lotNumber: r.lotNumber } : {}),
    };
  if (line.itemKind === 'chicks')
    return { type: 'bird_inflow', date, quantity: r.quantity, supplierId: order.supplierId, ...(priced ? { unitCost: line.unitPrice } : {}) };
  return {
    type: 'medicine_delivery',
    date,
    product: line.product!,
    quantity: r.quantity,
    unit: line.unit as MedicineUnit,
    supplierId: order.supplierId,
    orderId: order.id,
    ...price,
    ...(r.lotNumber ? { lotNumber: r.lotNumber } : {}),
  };
}

/** The active cycle of a flock of the order's farm (feed and chicks are recorded on it). */
function targetCycle<C extends TargetCycle>(
  caller: Pick<Caller, 'allFarms' | 'farmIds'>,
  farmId: string,
  flockId: string,
  found: ReceiptTarget<C> | undefined,
  field: string,
): C {
  const flock = visibleTo(caller, found?.flock, () => flockNotFound(flockId));
  // a flock of another of the caller's farms is not one this order delivers to
  if (flock.farmId !== farmId) throw flockNotFound(flockId);
  if (!flock.activeCycleId) throw new ValidationFailed([{ field, message: `flock ${flockId} has no active cycle` }]);
  return visibleTo(caller, found?.cycle, () => cycleNotFound(flock.id, flock.activeCycleId!));
}

export interface ReceiptFacts<C extends TargetCycle> {
  caller: Pick<Caller, 'id' | 'allFarms' | 'farmIds'>;
  now: Date;
  order: OrderRecord;
  /** The farm's pricing currency: the prices of an order in another currency stay off the ledger (unknown: every order's prices go on it). */
  farmCurrency?: string;
  /** What `decideReceivedQuantities` made of the order's lines. */
  applied: ReturnType<typeof decideReceivedQuantities>;
  /** The farm's date the order was placed on. */
  orderedDate: string;
  /** The farm's date now: a receipt dated before it was entered after the fact (audited as back-dated). */
  today: string;
  /** The flocks `receiptReads` named, by id, with their active cycles. */
  targets: ReadonlyMap<string, ReceiptTarget<C>>;
  /** The houses `receiptHouseReads` named, as read in the order's farm (a missing one is absent). */
  houses?: ReadonlyMap<string, { farmId: string }>;
}

/** A problem of a line's movement, named where the client wrote it: the date is the receipt's own (`date`), the rest the line's. */
const lineField = (i: number, field: string) => (field === 'date' ? 'date' : `lines.${i}.${field}`);
const isStock = (d: Delta) => d.target.kind !== 'cycle' && d.target.kind !== 'day';

/** The receipt, its movements and ledger changes, the order's change, and the chicks placed per cycle (for the density warnings). */
export function decideReceipt<C extends TargetCycle>(body: CreateReceiptBody, facts: ReceiptFacts<C>) {
  const { caller, order, applied, orderedDate } = facts;
  const inFarmCurrency = pricedInFarmCurrency(order, facts.farmCurrency);
  const now = facts.now.toISOString();
  const latest = latestAllowedDate(facts.now);
  const receiptId = ulid();
  const problems: FieldError[] = [];
  const movements: MovementRecord[] = [];
  const farmMovements: FarmMovementRecord[] = [];
  /** Every stock change of the receipt, on the order's farm: one write per stock item, whichever lines it comes from. */
  const stock: Delta[] = [];
  const deltas = new Map<string, { ref: LedgerGroup['ref']; deltas: Delta[] }>();
  const deliveries: FeedDeliveryFact[] = [];
  const lines: ReceiptLineRecord[] = [];
  const flocks = new Set<string>();
  /** Chicks placed per cycle (the stocking density they lead to is judged once all lines are decided). */
  const placed = new Map<string, { cycle: C; birds: number }>();
  for (const [i, r] of body.lines.entries()) {
    const line = lineOf(order, r.lineId);
    const base = { lineId: r.lineId, quantity: r.quantity, lotNumber: r.lotNumber ?? null, qualityIssues: r.qualityIssues ?? [] };
    if (line.itemKind === 'equipment') {
      if (r.flockId) problems.push({ field: `lines.${i}.flockId`, message: 'is not for equipment lines (equipment has no stock in the ledger)' });
      lines.push({ ...base, flockId: null, cycleId: null, movementId: null });
      continue;
    }
    const known = knownOrderedDate(orderedDate, order.expectedDate, body.date);
    // a house named is a house of the order's farm, whatever else is wrong with the line (another farm's is the 404 of a missing one)
    if (r.houseId !== undefined && facts.houses?.get(r.houseId)?.farmId !== order.farmId) throw houseNotFound(r.houseId);
    if (!r.flockId && line.itemKind !== 'chicks') {
      // feed, vaccines and medication without a flock: booked on the farm's stock, in the house bin named
      const input = movementOf(order, line, r, body.date, known, inFarmCurrency);
      const found = [...problemsOf(RECEIPT_MOVEMENT_BODIES[input.type], input), ...farmMovementProblems(input, latest)];
      problems.push(...found.map((p) => ({ field: lineField(i, p.field), message: p.message })));
      const m = newFarmMovement(input, order.farmId, r.houseId, caller.id, now, { receiptId });
      farmMovements.push(m);
      stock.push(...farmEffectsOf(input));
      if (input.type === 'feed_delivery') deliveries.push(factOf(input));
      lines.push({ ...base, flockId: null, cycleId: null, movementId: m.id });
      continue;
    }
    if (!r.flockId) {
      problems.push({ field: `lines.${i}.flockId`, message: `is required for a ${line.itemKind} line: the flock whose active cycle records it` });
      continue;
    }
    if (r.houseId !== undefined) problems.push({ field: `lines.${i}.houseId`, message: 'is for a line booked on the farm (without flockId)' });
    const cycle = targetCycle(caller, order.farmId, r.flockId, facts.targets.get(r.flockId), `lines.${i}.flockId`);
    const input = movementOf(order, line, r, body.date, known, inFarmCurrency);
    const found = [...problemsOf(RECEIPT_MOVEMENT_BODIES[input.type], input), ...movementProblems(input, cycle, latest)];
    problems.push(...found.map((p) => ({ field: lineField(i, p.field), message: p.message })));
    const ref = refOf(cycle);
    const m = newMovement(input, ref, caller.id, now, { receiptId });
    movements.push(m);
    const group = deltas.get(cycle.id) ?? { ref, deltas: [] };
    const effects = effectsOf(input, 1);
    group.deltas.push(...effects.filter((d) => !isStock(d)));
    stock.push(...effects.filter(isStock));
    deltas.set(cycle.id, group);
    // the receipt keeps the supplier's price of an order in another currency, with that currency (the ledger does not)
    if (input.type === 'feed_delivery')
      deliveries.push(inFarmCurrency ? factOf(input) : { ...factOf(input), unitPrice: line.unitPrice, currency: order.currency! });
    if (input.type === 'bird_inflow') placed.set(cycle.id, { cycle, birds: (placed.get(cycle.id)?.birds ?? 0) + input.quantity });
    flocks.add(cycle.flockId);
    lines.push({ ...base, flockId: cycle.flockId, cycleId: cycle.id, movementId: m.id });
  }
  if (problems.length) throw new ValidationFailed(problems);
  const receipt: ReceiptRecord = {
    id: receiptId,
    orderId: order.id,
    farmId: order.farmId,
    supplierId: order.supplierId,
    date: body.date,
    lines,
    deliveries,
    notes: body.notes?.trim() ?? null,
    receivedBy: caller.id,
    createdAt: now,
  };
  const fields: Partial<OrderRecord> = { lines: applied.lines, status: applied.status, ...(applied.status === 'received' ? { receivedAt: now } : {}) };
  const next: OrderRecord = { ...order, ...fields, updatedAt: now, version: order.version + 1 };
  const statusChange = { status: { from: order.status, to: applied.status } };
  const change: RecordChange<OrderRecord> = { current: order, next, fields, changes: statusChange };
  const audit: AuditEvent[] = [
    {
      action: 'purchase_order.receive',
      targetType: 'purchase_order',
      targetId: order.id,
      changes: {
        receiptId,
        ...statusChange,
        lines: body.lines,
        movementIds: [...movements, ...farmMovements].map((m) => m.id),
        ...backdatedOf(body.date, facts.today),
      },
    },
  ];
  const groups: LedgerGroup[] = [...deltas.values()].map((g) => ({ ref: g.ref, changes: netChanges(g.deltas) }));
  const farmGroup: FarmLedgerGroup = { farmId: order.farmId, changes: netChanges(stock) };
  const changes: ResourceChange[] = [orderChange(next)];
  return { receipt, change, movements, farmMovements, groups, farmGroup, placed: [...placed.values()], flocks: [...flocks], audit, changes };
}

/**
 * Procurement (pure): the purchase order lifecycle draft → ordered → partially_received → received (or
 * cancelled before it is fully received), what a line may order, what a receipt may take and the reorder
 * arithmetic of the suggestions (a supplier's fill rate: fill-rate.ts). docs/decisions.md ("Procurement").
 */
import { ulid } from 'ulidx';
import { Conflict, ValidationFailed, type FieldError } from '../../errors.js';
import { localToday } from '../../platform/calendar.js';
import type { Caller } from '../caller.js';
import { type AuditEvent, type RecordChange, type ResourceChange, upsertOf } from '../decision.js';
import { round } from '../weights.js';
import type { OrderLineRecord, OrderRecord, SupplierRecord } from './records.js';
import { seenSupplier } from './suppliers.js';
import { isCurrencyCode } from '../pricing/farm-pricing.js';
import type { CreateOrderBody, OrderAction, OrderActionBody, OrderStatus, OrderUnit, SupplierKind, UpdateOrderBody } from '../../../schemas/procurement.js';

const MOVES: Record<OrderAction, { from: readonly OrderStatus[]; to: OrderStatus }> = {
  place: { from: ['draft'], to: 'ordered' },
  cancel: { from: ['draft', 'ordered', 'partially_received'], to: 'cancelled' },
};

/** The status an action moves an order to, or why it cannot. */
export function transition(current: OrderStatus, action: OrderAction): { to: OrderStatus } | { refused: string } {
  const move = MOVES[action];
  if (move.from.includes(current)) return { to: move.to };
  return { refused: `A purchase order that is ${current} cannot be ${move.to} (allowed from ${move.from.join(' or ')})` };
}

/** Goods are received only on an order that was placed and is not finished. */
export const receivable = (status: OrderStatus): boolean => status === 'ordered' || status === 'partially_received';

const UNITS_OF: Record<SupplierKind, readonly OrderUnit[]> = {
  feed: ['kg'],
  chicks: ['birds'],
  vaccines: ['doses', 'l', 'units'],
  medication: ['doses', 'l', 'kg', 'units'],
  equipment: ['units'],
};

export interface LineInput {
  itemKind: SupplierKind;
  feedType?: string | undefined;
  product?: string | undefined;
  quantity: number;
  unit: OrderUnit;
  unitPrice: number;
}

/** What the schema cannot say of order lines: feed lines name a feed type in kg, chicks are whole birds, other lines name a product; the supplier supplies the kind. */
export function lineProblems(lines: readonly LineInput[], supplierKinds: readonly SupplierKind[]): FieldError[] {
  const out: FieldError[] = [];
  lines.forEach((l, i) => {
    const at = (f: string) => `lines.${i}.${f}`;
    if (!supplierKinds.includes(l.itemKind)) out.push({ field: at('itemKind'), message: `the supplier does not supply ${l.itemKind}` });
    if (!UNITS_OF[l.itemKind].includes(l.unit)) out.push({ field: at('unit'), message: `must be ${UNITS_OF[l.itemKind].join(' or ')} for ${l.itemKind}` });
    if (l.itemKind === 'feed') {
      if (!l.feedType) out.push({ field: at('feedType'), message: 'is required for a feed line' });
      if (l.product) out.push({ field: at('product'), message: 'is not allowed on a feed line (use feedType)' });
    } else {
      if (!l.product) out.push({ field: at('product'), message: `is required for a ${l.itemKind} line` });
      if (l.feedType) out.push({ field: at('feedType'), message: 'is only for feed lines' });
    }
    if (l.itemKind === 'chicks' && !Number.isInteger(l.quantity)) out.push({ field: at('quantity'), message: 'must be a whole number of birds' });
  });
  return out;
}

export interface ReceivedLine {
  id: string;
  itemKind: SupplierKind;
  quantity: number;
  receivedQuantity: number;
}

/**
 * What a receipt does to the order's lines: each received quantity added; refused (field errors) when a
 * line is unknown, named twice, a chick count is not whole, or the total would pass the ordered quantity
 * without `allowOverDelivery`. The status after it: received once every line has its quantity.
 */
export function applyReceipt<L extends ReceivedLine>(
  lines: readonly L[],
  received: ReadonlyArray<{ lineId: string; quantity: number }>,
  allowOverDelivery: boolean,
): { lines: L[]; status: 'partially_received' | 'received' } | { problems: FieldError[] } {
  const problems: FieldError[] = [];
  const next = lines.map((l) => ({ ...l }));
  const seen = new Set<string>();
  for (const [i, r] of received.entries()) {
    const line = next.find((l) => l.id === r.lineId);
    if (!line) {
      problems.push({ field: `lines.${i}.lineId`, message: `no line ${r.lineId} in this order` });
    } else if (seen.has(r.lineId)) {
      problems.push({ field: `lines.${i}.lineId`, message: 'is named twice; one entry per line' });
    } else if (line.itemKind === 'chicks' && !Number.isInteger(r.quantity)) {
      problems.push({ field: `lines.${i}.quantity`, message: 'must be a whole number of birds' });
    } else {
      seen.add(r.lineId);
      const total = round(line.receivedQuantity + r.quantity, 6);
      if (total > line.quantity && !allowOverDelivery)
        problems.push({
          field: `lines.${i}.quantity`,
          message: `would bring the received quantity to ${total}, more than the ${line.quantity} ordered (${round(line.quantity - line.receivedQuantity, 6)} outstanding); the order does not allow over-delivery`,
        });
      else line.receivedQuantity = total;
    }
  }
  if (problems.length) return { problems };
  return { lines: next, status: next.every((l) => l.receivedQuantity >= l.quantity) ? 'received' : 'partially_received' };
}

/** Quantity still to come on a line (never negative). */
export const outstanding = (l: { quantity: number; receivedQuantity: number }): number => Math.max(0, round(l.quantity - l.receivedQuantity, 6));

export const orderTotal = (lines: ReadonlyArray<{ quantity: number; unitPrice: number }>): number =>
  round(
    lines.reduce((a, l) => a + l.quantity * l.unitPrice, 0),
    2,
  );

/**
 * A reorder of one feed type: the daily use is the mean of the last 3 days' consumption; the run-out date
 * is the forecast's when there is one, else today + stock ÷ daily use. The order covers `coverDays` of use
 * after the delivery, less what will be left then, rounded up to 100 kg; nothing is suggested when the
 * stock outlasts the lead time plus the cover.
 */
export function reorder(input: { stockKg: number; dailyKg: number; leadDays: number; coverDays: number }): { quantityKg: number; daysOfStock: number | null } {
  const { stockKg, dailyKg, leadDays, coverDays } = input;
  if (dailyKg <= 0) return { quantityKg: 0, daysOfStock: null };
  const daysOfStock = stockKg / dailyKg;
  const leftAtDelivery = Math.max(0, stockKg - dailyKg * leadDays);
  const need = dailyKg * coverDays - leftAtDelivery;
  return { quantityKg: need > 0 ? Math.ceil(need / 100) * 100 : 0, daysOfStock: round(daysOfStock, 1) };
}

/** An order as answered (and as its creation is audited): its record with its total. */
export function orderAnswer(o: OrderRecord) {
  return {
    id: o.id,
    farmId: o.farmId,
    supplierId: o.supplierId,
    status: o.status,
    lines: o.lines,
    expectedDate: o.expectedDate,
    allowOverDelivery: o.allowOverDelivery,
    notes: o.notes,
    total: orderTotal(o.lines),
    currency: o.currency ?? null,
    orderedAt: o.orderedAt,
    receivedAt: o.receivedAt,
    cancelledAt: o.cancelledAt,
    createdBy: o.createdBy,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
    version: o.version,
  };
}

/** The farm's calendar date at an instant (its IANA time zone): an order's and a receipt's dates are the farm's, as its schedules'. */
export const farmDateAt = (at: string, timeZone: string | undefined): string => localToday(new Date(at), timeZone ?? 'UTC');

/**
 * What the audit entry of paperwork entered after the fact records: `backdated: {date, enteredOn}` when
 * its date (an order's expected date, a receipt's delivery date) is before `enteredOn`, the farm's date it
 * was entered on; nothing otherwise. Such paperwork is taken (offices enter phoned orders and delivery
 * notes later), and the audit keeps that it came late.
 */
export const backdatedOf = (date: string, enteredOn: string): { backdated?: { date: string; enteredOn: string } } =>
  date < enteredOn ? { backdated: { date, enteredOn } } : {};

export const orderChange = (o: OrderRecord): ResourceChange => upsertOf('purchase_order', o);

/** The supplier an order names (as the caller sees it): not archived, serving the farm, supplying every line's kind. */
export function judgeOrderSupplier(supplier: SupplierRecord, farmId: string, lines: readonly LineInput[]): void {
  if (supplier.archived) throw new Conflict(`Supplier ${supplier.id} is archived; it takes no new orders`);
  if (!supplier.farmIds.includes(farmId))
    throw new ValidationFailed([{ field: 'supplierId', message: `supplier ${supplier.id} does not serve farm ${farmId}` }]);
  const problems = lineProblems(lines, supplier.kinds);
  if (problems.length) throw new ValidationFailed(problems);
}

/** An order's currency, when it names one, is an ISO 4217 code (any: one other than the farm's is recorded as given). */
function judgeOrderCurrency(currency: string | undefined): void {
  if (currency !== undefined && !isCurrencyCode(currency))
    throw new ValidationFailed([{ field: 'currency', message: `must be an ISO 4217 currency code (${currency} is not one)` }]);
}

const linesOf = (lines: CreateOrderBody['lines']): OrderLineRecord[] =>
  lines.map((l) => ({
    id: ulid(),
    itemKind: l.itemKind,
    feedType: l.feedType?.trim() ?? null,
    product: l.product?.trim() ?? null,
    quantity: l.quantity,
    unit: l.unit,
    unitPrice: l.unitPrice,
    receivedQuantity: 0,
  }));

/**
 * A draft order of the farm with the supplier it names (`supplier` as read: one the caller does not see is
 * a missing one). Any expected date the schema takes is taken, a past one too (an order phoned earlier and
 * entered now); the audit entry records it as back-dated. `timeZone`: the farm's.
 */
export function decideOrderCreate(
  caller: Pick<Caller, 'id' | 'allFarms' | 'farmIds'>,
  farmId: string,
  supplier: SupplierRecord | undefined,
  body: CreateOrderBody,
  now: Date,
  timeZone: string | undefined,
  farmCurrency?: string,
) {
  judgeOrderSupplier(seenSupplier(caller, body.supplierId, supplier), farmId, body.lines);
  judgeOrderCurrency(body.currency);
  const at = now.toISOString();
  const order: OrderRecord = {
    id: ulid(),
    farmId,
    supplierId: body.supplierId,
    status: 'draft',
    lines: linesOf(body.lines),
    currency: body.currency ?? farmCurrency ?? null,
    expectedDate: body.expectedDate,
    allowOverDelivery: body.allowOverDelivery ?? false,
    notes: body.notes?.trim() ?? null,
    orderedAt: null,
    receivedAt: null,
    cancelledAt: null,
    createdBy: caller.id,
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
  const changes = { ...orderAnswer(order), ...backdatedOf(order.expectedDate, farmDateAt(at, timeZone)) };
  const audit: AuditEvent[] = [{ action: 'purchase_order.create', targetType: 'purchase_order', targetId: order.id, changes }];
  return { order, audit, changes: [orderChange(order)] };
}

/** What an edit of `order` reads besides it: its supplier, when new lines must be judged against it (only a draft takes them). */
export const orderUpdateReads = (order: OrderRecord, body: UpdateOrderBody) => ({ supplier: order.status === 'draft' && body.lines !== undefined });

/** An edit of a draft (its version already compared with the client's); `supplier` as read when `orderUpdateReads` asked for it. */
export function decideOrderUpdate(
  caller: Pick<Caller, 'allFarms' | 'farmIds'>,
  order: OrderRecord,
  body: UpdateOrderBody,
  supplier: SupplierRecord | undefined,
  now: Date,
) {
  if (order.status !== 'draft') throw new Conflict(`Purchase order ${order.id} is ${order.status}; only a draft can be changed`);
  if (body.lines) judgeOrderSupplier(seenSupplier(caller, order.supplierId, supplier), order.farmId, body.lines);
  judgeOrderCurrency(body.currency);
  const fields: Partial<OrderRecord> = {
    ...(body.lines ? { lines: linesOf(body.lines) } : {}),
    ...(body.currency !== undefined ? { currency: body.currency } : {}),
    ...(body.expectedDate !== undefined ? { expectedDate: body.expectedDate } : {}),
    ...(body.allowOverDelivery !== undefined ? { allowOverDelivery: body.allowOverDelivery } : {}),
    ...(body.notes !== undefined ? { notes: body.notes?.trim() ?? null } : {}),
  };
  // every field sent is recorded, changed or not (what the caller asked for)
  const changes = Object.fromEntries(Object.entries(fields).map(([f, to]) => [f, { from: order[f as keyof OrderRecord], to }]));
  const next: OrderRecord = { ...order, ...fields, updatedAt: now.toISOString(), version: order.version + 1 };
  const change: RecordChange<OrderRecord> = { current: order, next, fields, changes };
  const audit: AuditEvent[] = [{ action: 'purchase_order.update', targetType: 'purchase_order', targetId: order.id, changes }];
  return { change, audit, changes: [orderChange(next)] };
}

/** What placing or cancelling reads besides the order: the farm's time zone, when a legal placement must tell whether its expected date is past. */
export const orderActionReads = (order: OrderRecord, action: OrderAction) => ({ farm: action === 'place' && !('refused' in transition(order.status, action)) });

/**
 * place (draft → ordered, stamps orderedAt; an expected date already past on the farm's calendar is taken
 * and audited as back-dated) or cancel; an illegal move is a Conflict naming the status. `timeZone`: the
 * farm's, read for a placement.
 */
export function decideOrderAction(order: OrderRecord, action: OrderAction, body: OrderActionBody, now: Date, timeZone: string | undefined) {
  const move = transition(order.status, action);
  if ('refused' in move) throw new Conflict(move.refused);
  const at = now.toISOString();
  const fields: Partial<OrderRecord> = { status: move.to, ...(action === 'place' ? { orderedAt: at } : { cancelledAt: at }) };
  const next: OrderRecord = { ...order, ...fields, updatedAt: at, version: order.version + 1 };
  const statusChange = { status: { from: order.status, to: move.to } };
  const change: RecordChange<OrderRecord> = { current: order, next, fields, changes: statusChange };
  const audit: AuditEvent[] = [
    {
      action: `purchase_order.${action}`,
      targetType: 'purchase_order',
      targetId: order.id,
      changes: {
        ...statusChange,
        ...(body.note ? { note: body.note } : {}),
        ...(action === 'place' ? backdatedOf(order.expectedDate, farmDateAt(at, timeZone)) : {}),
      },
    },
  ];
  return { change, audit, changes: [orderChange(next)] };
}

import { ulid } from 'ulidx';
import { checkVersion, commit } from '../../db/commit.js';
import { getFarm } from '../../db/farms.js';
import { getOrderWithReceipts, getSupplier, listOrdersOfFarm, orderNotFound, orderVersion, orderWrites } from '../../db/procurement.js';
import type { OrderLineRecord, OrderRecord, ReceiptRecord, SupplierRecord } from '../../domain/procurement/records.js';
import type { Caller } from '../../domain/caller.js';
import type { CommandContext } from '../../domain/command.js';
import { visibleTo } from '../../domain/farm-access.js';
import { lineProblems, orderTotal, transition } from '../../domain/procurement/orders.js';
import { localToday } from '../../platform/calendar.js';
import { Conflict, ValidationFailed } from '../../errors.js';
import { farmOfRequest } from '../farms.js';
import { idempotentCommand } from '../idempotency.js';
import { seenSupplier } from './suppliers.js';
import type { CreateOrderBody, ListOrdersQuery, OrderAction, OrderActionBody, UpdateOrderBody } from '../../../schemas/procurement.js';

/** Purchase orders (`/api/v1/procurement/orders`): drafted, changed while a draft, placed or cancelled. An order is its farm's. */

export function toOrderDto(o: OrderRecord) {
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
    orderedAt: o.orderedAt,
    receivedAt: o.receivedAt,
    cancelledAt: o.cancelledAt,
    createdBy: o.createdBy,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
    version: o.version,
  };
}

export const toReceiptDto = (r: ReceiptRecord) => ({
  id: r.id,
  orderId: r.orderId,
  date: r.date,
  lines: r.lines,
  notes: r.notes,
  receivedBy: r.receivedBy,
  createdAt: r.createdAt,
});

/** The farm's calendar date at an instant (its IANA time zone): an order's and a receipt's dates are the farm's, as its schedules'. */
export async function farmDate(farmId: string, at: string): Promise<string> {
  return localToday(new Date(at), (await getFarm(farmId))?.timezone ?? 'UTC');
}

/** The order and its receipts, when the order is of a farm the caller sees. */
export const visibleOrder = async (user: Caller, id: string) =>
  visibleTo(
    user,
    await getOrderWithReceipts(id),
    () => orderNotFound(id),
    (found) => found.order.farmId,
  );

export async function orderFor(user: Caller, id: string) {
  const { order, receipts } = await visibleOrder(user, id);
  return { ...toOrderDto(order), receipts: receipts.map(toReceiptDto) };
}

export async function listOrdersFor(user: Caller, query: ListOrdersQuery) {
  const farmId = farmOfRequest(user, query.farmId);
  const limit = query.limit ?? 25;
  const page = await listOrdersOfFarm(farmId, { status: query.status, supplierId: query.supplierId }, { limit, cursor: query.cursor });
  return { items: page.items.map(toOrderDto), limit, nextCursor: page.nextCursor };
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

/** The supplier an order names: one the caller sees, serving the farm, not archived, supplying every line's kind. */
async function supplierForOrder(user: Caller, supplierId: string, farmId: string, lines: CreateOrderBody['lines']): Promise<SupplierRecord> {
  const s = seenSupplier(user, supplierId, await getSupplier(supplierId));
  if (s.archived) throw new Conflict(`Supplier ${supplierId} is archived; it takes no new orders`);
  if (!s.farmIds.includes(farmId)) throw new ValidationFailed([{ field: 'supplierId', message: `supplier ${supplierId} does not serve farm ${farmId}` }]);
  const problems = lineProblems(lines, s.kinds);
  if (problems.length) throw new ValidationFailed(problems);
  return s;
}

export async function createOrderFor(ctx: CommandContext, body: CreateOrderBody) {
  const farmId = farmOfRequest(ctx.caller, body.farmId);
  return idempotentCommand(ctx, `purchase-order:${farmId}`, body, async (ctx) => {
    await supplierForOrder(ctx.caller, body.supplierId, farmId, body.lines);
    const now = ctx.now.toISOString();
    const order: OrderRecord = {
      id: ulid(),
      farmId,
      supplierId: body.supplierId,
      status: 'draft',
      lines: linesOf(body.lines),
      expectedDate: body.expectedDate,
      allowOverDelivery: body.allowOverDelivery ?? false,
      notes: body.notes?.trim() ?? null,
      orderedAt: null,
      receivedAt: null,
      cancelledAt: null,
      createdBy: ctx.caller.id,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    const response = { created: true, message: 'Purchase order drafted', data: toOrderDto(order) };
    await commit(ctx, {
      writes: orderWrites.create(order),
      audit: [{ action: 'purchase_order.create', targetType: 'purchase_order', targetId: order.id, changes: toOrderDto(order) }],
      changes: [{ type: 'purchase_order', id: order.id, op: 'upsert', version: 1 }],
      response,
    });
    return response;
  });
}

export async function updateOrderFor(ctx: CommandContext, id: string, body: UpdateOrderBody) {
  const { order } = await visibleOrder(ctx.caller, id);
  const version = orderVersion(order, body.version);
  // the version first: a stale one is answered as such whatever else is wrong with the change
  checkVersion(ctx, version);
  if (order.status !== 'draft') throw new Conflict(`Purchase order ${id} is ${order.status}; only a draft can be changed`);
  if (body.lines) await supplierForOrder(ctx.caller, order.supplierId, order.farmId, body.lines);
  const fields: Partial<OrderRecord> = {
    ...(body.lines ? { lines: linesOf(body.lines) } : {}),
    ...(body.expectedDate !== undefined ? { expectedDate: body.expectedDate } : {}),
    ...(body.allowOverDelivery !== undefined ? { allowOverDelivery: body.allowOverDelivery } : {}),
    ...(body.notes !== undefined ? { notes: body.notes?.trim() ?? null } : {}),
  };
  // every field sent is recorded, changed or not (what the caller asked for)
  const changes = Object.fromEntries(Object.entries(fields).map(([f, to]) => [f, { from: order[f as keyof OrderRecord], to }]));
  await commit(ctx, {
    writes: [orderWrites.update(order, fields, version)],
    audit: [{ action: 'purchase_order.update', targetType: 'purchase_order', targetId: id, changes }],
    changes: [{ type: 'purchase_order', id, op: 'upsert', version: order.version + 1 }],
  });
  return toOrderDto({ ...order, ...fields, updatedAt: ctx.now.toISOString(), version: order.version + 1 });
}

/** place (draft → ordered, stamps orderedAt; the expected date may not be past) or cancel; an illegal move is a Conflict naming the status. */
export async function actOnOrder(ctx: CommandContext, id: string, action: OrderAction, body: OrderActionBody) {
  await visibleOrder(ctx.caller, id);
  return idempotentCommand(ctx, `purchase-order-${action}:${id}`, body, async (ctx) => {
    const { order } = await visibleOrder(ctx.caller, id);
    const version = orderVersion(order, body.version);
    checkVersion(ctx, version);
    const move = transition(order.status, action);
    if ('refused' in move) throw new Conflict(move.refused);
    const now = ctx.now.toISOString();
    if (action === 'place' && order.expectedDate < (await farmDate(order.farmId, now)))
      throw new ValidationFailed([{ field: 'expectedDate', message: `${order.expectedDate} is past; change the draft's expected date first` }]);
    const fields: Partial<OrderRecord> = { status: move.to, ...(action === 'place' ? { orderedAt: now } : { cancelledAt: now }) };
    const response = {
      created: false,
      message: action === 'place' ? 'Purchase order placed' : 'Purchase order cancelled',
      data: toOrderDto({ ...order, ...fields, updatedAt: now, version: order.version + 1 }),
    };
    await commit(ctx, {
      writes: [orderWrites.update(order, fields, version)],
      audit: [
        {
          action: `purchase_order.${action}`,
          targetType: 'purchase_order',
          targetId: id,
          changes: { status: { from: order.status, to: move.to }, ...(body.note ? { note: body.note } : {}) },
        },
      ],
      changes: [{ type: 'purchase_order', id, op: 'upsert', version: order.version + 1 }],
      response,
    });
    return response;
  });
}

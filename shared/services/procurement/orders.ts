import { checkVersion, commit } from '../../db/commit.js';
import { getFarm } from '../../db/farms.js';
import { getOrderWithReceipts, getSupplier, getSupplierAndFarmZone, listOrdersOfFarm, orderVersion, orderWrites } from '../../db/procurement.js';
import { orderNotFound } from '../../domain/references.js';
import type { ReceiptRecord } from '../../domain/procurement/records.js';
import type { Caller } from '../../domain/caller.js';
import type { CommandContext } from '../../domain/command.js';
import { visibleTo } from '../../domain/farm-access.js';
import { decideOrderAction, decideOrderCreate, decideOrderUpdate, orderActionReads, orderAnswer, orderUpdateReads } from '../../domain/procurement/orders.js';
import { farmOfRequest } from '../farms.js';
import { idempotentCommand } from '../idempotency.js';
import { farmPricesOf } from '../analytics/farm-pricing.js';
import type { CreateOrderBody, ListOrdersQuery, OrderAction, OrderActionBody, UpdateOrderBody } from '../../../schemas/procurement.js';

/** Purchase orders (`/api/v1/procurement/orders`): drafted, changed while a draft, placed or cancelled. An order is its farm's. */

export const toOrderDto = orderAnswer;

export const toReceiptDto = (r: ReceiptRecord) => ({
  id: r.id,
  orderId: r.orderId,
  date: r.date,
  lines: r.lines,
  notes: r.notes,
  receivedBy: r.receivedBy,
  createdAt: r.createdAt,
});

/** The farm's time zone (an order's and a receipt's dates are the farm's calendar dates). */
export const farmTimeZone = async (farmId: string): Promise<string | undefined> => (await getFarm(farmId))?.timezone;

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

export async function createOrderFor(ctx: CommandContext, body: CreateOrderBody) {
  const farmId = farmOfRequest(ctx.caller, body.farmId);
  return idempotentCommand(ctx, `purchase-order:${farmId}`, body, async (ctx) => {
    const { supplier, timeZone, pricing } = await getSupplierAndFarmZone(body.supplierId, farmId);
    const farmCurrency = farmPricesOf(pricing).currency;
    const { order, audit, changes } = decideOrderCreate(ctx.caller, farmId, supplier, body, ctx.now, timeZone, farmCurrency);
    const response = { created: true, message: 'Purchase order drafted', data: toOrderDto(order) };
    await commit(ctx, { writes: orderWrites.create(order), audit, changes, response });
    return response;
  });
}

export async function updateOrderFor(ctx: CommandContext, id: string, body: UpdateOrderBody) {
  const { order } = await visibleOrder(ctx.caller, id);
  const version = orderVersion(order, body.version);
  // the version first: a stale one is answered as such whatever else is wrong with the change
  checkVersion(ctx, version);
  const supplier = orderUpdateReads(order, body).supplier ? await getSupplier(order.supplierId) : undefined;
  const { change, audit, changes } = decideOrderUpdate(ctx.caller, order, body, supplier, ctx.now);
  await commit(ctx, { writes: [orderWrites.update(order, change.fields, version)], audit, changes });
  return toOrderDto(change.next);
}

/** place (draft → ordered, stamps orderedAt; a past expected date is audited as back-dated) or cancel; an illegal move is a Conflict naming the status. */
export async function actOnOrder(ctx: CommandContext, id: string, action: OrderAction, body: OrderActionBody) {
  await visibleOrder(ctx.caller, id);
  return idempotentCommand(ctx, `purchase-order-${action}:${id}`, body, async (ctx) => {
    const { order } = await visibleOrder(ctx.caller, id);
    const version = orderVersion(order, body.version);
    checkVersion(ctx, version);
    const timeZone = orderActionReads(order, action).farm ? await farmTimeZone(order.farmId) : undefined;
    const { change, audit, changes } = decideOrderAction(order, action, body, ctx.now, timeZone);
    const response = {
      created: false,
      message: action === 'place' ? 'Purchase order placed' : 'Purchase order cancelled',
      data: toOrderDto(change.next),
    };
    await commit(ctx, { writes: [orderWrites.update(order, change.fields, version)], audit, changes, response });
    return response;
  });
}

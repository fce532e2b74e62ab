import { ulid } from 'ulidx';
import { auditPut } from '../db/audit.js';
import type { TransactItem } from '../db/client.js';
import { getFlock } from '../db/flocks.js';
import { farmStock, exportFarmMovements } from '../db/inventory.js';
import { farmWithForecast } from '../db/forecasts.js';
import { farmNotFound, getFarm } from '../db/farms.js';
import { applyLedger, type LedgerGroup, type MovementRecord } from '../db/movements.js';
import {
  createOrder,
  createSupplier,
  deleteSupplier,
  feedReceiptsOfSupplier,
  getOrderWithReceipts,
  getOrders,
  getSupplier,
  listOrdersOfFarm,
  listSuppliers,
  orderChanged,
  orderNotFound,
  ordersOfFarm,
  orderUpdate,
  receiptPut,
  supplierNotFound,
  updateOrder,
  updateSupplier,
  type OrderLineRecord,
  type OrderRecord,
  type ReceiptLineRecord,
  type ReceiptRecord,
  type SupplierRecord,
} from '../db/procurement.js';
import type { Caller } from '../domain/caller.js';
import { canAccessFarm } from '../domain/farm-access.js';
import { expectedVersion, type Precondition } from '../domain/concurrency.js';
import { effectsOf, movementProblems, netChanges, type Delta } from '../domain/ledger.js';
import { latestAllowedDate, round } from '../domain/weights.js';
import { figure, missing } from '../domain/analytics/figures.js';
import { supplierReliability, type FeedDeliveryFact } from '../domain/analytics/suppliers.js';
import { applyReceipt, fillRate, lineProblems, orderTotal, outstanding, receivable, reorder, transition } from '../domain/procurement.js';
import { Conflict, ValidationFailed, type FieldError } from '../errors.js';
import { currentAnalyticsConfig } from './analytics-config.js';
import { scopedCycle } from './cycles.js';
import { densityWarnings } from './density-warnings.js';
import { farmOfRequest } from './farms.js';
import { DuplicateRequest, idempotent } from './idempotency.js';
import { refOf, record, refusedToConflict } from './movements.js';
import { alarmsOnFlockData } from './new-data.js';
import { flockNotFound } from './references.js';
import type { MedicineUnit, MovementInput } from '../../schemas/movements.js';
import { birdInflowMovementBody, feedDeliveryMovementBody, medicineDeliveryMovementBody } from '../../schemas/compiled/service-movements.js';
import { problemsOf } from '../../schemas/problems.js';
import type {
  CreateOrderBody,
  CreateReceiptBody,
  CreateSupplierBody,
  ListOrdersQuery,
  ListSuppliersQuery,
  OrderAction,
  OrderActionBody,
  SuggestionsQuery,
  UpdateOrderBody,
  UpdateSupplierBody,
} from '../../schemas/procurement.js';
import { addDays, isoDate, localToday } from '../platform/calendar.js';

/**
 * Procurement (`/api/v1/procurement`): suppliers, purchase orders and their receipts. A receipt writes
 * the ledger (feed_delivery with the supplier facts, bird_inflow) in the same transaction as the receipt
 * and the order's received quantities and status; supplier reliability runs the analytics' own
 * `supplierReliability` over the supplier's receipts. Scoping: an order is its farm's; a supplier is seen
 * by the users of a farm it serves (docs/decisions.md, "Procurement").
 */

type Remember = Parameters<Parameters<typeof idempotent>[4]>[0];
const today = () => isoDate(new Date());

// ---------------------------------------------------------------------------------------------------
// Suppliers

const sees = (user: Caller, s: SupplierRecord) => user.allFarms || s.farmIds.some((f) => canAccessFarm(user, f));

export function toSupplierDto(s: SupplierRecord, user: Caller) {
  return {
    id: s.id,
    name: s.name,
    kinds: s.kinds,
    contact: s.contact ?? {},
    farmIds: s.farmIds.filter((f) => canAccessFarm(user, f)),
    archived: s.archived,
    orderCount: s.orderCount,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    version: s.version,
  };
}

async function visibleSupplier(user: Caller, id: string): Promise<SupplierRecord> {
  const s = await getSupplier(id);
  if (!s || !sees(user, s)) throw supplierNotFound(id);
  return s;
}

/** Farms named in a body must be the caller's (another farm is named exactly like a missing one). */
function ownFarmsOrThrow(user: Caller, farmIds: readonly string[]): void {
  const hidden = farmIds.find((f) => !canAccessFarm(user, f));
  if (hidden) throw farmNotFound(hidden);
}

export async function supplierFor(user: Caller, id: string) {
  return toSupplierDto(await visibleSupplier(user, id), user);
}

export async function listSuppliersFor(user: Caller, query: ListSuppliersQuery) {
  const farmId = farmOfRequest(user, query.farmId);
  const limit = query.limit ?? 25;
  const page = await listSuppliers({ farmId, kind: query.kind, includeArchived: query.includeArchived ?? false }, { limit, cursor: query.cursor });
  return { items: page.items.map((s) => toSupplierDto(s, user)), limit, nextCursor: page.nextCursor };
}

export async function createSupplierFor(user: Caller, body: CreateSupplierBody, requestId: string, idempotencyKey?: string) {
  ownFarmsOrThrow(user, body.farmIds);
  return idempotent(user.id, idempotencyKey, 'supplier', body, async (remember) => {
    const now = new Date().toISOString();
    const supplier: SupplierRecord = {
      id: ulid(),
      name: body.name.trim(),
      kinds: body.kinds,
      contact: body.contact ?? {},
      farmIds: body.farmIds,
      archived: false,
      orderCount: 0,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    const answer = { created: true, message: 'Supplier created', data: toSupplierDto(supplier, user) };
    await createSupplier(supplier, [
      ...remember(answer),
      auditPut({ actorId: user.id, action: 'supplier.create', targetType: 'supplier', targetId: supplier.id, changes: { ...supplier }, requestId }),
    ]);
    return answer;
  });
}

export async function updateSupplierFor(user: Caller, id: string, body: UpdateSupplierBody, precondition: Precondition | undefined, requestId: string) {
  const current = await visibleSupplier(user, id);
  const version = expectedVersion(current.version, { precondition, stated: body.version }, `Supplier ${id}`);
  if (current.archived) throw new Conflict(`Supplier ${id} is archived`);
  if (body.farmIds) ownFarmsOrThrow(user, body.farmIds);
  // the farms the caller cannot see stay as they are; the caller's part of the list is replaced
  const farmIds = body.farmIds ? [...current.farmIds.filter((f) => !canAccessFarm(user, f)), ...body.farmIds] : current.farmIds;
  const next: SupplierRecord = {
    ...current,
    ...(body.name !== undefined ? { name: body.name.trim() } : {}),
    ...(body.kinds !== undefined ? { kinds: body.kinds } : {}),
    ...(body.contact !== undefined ? { contact: body.contact } : {}),
    farmIds,
  };
  const editable = ['name', 'kinds', 'contact', 'farmIds'] as const;
  const changes = Object.fromEntries(
    editable.filter((f) => JSON.stringify(current[f]) !== JSON.stringify(next[f])).map((f) => [f, { from: current[f], to: next[f] }]),
  );
  if (Object.keys(changes).length === 0) return toSupplierDto(current, user);
  const now = new Date().toISOString();
  const fields = Object.fromEntries(Object.keys(changes).map((f) => [f, next[f as keyof SupplierRecord]]));
  const newFarms = farmIds.filter((f) => !current.farmIds.includes(f));
  await updateSupplier(current, version, fields, newFarms, now, [
    auditPut({ actorId: user.id, action: 'supplier.update', targetType: 'supplier', targetId: id, changes, requestId }),
  ]);
  return toSupplierDto({ ...next, updatedAt: now, version: version + 1 }, user);
}

/**
 * Deletes a supplier that never had an order; one with orders is archived instead (kept for their history
 * and its reliability, takes no new orders). The caller must see every farm it serves.
 */
export async function deleteSupplierFor(user: Caller, id: string, precondition: Precondition | undefined, requestId: string) {
  const current = await visibleSupplier(user, id);
  const version = expectedVersion(current.version, { precondition }, `Supplier ${id}`);
  if (current.farmIds.some((f) => !canAccessFarm(user, f)))
    throw new Conflict(`Supplier ${id} also serves farms you cannot see; remove your farms from its farmIds instead`);
  if (current.orderCount === 0) {
    await deleteSupplier(current, version, [
      auditPut({ actorId: user.id, action: 'supplier.delete', targetType: 'supplier', targetId: id, changes: { ...current }, requestId }),
    ]);
    return { deleted: true as const };
  }
  if (current.archived) throw new Conflict(`Supplier ${id} is already archived`);
  const now = new Date().toISOString();
  await updateSupplier(current, version, { archived: true }, [], now, [
    auditPut({
      actorId: user.id,
      action: 'supplier.archive',
      targetType: 'supplier',
      targetId: id,
      changes: { archived: { from: false, to: true } },
      requestId,
    }),
  ]);
  return { deleted: false as const, supplier: toSupplierDto({ ...current, archived: true, updatedAt: now, version: version + 1 }, user) };
}

// ---------------------------------------------------------------------------------------------------
// Purchase orders

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

const toReceiptDto = (r: ReceiptRecord) => ({
  id: r.id,
  orderId: r.orderId,
  date: r.date,
  lines: r.lines,
  notes: r.notes,
  receivedBy: r.receivedBy,
  createdAt: r.createdAt,
});

/** The farm's calendar date at an instant (its IANA time zone): an order's and a receipt's dates are the farm's, as its schedules'. */
async function farmDate(farmId: string, at: string): Promise<string> {
  return localToday(new Date(at), (await getFarm(farmId))?.timezone ?? 'UTC');
}

async function visibleOrder(user: Caller, id: string) {
  const found = await getOrderWithReceipts(id);
  if (!found || !canAccessFarm(user, found.order.farmId)) throw orderNotFound(id);
  return found;
}

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
  const s = await getSupplier(supplierId);
  if (!s || !sees(user, s)) throw supplierNotFound(supplierId);
  if (s.archived) throw new Conflict(`Supplier ${supplierId} is archived; it takes no new orders`);
  if (!s.farmIds.includes(farmId)) throw new ValidationFailed([{ field: 'supplierId', message: `supplier ${supplierId} does not serve farm ${farmId}` }]);
  const problems = lineProblems(lines, s.kinds);
  if (problems.length) throw new ValidationFailed(problems);
  return s;
}

export async function createOrderFor(user: Caller, body: CreateOrderBody, requestId: string, idempotencyKey?: string) {
  const farmId = farmOfRequest(user, body.farmId);
  return idempotent(user.id, idempotencyKey, `purchase-order:${farmId}`, body, async (remember) => {
    await supplierForOrder(user, body.supplierId, farmId, body.lines);
    const now = new Date().toISOString();
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
      createdBy: user.id,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    const answer = { created: true, message: 'Purchase order drafted', data: toOrderDto(order) };
    await createOrder(order, [
      ...remember(answer),
      auditPut({ actorId: user.id, action: 'purchase_order.create', targetType: 'purchase_order', targetId: order.id, changes: toOrderDto(order), requestId }),
    ]);
    return answer;
  });
}

export async function updateOrderFor(user: Caller, id: string, body: UpdateOrderBody, precondition: Precondition | undefined, requestId: string) {
  const { order } = await visibleOrder(user, id);
  const version = expectedVersion(order.version, { precondition, stated: body.version }, `Purchase order ${id}`);
  if (order.status !== 'draft') throw new Conflict(`Purchase order ${id} is ${order.status}; only a draft can be changed`);
  if (body.lines) await supplierForOrder(user, order.supplierId, order.farmId, body.lines);
  const fields: Partial<OrderRecord> = {
    ...(body.lines ? { lines: linesOf(body.lines) } : {}),
    ...(body.expectedDate !== undefined ? { expectedDate: body.expectedDate } : {}),
    ...(body.allowOverDelivery !== undefined ? { allowOverDelivery: body.allowOverDelivery } : {}),
    ...(body.notes !== undefined ? { notes: body.notes?.trim() ?? null } : {}),
  };
  const changes = Object.fromEntries(Object.entries(fields).map(([f, to]) => [f, { from: order[f as keyof OrderRecord], to }]));
  const now = new Date().toISOString();
  await updateOrder(order, version, fields, now, [
    auditPut({ actorId: user.id, action: 'purchase_order.update', targetType: 'purchase_order', targetId: id, changes, requestId }),
  ]);
  return toOrderDto({ ...order, ...fields, updatedAt: now, version: version + 1 });
}

/** place (draft → ordered, stamps orderedAt; the expected date may not be past) or cancel; an illegal move is a Conflict naming the status. */
export async function actOnOrder(
  user: Caller,
  id: string,
  action: OrderAction,
  body: OrderActionBody,
  precondition: Precondition | undefined,
  requestId: string,
  idempotencyKey?: string,
) {
  await visibleOrder(user, id);
  return idempotent(user.id, idempotencyKey, `purchase-order-${action}:${id}`, body, async (remember) => {
    const { order } = await visibleOrder(user, id);
    const version = expectedVersion(order.version, { precondition, stated: body.version }, `Purchase order ${id}`);
    const move = transition(order.status, action);
    if ('refused' in move) throw new Conflict(move.refused);
    const now = new Date().toISOString();
    if (action === 'place' && order.expectedDate < (await farmDate(order.farmId, now)))
      throw new ValidationFailed([{ field: 'expectedDate', message: `${order.expectedDate} is past; change the draft's expected date first` }]);
    const fields: Partial<OrderRecord> = { status: move.to, ...(action === 'place' ? { orderedAt: now } : { cancelledAt: now }) };
    const answer = {
      created: false,
      message: action === 'place' ? 'Purchase order placed' : 'Purchase order cancelled',
      data: toOrderDto({ ...order, ...fields, updatedAt: now, version: version + 1 }),
    };
    await updateOrder(order, version, fields, now, [
      ...remember(answer),
      auditPut({
        actorId: user.id,
        action: `purchase_order.${action}`,
        targetType: 'purchase_order',
        targetId: id,
        changes: { status: { from: order.status, to: move.to }, ...(body.note ? { note: body.note } : {}) },
        requestId,
      }),
    ]);
    return answer;
  });
}

// ---------------------------------------------------------------------------------------------------
// Receipts

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
  const flock = await getFlock(flockId);
  if (!flock || flock.farmId !== farmId || !canAccessFarm(user, farmId)) throw flockNotFound(flockId);
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
export async function receiveOrder(user: Caller, orderId: string, body: CreateReceiptBody, requestId: string, idempotencyKey?: string) {
  await visibleOrder(user, orderId);
  return idempotent(user.id, idempotencyKey, `receipt:${orderId}`, body, (remember) => receive(user, orderId, body, requestId, remember));
}

/** A receipt's movements, each checked with its type's own schema. */
const RECEIPT_MOVEMENT_BODIES = {
  feed_delivery: feedDeliveryMovementBody,
  bird_inflow: birdInflowMovementBody,
  medicine_delivery: medicineDeliveryMovementBody,
} as const;

async function receive(user: Caller, orderId: string, body: CreateReceiptBody, requestId: string, remember: Remember) {
  const { order } = await visibleOrder(user, orderId);
  if (!receivable(order.status))
    throw new Conflict(`Purchase order ${orderId} is ${order.status}; goods are received on an ordered or partially received order`);
  const applied = applyReceipt(order.lines, body.lines, order.allowOverDelivery);
  if ('problems' in applied) throw new ValidationFailed(applied.problems);
  const now = new Date().toISOString();
  const receiptId = ulid();
  const latest = latestAllowedDate(new Date());
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
    const cycle = await targetCycle(user, order.farmId, r.flockId, `lines.${i}.flockId`);
    const left = outstanding(line);
    const input: Extract<MovementInput, { type: keyof typeof RECEIPT_MOVEMENT_BODIES }> =
      line.itemKind === 'feed'
        ? {
            type: 'feed_delivery',
            date: body.date,
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
          }
        : line.itemKind === 'chicks'
          ? { type: 'bird_inflow', date: body.date, quantity: r.quantity, supplierId: order.supplierId, unitCost: line.unitPrice }
          : {
              type: 'medicine_delivery',
              date: body.date,
              product: line.product!,
              quantity: r.quantity,
              unit: line.unit as MedicineUnit,
              supplierId: order.supplierId,
              orderId: order.id,
              unitPrice: line.unitPrice,
              ...(r.lotNumber ? { lotNumber: r.lotNumber } : {}),
            };
    const found = [...problemsOf(RECEIPT_MOVEMENT_BODIES[input.type], input), ...movementProblems(input, cycle, latest)];
    problems.push(...found.map((p) => ({ field: `lines.${i}.${p.field}`, message: p.message })));
    const ref = refOf(cycle);
    const m = record(input, ref, user.id, now, { receiptId });
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
    receivedBy: user.id,
    createdAt: now,
  };
  const fields: Partial<OrderRecord> = { lines: applied.lines, status: applied.status, ...(applied.status === 'received' ? { receivedAt: now } : {}) };
  const updated = { ...order, ...fields, updatedAt: now, version: order.version + 1 };
  // chicks entering a house: a warning (never a refusal) when they would put it above the stocking density limit
  const warnings = (await Promise.all([...placed.values()].map((p) => densityWarnings(p.cycle, p.birds, body.date)))).flat();
  const answer = {
    created: true,
    message: 'Goods received',
    data: { order: toOrderDto(updated), receipt: toReceiptDto(receipt) },
    ...(warnings.length ? { warnings } : {}),
  };
  const stored = remember(answer);
  const extra: TransactItem[] = [
    orderUpdate(order, order.version, fields, now),
    receiptPut(receipt),
    auditPut({
      actorId: user.id,
      action: 'purchase_order.receive',
      targetType: 'purchase_order',
      targetId: orderId,
      changes: { receiptId, status: { from: order.status, to: applied.status }, lines: body.lines, movementIds: movements.map((m) => m.id) },
      requestId,
    }),
    ...stored,
  ];
  await refusedToConflict(
    applyLedger({
      groups: [...deltas.values()].map((g) => ({ ref: g.ref, changes: netChanges(g.deltas) })),
      puts: movements,
      extra,
      onExtraFailed: (i) =>
        i === 0 ? orderChanged(orderId) : i >= 3 ? new DuplicateRequest() : new Conflict('The receipt conflicts with a concurrent change; retry'),
    }),
  );
  for (const flockId of flocks) await alarmsOnFlockData({ farmId: order.farmId, flockId }, body.date);
  return answer;
}

// ---------------------------------------------------------------------------------------------------
// Reliability

/**
 * A supplier's reliability over its feed receipts of the farms the caller sees: the analytics' own
 * `supplierReliability` (the same code and figures as GET /api/v2/analytics/cycle/{flockId}/{cycleId}/suppliers),
 * and the fill rate of the orders those receipts belong to.
 */
export async function supplierReliabilityFor(user: Caller, supplierId: string) {
  const supplier = await visibleSupplier(user, supplierId);
  const [receipts, config] = await Promise.all([feedReceiptsOfSupplier(supplierId), currentAnalyticsConfig()]);
  const mine = receipts.filter((r) => canAccessFarm(user, r.farmId));
  const facts = mine.flatMap((r) => r.deliveries);
  const report = supplierReliability(facts, { currency: config.config.pricing.currency });
  const entry = report.suppliers.find((s) => s.supplierId === supplierId) ?? null;
  const orders = await getOrders([...new Set(mine.map((r) => r.orderId))]);
  const fill = fillRate(orders.flatMap((o) => o.lines.filter((l) => l.itemKind === 'feed')));
  const none = 'no feed receipt';
  return {
    supplierId,
    farmIds: supplier.farmIds.filter((f) => canAccessFarm(user, f)),
    receipts: facts.length,
    onTimeRatePct: entry?.onTime.ratePct ?? missing('%', none),
    fillRatePct: fill.pct === null ? missing('%', none) : figure(fill.pct, '%', 2),
    qualityIssueRatePct: entry?.quality.issueRatePct ?? missing('%', none),
    fill: {
      orderedKg: fill.orderedKg,
      receivedKg: fill.receivedKg,
      lines: orders.reduce((a, o) => a + o.lines.filter((l) => l.itemKind === 'feed').length, 0),
    },
    score: entry?.score ?? missing('index', none),
    reliability: entry,
  };
}

// ---------------------------------------------------------------------------------------------------
// Reorder suggestions

/** Days between ordering and delivery the suggestions assume when the supplier has no lead time on record. */
export const DEFAULT_LEAD_DAYS = 3;
const TREND_DAYS = 3;

/**
 * One suggestion per feed type the farm stocks or consumed in the last 3 days, when its stock will not
 * last the lead time plus `coverDays`: a draft order body and the reasoning. Writes nothing.
 */
export async function reorderSuggestionsFor(user: Caller, query: SuggestionsQuery) {
  const farmId = farmOfRequest(user, query.farmId);
  const coverDays = query.coverDays ?? 14;
  const now = today();
  const from = addDays(now, -TREND_DAYS);
  const to = addDays(now, -1);
  const [{ farmExists, feed: forecast }, stock, consumed, orders] = await Promise.all([
    farmWithForecast(farmId),
    farmStock(farmId),
    exportFarmMovements({ farmId, type: 'feed_consumption', from, to, order: 'asc' }, 10_000, 50_000),
    ordersOfFarm(farmId),
  ]);
  if (!farmExists) throw farmNotFound(farmId);
  const used = new Map<string, number>();
  for (const m of consumed.items) {
    const t = String(m.fields.feedType ?? '');
    used.set(t, (used.get(t) ?? 0) + Number(m.fields.quantityKg ?? 0));
  }
  const types = new Set([...stock.feed.map((f) => f.feedType), ...used.keys()].filter(Boolean));
  const suggestions = [];
  for (const feedType of [...types].sort()) {
    const stockKg = round(stock.feed.find((f) => f.feedType === feedType)?.kg ?? 0, 3);
    const dailyKg = round((used.get(feedType) ?? 0) / TREND_DAYS, 3);
    const predicted = forecast?.stock.byType.find((b) => b.feedType === feedType)?.runOutDate ?? null;
    const { quantityKg, daysOfStock } = reorder({ stockKg, dailyKg, leadDays: DEFAULT_LEAD_DAYS, coverDays });
    if (quantityKg <= 0) continue;
    const trendRunOut = daysOfStock === null ? null : addDays(now, Math.floor(daysOfStock));
    const runOutDate = predicted ?? trendRunOut;
    const last = orders.find((o) => o.status !== 'cancelled' && o.lines.some((l) => l.itemKind === 'feed' && l.feedType === feedType));
    const lastLine = last?.lines.find((l) => l.itemKind === 'feed' && l.feedType === feedType);
    const leadDate = addDays(now, DEFAULT_LEAD_DAYS);
    const expectedDate = runOutDate && runOutDate < leadDate ? (runOutDate > now ? runOutDate : addDays(now, 1)) : leadDate;
    suggestions.push({
      feedType,
      stockKg,
      dailyConsumptionKg: dailyKg,
      runOutDate,
      runOutSource: predicted ? ('forecast' as const) : ('trend' as const),
      order: {
        farmId,
        supplierId: last?.supplierId ?? null,
        lines: [{ itemKind: 'feed' as const, feedType, quantity: quantityKg, unit: 'kg' as const, unitPrice: lastLine?.unitPrice ?? 0 }],
        expectedDate,
      },
      reasoning: [
        `${stockKg} kg of ${feedType} in stock; ${dailyKg} kg/day consumed on average from ${from} to ${to}`,
        predicted
          ? `the predictive feed forecast of ${forecast!.asOf} expects it to run out on ${predicted}`
          : `at that rate it runs out on ${trendRunOut} (${daysOfStock} days); no predictive forecast for it`,
        `ordering ${quantityKg} kg covers ${coverDays} days of use after a ${DEFAULT_LEAD_DAYS}-day lead time, less what will be left then (rounded up to 100 kg)`,
        last ? `supplier and price from the last order of ${feedType} (${last.id})` : 'no earlier order of this feed: choose a supplier and price',
      ],
    });
  }
  return { farmId, asOf: new Date().toISOString(), coverDays, suggestions };
}

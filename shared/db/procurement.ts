import { farmPricingKeys, farmPricingReadIn, type FarmPricingRead } from './farm-pricing.js';
import { batchGet, queryAll, tableName } from './client.js';
import type { Versioned, Write } from './commit.js';
import { absent, all, any, contains, exists, isNew, ne, absentOr } from './conditions.js';
import {
  farmKey,
  purchaseOrderKey,
  purchaseOrderPartition,
  purchaseOrdersOfFarm,
  RECEIPT_SK_PREFIX,
  receiptKey,
  receiptsOfSupplier,
  SUPPLIERS,
  supplierKey,
} from './keys.js';
import { gsi1Page, queryPage } from './pagination.js';
import { pick } from './items.js';
import { farmNotFound } from '../domain/references.js';
import { Conflict } from '../errors.js';
import type { OrderRecord, ReceiptRecord, SupplierRecord } from '../domain/procurement/records.js';
import type { OrderStatus } from '../../schemas/procurement.js';

/**
 * Procurement (docs/data-model.md, "Procurement"): `SUPPLIER#<id>`/`META` (all suppliers on GSI1
 * `SUPPLIERS` by name), `PORDER#<id>`/`META` (a farm's orders on GSI1 `PORDERS#<farmId>`, newest first)
 * with its receipts `RECEIPT#<ulid>` in the same partition; a receipt with feed lines is also on GSI2
 * `SUPPLIERRECEIPTS#<supplierId>` carrying the delivery facts supplier reliability reads.
 */
const SUPPLIER_FIELDS = [
  'id',
  'name',
  'kinds',
  'contact',
  'farmIds',
  'archived',
  'orderCount',
  'createdAt',
  'updatedAt',
  'version',
] as const satisfies readonly (keyof SupplierRecord)[];
const ORDER_FIELDS = [
  'id',
  'farmId',
  'supplierId',
  'status',
  'lines',
  'currency',
  'expectedDate',
  'allowOverDelivery',
  'notes',
  'orderedAt',
  'receivedAt',
  'cancelledAt',
  'createdBy',
  'createdAt',
  'updatedAt',
  'version',
] as const satisfies readonly (keyof OrderRecord)[];
const RECEIPT_FIELDS = [
  'id',
  'orderId',
  'farmId',
  'supplierId',
  'date',
  'lines',
  'deliveries',
  'notes',
  'receivedBy',
  'createdAt',
] as const satisfies readonly (keyof ReceiptRecord)[];

const supplierChanged = (id: string) => new Conflict(`Supplier ${id} was changed concurrently; read it again and retry`);
const orderChanged = (id: string) => new Conflict(`Purchase order ${id} was changed concurrently; read it again and retry`);

export const supplierFromItem = (item: Record<string, unknown> | undefined): SupplierRecord | undefined =>
  item ? { ...pick<SupplierRecord>(item, SUPPLIER_FIELDS), archived: item.archived === true, orderCount: Number(item.orderCount ?? 0) } : undefined;
const orderFromItem = (item: Record<string, unknown> | undefined): OrderRecord | undefined => (item ? pick<OrderRecord>(item, ORDER_FIELDS, null) : undefined);
const receiptFromItem = (item: Record<string, unknown>): ReceiptRecord => pick<ReceiptRecord>(item, RECEIPT_FIELDS, null);

const supplierSortKey = (s: Pick<SupplierRecord, 'name' | 'id'>) => `${s.name.toLowerCase()}#${s.id}`;
const supplierItem = (s: SupplierRecord) => ({ ...supplierKey(s.id), ...SUPPLIERS, GSI1SK: supplierSortKey(s), type: 'Supplier', ...s });
const orderItem = (o: OrderRecord) => ({
  ...purchaseOrderKey(o.id),
  ...purchaseOrdersOfFarm(o.farmId),
  GSI1SK: `${o.createdAt}#${o.id}`,
  type: 'PurchaseOrder',
  ...o,
});

export async function getSupplier(id: string): Promise<SupplierRecord | undefined> {
  const [item] = await batchGet([supplierKey(id)], { consistent: true });
  return supplierFromItem(item);
}

/** A supplier and a purchase order by id (either may be left out), in one BatchGetItem: the references a delivery names. */
export async function getSupplierAndOrder(supplierId?: string, orderId?: string): Promise<{ supplier?: SupplierRecord; order?: OrderRecord }> {
  const keys = [...(supplierId ? [supplierKey(supplierId)] : []), ...(orderId ? [purchaseOrderKey(orderId)] : [])];
  if (keys.length === 0) return {};
  const items = await batchGet(keys, { consistent: true });
  return {
    supplier: supplierFromItem(items.find((i) => i.type === 'Supplier' && i.id === supplierId)),
    order: orderFromItem(items.find((i) => i.type === 'PurchaseOrder' && i.id === orderId)),
  };
}

/** A supplier, the time zone of the farm an order is for and what the farm's prices come from (its currency), in one BatchGetItem. */
export async function getSupplierAndFarmZone(
  supplierId: string,
  farmId: string,
): Promise<{ supplier?: SupplierRecord; timeZone?: string; pricing: FarmPricingRead }> {
  const items = await batchGet([supplierKey(supplierId), farmKey(farmId), ...farmPricingKeys(farmId)], { consistent: true });
  const farm = items.find((i) => i.type === 'Farm' && i.id === farmId);
  return {
    supplier: supplierFromItem(items.find((i) => i.type === 'Supplier' && i.id === supplierId)),
    timeZone: typeof farm?.timezone === 'string' ? farm.timezone : undefined,
    pricing: farmPricingReadIn(items, farmId),
  };
}

/** The time zone of an order's farm and what its prices come from (its currency), in one BatchGetItem: what a receipt is dated and priced by. */
export async function farmZoneAndPricing(farmId: string): Promise<{ timeZone?: string; pricing: FarmPricingRead }> {
  const items = await batchGet([farmKey(farmId), ...farmPricingKeys(farmId)], { consistent: true });
  const farm = items.find((i) => i.type === 'Farm' && i.id === farmId);
  return { timeZone: typeof farm?.timezone === 'string' ? farm.timezone : undefined, pricing: farmPricingReadIn(items, farmId) };
}

/** A farm the write names still exists when it commits (a ConditionCheck). */
const farmExists = (farmId: string): Write => ({ check: farmKey(farmId), when: exists(), failed: () => farmNotFound(farmId) });

/** The supplier's version a change was decided on: what If-Match (and a body's `version`) are compared with. */
export const supplierVersion = (s: SupplierRecord, stated?: number): Versioned => ({ read: s.version, what: `Supplier ${s.id}`, stated, subject: true });

/** The writes of the supplier use cases. */
export const supplierWrites = {
  /** A new supplier: every farm it serves must exist (one ConditionCheck each). */
  create: (s: SupplierRecord): Write[] => [
    ...s.farmIds.map(farmExists),
    { put: supplierItem(s), when: isNew(), failed: () => new Conflict('A supplier with this id already exists') },
  ],
  /** `fields` at the version read (a rename also moves it in the list); farms it newly serves must exist. */
  update: (current: SupplierRecord, fields: Partial<SupplierRecord>, newFarms: readonly string[] = [], stated?: number): Write[] => [
    ...newFarms.map(farmExists),
    {
      update: supplierKey(current.id),
      set: { ...fields, ...(fields.name !== undefined ? { GSI1SK: supplierSortKey({ name: fields.name, id: current.id }) } : {}) },
      version: supplierVersion(current, stated),
      failed: () => supplierChanged(current.id),
    },
  ],
  /** Deletes a supplier that never had an order, at the version read (an order created meanwhile makes it a Conflict). */
  delete: (current: SupplierRecord): Write => ({
    delete: supplierKey(current.id),
    when: absentOr('orderCount', 0),
    version: supplierVersion(current),
    failed: () => supplierChanged(current.id),
  }),
};

/** A page of suppliers by name (one Query on GSI1), optionally only those serving a farm, of a kind, not archived. */
export async function listSuppliers(
  filters: { farmId?: string; kind?: string; includeArchived: boolean },
  opts: { limit: number; cursor?: string },
): Promise<{ items: SupplierRecord[]; nextCursor: string | null }> {
  const values: Record<string, unknown> = { ':pk': SUPPLIERS.GSI1PK };
  const terms: string[] = [];
  if (filters.farmId) {
    values[':farm'] = filters.farmId;
    terms.push('contains(farmIds, :farm)');
  }
  if (filters.kind) {
    values[':kind'] = filters.kind;
    terms.push('contains(kinds, :kind)');
  }
  if (!filters.includeArchived) {
    values[':true'] = true;
    terms.push('(attribute_not_exists(archived) OR archived <> :true)');
  }
  const page = await queryPage(
    {
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ...(terms.length ? { FilterExpression: terms.join(' AND ') } : {}),
      ExpressionAttributeValues: values,
    },
    opts,
  );
  return { items: page.items.map((i) => supplierFromItem(i)!), nextCursor: page.nextCursor };
}

/** The order's version a change was decided on; `subject`: the command's If-Match is about this order. */
export const orderVersion = (o: OrderRecord, stated?: number, subject = true): Versioned => ({
  read: o.version,
  what: `Purchase order ${o.id}`,
  stated,
  subject,
});

/** The writes of the purchase order use cases. */
export const orderWrites = {
  /**
   * A draft order: the farm exists; the supplier exists, is not archived and serves the farm, and counts one
   * more order (so deleting it becomes archiving); the order is new.
   */
  create: (o: OrderRecord): Write[] => [
    farmExists(o.farmId),
    {
      update: supplierKey(o.supplierId),
      add: { orderCount: 1 },
      when: all(exists(), any(absent('archived'), ne('archived', true)), contains('farmIds', o.farmId)),
      failed: () => new Conflict(`Supplier ${o.supplierId} was archived or no longer serves farm ${o.farmId}`),
    },
    { put: orderItem(o), when: isNew(), failed: () => new Conflict('A purchase order with this id already exists') },
  ],
  /** `fields` of the order at the version read. */
  update: (current: OrderRecord, fields: Partial<OrderRecord>, version: Versioned = orderVersion(current)): Write => ({
    update: purchaseOrderKey(current.id),
    set: fields,
    version,
    failed: () => orderChanged(current.id),
  }),
};

/** The order and its receipts (oldest first): one Query of its partition. */
export async function getOrderWithReceipts(id: string): Promise<{ order: OrderRecord; receipts: ReceiptRecord[] } | undefined> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': purchaseOrderPartition(id) },
    ConsistentRead: true,
  });
  const order = orderFromItem(items.find((i) => i.SK === 'META'));
  if (!order) return undefined;
  return { order, receipts: items.filter((i) => String(i.SK).startsWith(RECEIPT_SK_PREFIX)).map(receiptFromItem) };
}

/** A new receipt (on the supplier's GSI2 list when it has feed deliveries). */
export const receiptWrite = (r: ReceiptRecord): Write => ({
  put: {
    ...receiptKey(r.orderId, r.id),
    ...(r.deliveries.length ? { ...receiptsOfSupplier(r.supplierId), GSI2SK: `${r.date}#${r.id}` } : {}),
    type: 'PurchaseReceipt',
    ...r,
  },
  when: isNew(),
  failed: () => new Conflict('The receipt conflicts with a concurrent change; retry'),
});

/** Every receipt of a supplier that delivered feed (one Query on GSI2), oldest first. */
export async function feedReceiptsOfSupplier(supplierId: string): Promise<ReceiptRecord[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: 'GSI2',
    KeyConditionExpression: 'GSI2PK = :pk',
    ExpressionAttributeValues: { ':pk': receiptsOfSupplier(supplierId).GSI2PK },
  });
  return items.map(receiptFromItem);
}

/** A page of a farm's orders, newest first (one Query on GSI1; status and supplier filter). */
export async function listOrdersOfFarm(
  farmId: string,
  filters: { status?: OrderStatus; supplierId?: string },
  opts: { limit: number; cursor?: string },
): Promise<{ items: OrderRecord[]; nextCursor: string | null }> {
  const page = await gsi1Page(purchaseOrdersOfFarm(farmId), filters, { ...opts, newestFirst: true });
  return { items: page.items.map((i) => orderFromItem(i)!), nextCursor: page.nextCursor };
}

/** Every order of a farm (the suggestions' supplier choice; a farm places a few a month). */
export async function ordersOfFarm(farmId: string): Promise<OrderRecord[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': purchaseOrdersOfFarm(farmId).GSI1PK },
    ScanIndexForward: false,
  });
  return items.map((i) => orderFromItem(i)!);
}

/** Orders by id (one BatchGetItem per 100): the orders behind a supplier's receipts. */
export async function getOrders(ids: readonly string[]): Promise<OrderRecord[]> {
  if (ids.length === 0) return [];
  const items = await batchGet(ids.map((id) => purchaseOrderKey(id)));
  return items.map((i) => orderFromItem(i)!);
}

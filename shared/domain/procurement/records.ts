import type { FeedDeliveryFact } from '../analytics/suppliers.js';
import type { OrderStatus, OrderUnit, SupplierKind } from '../../../schemas/procurement.js';

/** Procurement's records as stored and decided on (keys and items: shared/db/procurement.ts). */
export interface SupplierRecord {
  id: string;
  name: string;
  kinds: SupplierKind[];
  contact: { person?: string; email?: string; phone?: string; address?: string };
  farmIds: string[];
  archived: boolean;
  orderCount: number;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export interface OrderLineRecord {
  id: string;
  itemKind: SupplierKind;
  feedType: string | null;
  product: string | null;
  quantity: number;
  unit: OrderUnit;
  unitPrice: number;
  receivedQuantity: number;
}

export interface OrderRecord {
  id: string;
  farmId: string;
  supplierId: string;
  status: OrderStatus;
  lines: OrderLineRecord[];
  /** ISO 4217 currency of the line prices; null or absent: drafted before orders recorded one (its farm's currency). */
  currency?: string | null;
  expectedDate: string;
  allowOverDelivery: boolean;
  notes: string | null;
  orderedAt: string | null;
  receivedAt: string | null;
  cancelledAt: string | null;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export interface ReceiptLineRecord {
  lineId: string;
  quantity: number;
  flockId: string | null;
  cycleId: string | null;
  movementId: string | null;
  lotNumber: string | null;
  qualityIssues: string[];
}

export interface ReceiptRecord {
  id: string;
  orderId: string;
  farmId: string;
  supplierId: string;
  date: string;
  lines: ReceiptLineRecord[];
  /** The supplier facts of its feed lines, exactly as written on their feed_delivery movements. */
  deliveries: FeedDeliveryFact[];
  notes: string | null;
  receivedBy: string;
  createdAt: string;
}

import { NotFound, ValidationFailed } from '../errors.js';

/**
 * The records a request body names by id belong to the farm the request acts on; anything else — another
 * farm's record or a made-up id — is the same 404 as a missing record, naming the id
 * (docs/decisions.md, "References in bodies").
 */
export const farmNotFound = (farmId: string) => new NotFound(`Farm ${farmId} not found`);
export const houseNotFound = (houseId: string) => new NotFound(`House ${houseId} not found`);
export const flockNotFound = (flockId: string) => new NotFound(`Flock ${flockId} not found`);
/** The one answer for a house that does not exist AND for a house of a farm the caller may not see. */
export const cycleNotFound = (flockId: string, cycleId: string) => new NotFound(`Cycle ${cycleId} of flock ${flockId} not found`);
export const supplierNotFound = (id: string) => new NotFound(`Supplier ${id} not found`);
export const orderNotFound = (id: string) => new NotFound(`Purchase order ${id} not found`);
export const equipmentNotFound = (id: string) => new NotFound(`Equipment ${id} not found`);
export const userNotFound = (userId: string) => new NotFound(`User ${userId} not found`);

/**
 * A user a record is assigned to (an incident's assignee, a schedule's) must see the farm: an admin or a
 * user of the farm. Anyone else, like a missing user (`undefined` as read), is the 404 naming the id.
 */
export function assigneeOrThrow(farmId: string, userId: string | null | undefined, user: { role: string; farmIds: readonly string[] } | undefined): void {
  if (userId === undefined || userId === null) return;
  if (!user || !(user.role === 'admin' || user.farmIds.includes(farmId))) throw userNotFound(userId);
}

/**
 * The supplier and purchase order a delivery names (either may be absent), as read: a supplier serving
 * the farm, an order of the farm, and, when both are named, the order is with that supplier (else 400).
 */
export function judgeDeliveryReferences(
  farmId: string,
  refs: { supplierId?: unknown; orderId?: unknown },
  found: { supplier?: { farmIds: readonly string[] } | undefined; order?: { farmId: string; supplierId: string } | undefined },
): void {
  const { supplierId, orderId } = deliveryReferenceIds(refs);
  const { supplier, order } = found;
  if (supplierId && !supplier?.farmIds.includes(farmId)) throw supplierNotFound(supplierId);
  if (orderId && order?.farmId !== farmId) throw orderNotFound(orderId);
  if (supplierId && order && order.supplierId !== supplierId)
    throw new ValidationFailed([{ field: 'orderId', message: `is an order with supplier ${order.supplierId}, not with supplierId ${supplierId}` }]);
}

/** The ids of the supplier and order a body names, when they are strings. */
export function deliveryReferenceIds(refs: { supplierId?: unknown; orderId?: unknown }) {
  return {
    supplierId: typeof refs.supplierId === 'string' ? refs.supplierId : undefined,
    orderId: typeof refs.orderId === 'string' ? refs.orderId : undefined,
  };
}

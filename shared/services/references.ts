import { getCycle } from '../db/cycles.js';
import type { CycleRecord } from '../domain/flocks/records.js';
import { getFlock } from '../db/flocks.js';
import type { FlockRecord } from '../domain/flocks/records.js';
import { getSupplierAndOrder } from '../db/procurement.js';
import { cycleNotFound, deliveryReferenceIds, flockNotFound, judgeDeliveryReferences, userNotFound } from '../domain/references.js';

/**
 * The records a request body names by id. Each one must belong to the farm the request acts on (the
 * caller's, already scoped); anything else — another farm's record or a made-up id — is refused with the
 * same 404 as a missing record, naming the id, so a body reveals nothing a random id would not
 * (docs/decisions.md, "References in bodies"; checked for every `…Id` field of every body schema by
 * tests/security/body-references.test.ts). Services that already read the record with others in one
 * batch throw the same errors from here.
 */
export { flockNotFound, cycleNotFound, userNotFound };

/** A flock of the farm. */
export async function flockOfFarm(farmId: string, flockId: string): Promise<FlockRecord> {
  const flock = await getFlock(flockId);
  if (flock?.farmId !== farmId) throw flockNotFound(flockId);
  return flock;
}

/** A cycle of the flock (so of its farm). */
export async function cycleOfFlock(flock: Pick<FlockRecord, 'id' | 'farmId'>, cycleId: string): Promise<CycleRecord> {
  const cycle = await getCycle(flock.id, cycleId);
  if (cycle?.farmId !== flock.farmId) throw cycleNotFound(flock.id, cycleId);
  return cycle;
}

/**
 * The supplier and purchase order a delivery names (either may be absent): a supplier serving the farm, an
 * order of the farm, and, when both are named, the order is with that supplier (400 otherwise). One read.
 */
export async function checkDeliveryReferences(farmId: string, refs: { supplierId?: unknown; orderId?: unknown }): Promise<void> {
  const { supplierId, orderId } = deliveryReferenceIds(refs);
  if (!supplierId && !orderId) return;
  judgeDeliveryReferences(farmId, refs, await getSupplierAndOrder(supplierId, orderId));
}

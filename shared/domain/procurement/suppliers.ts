import { ulid } from 'ulidx';
import { Conflict } from '../../errors.js';
import type { Caller } from '../caller.js';
import { recordChange, type AuditEvent, type ResourceChange } from '../decision.js';
import { canAccessFarm, visibleTo } from '../farm-access.js';
import { farmNotFound, supplierNotFound } from '../references.js';
import type { SupplierRecord } from './records.js';
import type { CreateSupplierBody, UpdateSupplierBody } from '../../../schemas/procurement.js';

/**
 * Suppliers, decided without I/O. A supplier is seen by the users of a farm it serves; the farms it
 * serves that the caller cannot see are neither shown nor changed by the caller (docs/decisions.md,
 * "Procurement").
 */

const EDITABLE = ['name', 'kinds', 'contact', 'farmIds'] as const;

/** The farm through which the caller sees a supplier: the first it serves that the caller may see. */
const farmSeenBy =
  (caller: Pick<Caller, 'allFarms' | 'farmIds'>) =>
  (s: SupplierRecord): string =>
    s.farmIds.find((f) => canAccessFarm(caller, f)) ?? '';

/** A supplier as the caller may see it (one serving none of the caller's farms is the 404 of a missing one). */
export const seenSupplier = (caller: Pick<Caller, 'allFarms' | 'farmIds'>, id: string, s: SupplierRecord | undefined): SupplierRecord =>
  visibleTo(caller, s, () => supplierNotFound(id), farmSeenBy(caller));

/** Farms named in a body must be the caller's (another farm is named exactly like a missing one). */
export function ownFarmsOrThrow(caller: Caller, farmIds: readonly string[]): void {
  const hidden = farmIds.find((f) => !canAccessFarm(caller, f));
  if (hidden) throw farmNotFound(hidden);
}

const supplierChange = (s: SupplierRecord, op: ResourceChange['op'] = 'upsert'): ResourceChange =>
  op === 'delete' ? { type: 'supplier', id: s.id, op, farmIds: s.farmIds } : { type: 'supplier', id: s.id, op, version: s.version, farmIds: s.farmIds };

export function decideSupplierCreate(caller: Caller, body: CreateSupplierBody, now: Date) {
  ownFarmsOrThrow(caller, body.farmIds);
  const at = now.toISOString();
  const supplier: SupplierRecord = {
    id: ulid(),
    name: body.name.trim(),
    kinds: body.kinds,
    contact: body.contact ?? {},
    farmIds: body.farmIds,
    archived: false,
    orderCount: 0,
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
  const audit: AuditEvent[] = [{ action: 'supplier.create', targetType: 'supplier', targetId: supplier.id, changes: { ...supplier } }];
  return { supplier, audit, changes: [supplierChange(supplier)] };
}

/** An edit of the caller's part of a supplier (its version already compared with the client's). */
export function decideSupplierUpdate(caller: Caller, current: SupplierRecord, body: UpdateSupplierBody, now: Date) {
  if (current.archived) throw new Conflict(`Supplier ${current.id} is archived`);
  if (body.farmIds) ownFarmsOrThrow(caller, body.farmIds);
  // the farms the caller cannot see stay as they are; the caller's part of the list is replaced
  const farmIds = body.farmIds ? [...current.farmIds.filter((f) => !canAccessFarm(caller, f)), ...body.farmIds] : current.farmIds;
  const edited: SupplierRecord = {
    ...current,
    ...(body.name !== undefined ? { name: body.name.trim() } : {}),
    ...(body.kinds !== undefined ? { kinds: body.kinds } : {}),
    ...(body.contact !== undefined ? { contact: body.contact } : {}),
    farmIds,
  };
  const change = recordChange(current, edited, EDITABLE, now);
  const { next, changes } = change;
  return {
    change,
    /** Farms it newly serves: each must exist when the change commits. */
    newFarms: farmIds.filter((f) => !current.farmIds.includes(f)),
    audit: [{ action: 'supplier.update', targetType: 'supplier', targetId: current.id, changes }] as AuditEvent[],
    changes: [supplierChange(next)],
  };
}

/**
 * Removing a supplier: deleted when it never had an order, archived otherwise (kept for the history of
 * its orders and its reliability; it takes no new orders). The caller must see every farm it serves.
 */
export function decideSupplierRemoval(caller: Caller, current: SupplierRecord, now: Date) {
  if (current.farmIds.some((f) => !canAccessFarm(caller, f)))
    throw new Conflict(`Supplier ${current.id} also serves farms you cannot see; remove your farms from its farmIds instead`);
  if (current.orderCount === 0)
    return {
      remove: 'delete' as const,
      audit: [{ action: 'supplier.delete', targetType: 'supplier', targetId: current.id, changes: { ...current } }] as AuditEvent[],
      changes: [supplierChange(current, 'delete')],
    };
  if (current.archived) throw new Conflict(`Supplier ${current.id} is already archived`);
  const next: SupplierRecord = { ...current, archived: true, updatedAt: now.toISOString(), version: current.version + 1 };
  return {
    remove: 'archive' as const,
    next,
    audit: [{ action: 'supplier.archive', targetType: 'supplier', targetId: current.id, changes: { archived: { from: false, to: true } } }] as AuditEvent[],
    changes: [supplierChange(next)],
  };
}

import { ulid } from 'ulidx';
import { checkVersion, commit } from '../../db/commit.js';
import { farmNotFound } from '../../db/farms.js';
import { getSupplier, listSuppliers, supplierNotFound, supplierVersion, supplierWrites, type SupplierRecord } from '../../db/procurement.js';
import type { Caller } from '../../domain/caller.js';
import { diff } from '../../domain/changes.js';
import type { CommandContext } from '../../domain/command.js';
import { canAccessFarm, visibleTo } from '../../domain/farm-access.js';
import { Conflict } from '../../errors.js';
import { farmOfRequest } from '../farms.js';
import { idempotentCommand } from '../idempotency.js';
import type { CreateSupplierBody, ListSuppliersQuery, UpdateSupplierBody } from '../../../schemas/procurement.js';

/**
 * Suppliers (`/api/v1/procurement/suppliers`). A supplier is seen by the users of a farm it serves
 * (docs/decisions.md, "Procurement"); the farms it serves that the caller cannot see are neither shown
 * nor changed by the caller.
 */

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

/** The farm through which the caller sees a supplier: the first it serves that the caller may see. */
const farmSeenBy =
  (user: Caller) =>
  (s: SupplierRecord): string =>
    s.farmIds.find((f) => canAccessFarm(user, f)) ?? '';

/** A supplier as the caller may see it (one serving none of the caller's farms is the 404 of a missing one). */
export const seenSupplier = (user: Caller, id: string, s: SupplierRecord | undefined): SupplierRecord =>
  visibleTo(user, s, () => supplierNotFound(id), farmSeenBy(user));

export const visibleSupplier = async (user: Caller, id: string): Promise<SupplierRecord> => seenSupplier(user, id, await getSupplier(id));

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

export async function createSupplierFor(ctx: CommandContext, body: CreateSupplierBody) {
  ownFarmsOrThrow(ctx.caller, body.farmIds);
  return idempotentCommand(ctx, 'supplier', body, async (ctx) => {
    const now = ctx.now.toISOString();
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
    const response = { created: true, message: 'Supplier created', data: toSupplierDto(supplier, ctx.caller) };
    await commit(ctx, {
      writes: supplierWrites.create(supplier),
      audit: [{ action: 'supplier.create', targetType: 'supplier', targetId: supplier.id, changes: { ...supplier } }],
      changes: [{ type: 'supplier', id: supplier.id, op: 'upsert', version: 1 }],
      response,
    });
    return response;
  });
}

const EDITABLE = ['name', 'kinds', 'contact', 'farmIds'] as const;

export async function updateSupplierFor(ctx: CommandContext, id: string, body: UpdateSupplierBody) {
  const { caller } = ctx;
  const current = await visibleSupplier(caller, id);
  // the version first: a stale one is answered as such whatever else is wrong with the change
  checkVersion(ctx, supplierVersion(current, body.version));
  if (current.archived) throw new Conflict(`Supplier ${id} is archived`);
  if (body.farmIds) ownFarmsOrThrow(caller, body.farmIds);
  // the farms the caller cannot see stay as they are; the caller's part of the list is replaced
  const farmIds = body.farmIds ? [...current.farmIds.filter((f) => !canAccessFarm(caller, f)), ...body.farmIds] : current.farmIds;
  const next: SupplierRecord = {
    ...current,
    ...(body.name !== undefined ? { name: body.name.trim() } : {}),
    ...(body.kinds !== undefined ? { kinds: body.kinds } : {}),
    ...(body.contact !== undefined ? { contact: body.contact } : {}),
    farmIds,
  };
  const changes = diff(current, next, EDITABLE);
  if (Object.keys(changes).length === 0) return toSupplierDto(current, caller);
  const fields = Object.fromEntries(Object.keys(changes).map((f) => [f, next[f as keyof SupplierRecord]]));
  const newFarms = farmIds.filter((f) => !current.farmIds.includes(f));
  await commit(ctx, {
    writes: supplierWrites.update(current, fields, newFarms, body.version),
    audit: [{ action: 'supplier.update', targetType: 'supplier', targetId: id, changes }],
    changes: [{ type: 'supplier', id, op: 'upsert', version: current.version + 1 }],
  });
  return toSupplierDto({ ...next, updatedAt: ctx.now.toISOString(), version: current.version + 1 }, caller);
}

/**
 * Deletes a supplier that never had an order; one with orders is archived instead (kept for their history
 * and its reliability, takes no new orders). The caller must see every farm it serves.
 */
export async function deleteSupplierFor(ctx: CommandContext, id: string) {
  const { caller } = ctx;
  const current = await visibleSupplier(caller, id);
  checkVersion(ctx, supplierVersion(current));
  if (current.farmIds.some((f) => !canAccessFarm(caller, f)))
    throw new Conflict(`Supplier ${id} also serves farms you cannot see; remove your farms from its farmIds instead`);
  if (current.orderCount === 0) {
    await commit(ctx, {
      writes: [supplierWrites.delete(current)],
      audit: [{ action: 'supplier.delete', targetType: 'supplier', targetId: id, changes: { ...current } }],
      changes: [{ type: 'supplier', id, op: 'delete' }],
    });
    return { deleted: true as const };
  }
  if (current.archived) throw new Conflict(`Supplier ${id} is already archived`);
  await commit(ctx, {
    writes: supplierWrites.update(current, { archived: true }),
    audit: [{ action: 'supplier.archive', targetType: 'supplier', targetId: id, changes: { archived: { from: false, to: true } } }],
    changes: [{ type: 'supplier', id, op: 'upsert', version: current.version + 1 }],
  });
  return {
    deleted: false as const,
    supplier: toSupplierDto({ ...current, archived: true, updatedAt: ctx.now.toISOString(), version: current.version + 1 }, caller),
  };
}

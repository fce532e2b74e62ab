import { checkVersion, commit } from '../../db/commit.js';
import { getSupplier, listSuppliers, supplierVersion, supplierWrites } from '../../db/procurement.js';
import type { SupplierRecord } from '../../domain/procurement/records.js';
import type { Caller } from '../../domain/caller.js';
import { unchanged } from '../../domain/decision.js';
import { decideSupplierCreate, decideSupplierRemoval, decideSupplierUpdate, ownFarmsOrThrow, seenSupplier } from '../../domain/procurement/suppliers.js';
import type { CommandContext } from '../../domain/command.js';
import { canAccessFarm } from '../../domain/farm-access.js';
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

export const visibleSupplier = async (user: Caller, id: string): Promise<SupplierRecord> => seenSupplier(user, id, await getSupplier(id));

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
    const { supplier, audit, changes } = decideSupplierCreate(ctx.caller, body, ctx.now);
    const response = { created: true, message: 'Supplier created', data: toSupplierDto(supplier, ctx.caller) };
    await commit(ctx, { writes: supplierWrites.create(supplier), audit, changes, response });
    return response;
  });
}

export async function updateSupplierFor(ctx: CommandContext, id: string, body: UpdateSupplierBody) {
  const current = await visibleSupplier(ctx.caller, id);
  // the version first: a stale one is answered as such whatever else is wrong with the change
  checkVersion(ctx, supplierVersion(current, body.version));
  const decision = decideSupplierUpdate(ctx.caller, current, body, ctx.now);
  if (unchanged(decision.change)) return toSupplierDto(current, ctx.caller);
  await commit(ctx, {
    writes: supplierWrites.update(current, decision.change.fields, decision.newFarms, body.version),
    audit: decision.audit,
    changes: decision.changes,
  });
  return toSupplierDto(decision.change.next, ctx.caller);
}

/** Deletes a supplier that never had an order; one with orders is archived instead. */
export async function deleteSupplierFor(ctx: CommandContext, id: string) {
  const current = await visibleSupplier(ctx.caller, id);
  checkVersion(ctx, supplierVersion(current));
  const decision = decideSupplierRemoval(ctx.caller, current, ctx.now);
  const { audit, changes } = decision;
  if (decision.remove === 'delete') {
    await commit(ctx, { writes: [supplierWrites.delete(current)], audit, changes });
    return { deleted: true as const };
  }
  await commit(ctx, { writes: supplierWrites.update(current, { archived: true }), audit, changes });
  return { deleted: false as const, supplier: toSupplierDto(decision.next, ctx.caller) };
}

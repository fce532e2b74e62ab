import type { Caller } from '../../domain/caller.js';
import type { CommandContext } from '../../domain/command.js';
import { canAccessFarm, visibleTo } from '../../domain/farm-access.js';
import {
  decideFarmPricingChange,
  decideFarmPricingRemoval,
  effectivePricing,
  type FarmPricingVersion,
  type PricingOverride,
} from '../../domain/pricing/farm-pricing.js';
import { farmNotFound } from '../../domain/references.js';
import { checkVersion, commit, type Versioned } from '../../db/commit.js';
import { farmPricingWrites, listFarmPricingVersions, readFarmPricing, type FarmPricingRead } from '../../db/farm-pricing.js';
import { Conflict } from '../../errors.js';
import { completeAll } from './config.js';
import type { PutFarmPricingBody } from '../../../schemas/farm-pricing.js';

/**
 * A farm's pricing (`/api/v1/config/farms/{farmId}/pricing`): the farm's override of the analytics
 * configuration's pricing, read with the farm and the configuration in one BatchGetItem, changed by
 * the farm's managers (the routes need `manage_farms`, as the farm's houses do; another farm is 404 like
 * a missing one), versioned with history and audited like the configuration.
 */
export interface FarmPricingState {
  farmId: string;
  override: PricingOverride;
  version: number;
  updatedAt: string | null;
  updatedBy: string | null;
  /** The service's configuration the fallbacks come from. */
  service: ReturnType<typeof completeAll>['pricing'];
  serviceConfigVersion: number;
}

/** The farm's pricing as read, when the caller may see the farm (another farm is NotFound like a missing one; no read for it). */
async function visibleFarmPricing(caller: Caller, farmId: string): Promise<FarmPricingState> {
  const read = canAccessFarm(caller, farmId) ? await readFarmPricing(farmId) : undefined;
  const found = visibleTo(
    caller,
    read?.farm ? read : undefined,
    () => farmNotFound(farmId),
    () => farmId,
  );
  return {
    farmId,
    override: found.stored?.override ?? {},
    version: found.stored?.version ?? 0,
    updatedAt: found.stored?.updatedAt ?? null,
    updatedBy: found.stored?.updatedBy ?? null,
    service: completeAll(found.storedConfig?.config).pricing,
    serviceConfigVersion: found.storedConfig?.version ?? 0,
  };
}

/** A farm's prices in force (its override over the service's pricing) from what was read with the farm. */
export const farmPricesOf = (read: FarmPricingRead) => effectivePricing(completeAll(read.storedConfig?.config).pricing, read.stored?.override).pricing;

export function toFarmPricingDto(s: FarmPricingState) {
  const { pricing, sources, warnings } = effectivePricing(s.service, s.override);
  return {
    farmId: s.farmId,
    currency: pricing.currency,
    override: s.override,
    effective: pricing,
    sources,
    warnings,
    serviceConfigVersion: s.serviceConfigVersion,
    version: s.version,
    updatedAt: s.updatedAt,
    updatedBy: s.updatedBy,
  };
}

export const toFarmPricingVersionDto = (v: FarmPricingVersion) => ({
  version: v.version,
  changedFields: v.changedFields,
  override: v.override,
  updatedAt: v.updatedAt,
  updatedBy: v.updatedBy,
  requestId: v.requestId,
});

export const farmPricingFor = visibleFarmPricing;

/** Commits a decided version of the farm's pricing at the version read; nothing decided: the state read. */
async function commitVersion(
  ctx: CommandContext,
  current: FarmPricingState,
  version: Versioned,
  decision: ReturnType<typeof decideFarmPricingChange>,
): Promise<FarmPricingState> {
  if (!decision) return current;
  const { next } = decision;
  const changed = () =>
    new Conflict(`The pricing of farm ${current.farmId} was changed concurrently (it is no longer at version ${version.read}); read it again and retry`);
  await commit(ctx, { writes: farmPricingWrites(next, version, changed), audit: decision.audit, changes: decision.changes });
  return { ...current, override: next.override, version: next.version, updatedAt: next.updatedAt, updatedBy: next.updatedBy };
}

const versionOf = (s: FarmPricingState, stated: number | undefined): Versioned => ({
  read: s.version,
  what: `The pricing of farm ${s.farmId}`,
  stated,
  subject: true,
});

/** Replaces the farm's override (the fields it names; the rest falls back to the service's pricing) at the version read. */
export async function putFarmPricing(ctx: CommandContext, farmId: string, body: PutFarmPricingBody): Promise<FarmPricingState> {
  const { version: stated, ...given } = body;
  const current = await visibleFarmPricing(ctx.caller, farmId);
  const version = versionOf(current, stated);
  // a stale version answers before the override is judged and before "nothing to change"
  checkVersion(ctx, version);
  const by = { caller: ctx.caller, requestId: ctx.requestId, now: ctx.now };
  return commitVersion(ctx, current, version, decideFarmPricingChange(farmId, current, given, by));
}

/** Removes the farm's override (a new version that sets nothing: the farm takes the service's pricing again). */
export async function removeFarmPricing(ctx: CommandContext, farmId: string): Promise<FarmPricingState> {
  const current = await visibleFarmPricing(ctx.caller, farmId);
  const version = versionOf(current, undefined);
  checkVersion(ctx, version);
  const by = { caller: ctx.caller, requestId: ctx.requestId, now: ctx.now };
  return commitVersion(ctx, current, version, decideFarmPricingRemoval(farmId, current, by));
}

/** Versions of the farm's pricing, newest first (the farm scoped first: another farm is NotFound). */
export async function farmPricingHistory(caller: Caller, farmId: string, query: { limit?: number; cursor?: string }) {
  await visibleFarmPricing(caller, farmId);
  const limit = query.limit ?? 25;
  return { ...(await listFarmPricingVersions(farmId, { limit, cursor: query.cursor })), limit };
}

import { batchGet } from './client.js';
import type { Versioned, Write } from './commit.js';
import { isNew } from './conditions.js';
import { analyticsConfigKey, farmKey, farmPricingHistoryPartition, farmPricingKey, farmPricingVersionKey, type Key } from './keys.js';
import { queryPage } from './pagination.js';
import { farmFromItem } from './farms.js';
import type { FarmPricingVersion, PricingOverride } from '../domain/pricing/farm-pricing.js';
import type { AppError } from '../errors.js';
import type { AnalyticsSections } from '../../schemas/analytics-config.js';

/**
 * A farm's pricing override: the version in force (`FARM#<id>`/`PRICING`) and, written in the same
 * transaction, an immutable copy of every version (`FARM#<id>#PRICING`/`V#<version>`) for the history.
 * No item means the farm has never had one (version 0: the service's pricing).
 */
export const farmPricingFromItem = (item: Record<string, unknown> | undefined): FarmPricingVersion | undefined =>
  item
    ? {
        farmId: String(item.farmId),
        override: (item.override as PricingOverride | undefined) ?? {},
        version: Number(item.version),
        changedFields: (item.changedFields as string[] | undefined) ?? [],
        updatedAt: String(item.updatedAt),
        updatedBy: (item.updatedBy as string | null | undefined) ?? null,
        requestId: (item.requestId as string | null | undefined) ?? null,
      }
    : undefined;

/** The stored analytics configuration as the cycle reads take it (shared/db/analytics.ts): its sections and version. */
export type StoredConfig = { config: Partial<AnalyticsSections>; version: number } | undefined;
const storedConfigOf = (item: Record<string, unknown> | undefined): StoredConfig =>
  item ? { config: item.config as Partial<AnalyticsSections>, version: Number(item.version) } : undefined;

const same = (a: Key) => (i: Record<string, unknown>) => i.PK === a.PK && i.SK === a.SK;

/** The keys of what a farm's prices come from, to add to a BatchGetItem that reads the farm anyway: its override and the analytics configuration. */
export const farmPricingKeys = (farmId: string): Key[] => [farmPricingKey(farmId), analyticsConfigKey()];

/** What a farm's prices come from, in the items of a BatchGetItem that asked for `farmPricingKeys(farmId)`. */
export interface FarmPricingRead {
  stored: FarmPricingVersion | undefined;
  storedConfig: StoredConfig;
}
export const farmPricingReadIn = (items: readonly Record<string, unknown>[], farmId: string): FarmPricingRead => ({
  stored: farmPricingFromItem(items.find(same(farmPricingKey(farmId)))),
  storedConfig: storedConfigOf(items.find(same(analyticsConfigKey()))),
});

/**
 * What a farm's prices are decided from, in ONE strongly consistent BatchGetItem: the farm (does it
 * exist?), its override, and the analytics configuration (the service's pricing it falls back to).
 */
export async function readFarmPricing(farmId: string) {
  const items = await batchGet([farmKey(farmId), ...farmPricingKeys(farmId)], { consistent: true });
  return { farm: items.find(same(farmKey(farmId))), ...farmPricingReadIn(items, farmId) };
}

/**
 * Farms by id with what each one's prices come from, in one BatchGetItem (chunks of 100 keys): the farms
 * that exist (in the order of `ids`), each one's override, and the analytics configuration once.
 */
export async function readFarmsWithPricing(ids: readonly string[]) {
  const items = await batchGet([analyticsConfigKey(), ...ids.flatMap((id) => [farmKey(id), farmPricingKey(id)])], { consistent: true });
  const farms = ids.flatMap((id) => {
    const farm = farmFromItem(items.find(same(farmKey(id))));
    return farm ? [farm] : [];
  });
  const pricing = new Map(ids.map((id) => [id, farmPricingReadIn(items, id)] as const));
  return { farms, pricing, storedConfig: storedConfigOf(items.find(same(analyticsConfigKey()))) };
}

/** The farm's override from the items of a BatchGetItem that asked for its key too (undefined: none). */
export const farmPricingIn = (items: readonly Record<string, unknown>[], farmId: string): FarmPricingVersion | undefined =>
  farmPricingFromItem(items.find(same(farmPricingKey(farmId))));

/**
 * The writes of a new version `next.version`: the version in force, on the condition that the stored one
 * is still the version read (`version`; none stored yet: a new item), and its history copy (new).
 */
export function farmPricingWrites(next: FarmPricingVersion, version: Versioned, failed: () => AppError): Write[] {
  const first = version.read === 0;
  return [
    { put: { ...farmPricingKey(next.farmId), type: 'FarmPricing', ...next }, ...(first ? { when: isNew() } : { version }), failed },
    { put: { ...farmPricingVersionKey(next.farmId, next.version), type: 'FarmPricingVersion', ...next }, when: isNew(), failed },
  ];
}

/** Versions of a farm's pricing, newest first. */
export async function listFarmPricingVersions(farmId: string, opts: { limit: number; cursor?: string }) {
  const page = await queryPage(
    { KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': farmPricingHistoryPartition(farmId) }, ScanIndexForward: false },
    opts,
  );
  return { items: page.items.map((i) => farmPricingFromItem(i)!), nextCursor: page.nextCursor };
}

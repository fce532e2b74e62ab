import { ValidationFailed } from '../../errors.js';
import type { Caller } from '../caller.js';
import { diff } from '../changes.js';
import type { AuditEvent, ResourceChange } from '../decision.js';
import type { PricingConfig } from '../../../schemas/analytics-config.js';
import { PRICING_FIELDS } from '../../../schemas/compiled/constants/farm-pricing.js';

/**
 * A farm's pricing: the service's `pricing` section (the analytics configuration) with the farm's
 * override over it, and the decisions on changing or removing the override. Pure: no I/O.
 *
 * - The override names only the fields it changes; every other field is the service's value in force.
 *   `feedPerKgByType` merges type by type (a type the farm prices wins, the service's other types stay).
 * - No exchange rate: a price taken from the service while the farm's currency differs is used as the
 *   same amount in the farm's currency, and the answer warns about each such price.
 */

export type PricingOverride = Partial<PricingConfig>;
export type PricingSource = 'farm' | 'service';

/** A version of a farm's pricing as stored (the one in force and each history copy: shared/db/farm-pricing.ts). */
export interface FarmPricingVersion {
  farmId: string;
  override: PricingOverride;
  version: number;
  changedFields: string[];
  updatedAt: string;
  updatedBy: string | null;
  requestId: string | null;
}

/** The prices in force for a farm, where each came from, and the prices taken across currencies. */
export interface EffectivePricing {
  pricing: PricingConfig;
  sources: Record<string, PricingSource>;
  warnings: string[];
}

const KNOWN_CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

/** Whether `code` is an ISO 4217 currency code (the ones the runtime's ICU data knows). */
export const isCurrencyCode = (code: string): boolean => KNOWN_CURRENCIES.has(code);

/** The override's fields that it actually sets (an empty feed-type map sets nothing). */
function setFields(override: PricingOverride): Array<keyof PricingConfig> {
  return PRICING_FIELDS.filter((f) => {
    const v = override[f];
    if (v === undefined) return false;
    return f !== 'feedPerKgByType' || Object.keys(v as object).length > 0;
  });
}

/** The service's pricing with the farm's override over it (no override: the service's pricing, every field `service`). */
export function effectivePricing(service: PricingConfig, override: PricingOverride | undefined): EffectivePricing {
  const o = override ?? {};
  const pricing = { ...structuredClone(service), ...structuredClone(o) } as PricingConfig;
  pricing.feedPerKgByType = { ...service.feedPerKgByType, ...(o.feedPerKgByType ?? {}) };
  const sources: Record<string, PricingSource> = {};
  for (const f of PRICING_FIELDS) if (f !== 'feedPerKgByType') sources[f] = o[f] === undefined ? 'service' : 'farm';
  for (const type of Object.keys(pricing.feedPerKgByType).sort())
    sources[`feedPerKgByType.${type}`] = o.feedPerKgByType?.[type] === undefined ? 'service' : 'farm';
  const warnings: string[] = [];
  if (pricing.currency !== service.currency) {
    for (const [field, source] of Object.entries(sources)) {
      if (source === 'farm' || field === 'currency') continue;
      const value = field.startsWith('feedPerKgByType.')
        ? service.feedPerKgByType[field.slice('feedPerKgByType.'.length)]!
        : (service[field as keyof PricingConfig] as number);
      if (value === 0) continue;
      warnings.push(`${field}: the service's ${value} ${service.currency} is used as ${value} ${pricing.currency}; set it for this farm`);
    }
  }
  return { pricing, sources, warnings };
}

/** The override as stored: only the fields it sets. */
const normalized = (override: PricingOverride): PricingOverride =>
  Object.fromEntries(setFields(override).map((f) => [f, structuredClone(override[f])])) as PricingOverride;

interface By {
  caller: Pick<Caller, 'id'>;
  requestId: string | null;
  now: Date;
}

function nextVersion(farmId: string, current: { override: PricingOverride; version: number }, override: PricingOverride, by: By, action: string) {
  const changes = diff(current.override, override, [...new Set([...setFields(current.override), ...setFields(override)])]);
  const changedFields = Object.keys(changes);
  if (changedFields.length === 0) return undefined;
  const next: FarmPricingVersion = {
    farmId,
    override,
    version: current.version + 1,
    changedFields,
    updatedAt: by.now.toISOString(),
    updatedBy: by.caller.id,
    requestId: by.requestId,
  };
  const audit: AuditEvent[] = [{ action, targetType: 'farm_pricing', targetId: farmId, changes }];
  const resources: ResourceChange[] = [{ type: 'farm_pricing', id: farmId, op: 'upsert', version: next.version, farmIds: [farmId] }];
  return { next, audit, changes: resources };
}

/**
 * The farm's override replaced by `given` (its version already compared with the client's): a currency
 * that is not an ISO 4217 code is refused; undefined when nothing differs from the override read.
 */
export function decideFarmPricingChange(farmId: string, current: { override: PricingOverride; version: number }, given: PricingOverride, by: By) {
  if (given.currency !== undefined && !isCurrencyCode(given.currency))
    throw new ValidationFailed([{ field: 'currency', message: `must be an ISO 4217 currency code (${given.currency} is not one)` }]);
  return nextVersion(farmId, current, normalized(given), by, 'farm_pricing.update');
}

/** The override removed (the farm takes the service's pricing again) as a new version; undefined when it sets nothing. */
export function decideFarmPricingRemoval(farmId: string, current: { override: PricingOverride; version: number }, by: By) {
  return nextVersion(farmId, current, {}, by, 'farm_pricing.remove');
}

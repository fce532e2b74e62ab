import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { PricingDto, PricingSection } from './analytics-config.js';
import { ExpectedVersion, ListOf, pageQueryProperties, StringEnum, Success, Timestamp } from './common.js';

/**
 * A farm's pricing (`/api/v1/config/farms/{farmId}/pricing`): an override of the analytics
 * configuration's `pricing` section for one farm. It names only the prices it changes (any field of the
 * section, with the section's bounds); every field it leaves out falls back to the service's pricing in
 * force. Feed prices by type merge type by type. Versioned with history, like the configuration.
 */

/**
 * The pricing fields as an override takes them: the section's fields (types, bounds, descriptions)
 * without their defaults, since an omitted field is the service's value, not the default.
 */
const withoutDefault = (schema: TSchema): TSchema => {
  const { default: _default, ...rest } = schema;
  return rest as TSchema;
};
const { currency, ...prices } = PricingSection.properties;
/** The prices, then the currency they are in. */
const OVERRIDE_PROPERTIES = Object.fromEntries(
  Object.entries({ ...prices, currency }).map(([k, v]) => [k, withoutDefault(v)]),
) as typeof PricingSection.properties;

/** The pricing fields a farm may override: exactly those of the service's pricing section. */
export const PRICING_FIELDS = Object.keys(PricingSection.properties) as Array<keyof Static<typeof PricingSection>>;

export const putFarmPricingBody = Type.Object(
  { ...OVERRIDE_PROPERTIES, version: Type.Optional(ExpectedVersion) },
  {
    additionalProperties: false,
    minProperties: 1,
    $id: 'PutFarmPricingBody',
    description:
      'The farm’s prices that differ from the service’s pricing (any field of the analytics configuration’s `pricing` section); it replaces the farm’s override as a whole. `currency` must be an ISO 4217 code.',
  },
);
export type PutFarmPricingBody = Static<typeof putFarmPricingBody>;

export const farmPricingHistoryQuery = Type.Object(pageQueryProperties, { additionalProperties: false, $id: 'FarmPricingHistoryQuery' });
export type FarmPricingHistoryQuery = Static<typeof farmPricingHistoryQuery>;

// ---------------------------------------------------------------------------------------------------
// Responses

const PricingOverrideDto = Type.Object(OVERRIDE_PROPERTIES, {
  $id: 'FarmPricingOverride',
  description: 'The fields the farm sets (any subset of the pricing section; empty: the farm uses the service’s pricing)',
});

export const PRICING_SOURCES = ['farm', 'service'] as const;

export const FarmPricingDto = Type.Object(
  {
    farmId: Type.String(),
    currency: Type.String({ description: 'ISO 4217 currency of every price of `effective` (and of every money figure computed for the farm)' }),
    override: PricingOverrideDto,
    effective: PricingDto,
    sources: Type.Record(Type.String(), StringEnum(PRICING_SOURCES), {
      description:
        'Where each field of `effective` comes from: `farm` (the override) or `service` (the analytics configuration); feed prices by type as `feedPerKgByType.<type>`',
    }),
    warnings: Type.Array(Type.String(), {
      description: 'Prices the farm takes from the service although its currency differs: the amount is used as is, in the farm’s currency (no exchange rate)',
    }),
    serviceConfigVersion: Type.Integer({ minimum: 0, description: 'The analytics configuration version the fallbacks were taken from (0: its defaults)' }),
    version: Type.Integer({ minimum: 0, description: 'Optimistic concurrency version of the farm’s pricing (also the ETag); 0 while it was never set' }),
    updatedAt: Type.Union([Timestamp, Type.Null()], { description: 'Last change (null: never set)' }),
    updatedBy: Type.Union([Type.String(), Type.Null()], { description: 'User id of the last change' }),
  },
  { $id: 'FarmPricing' },
);

export const FarmPricingVersionDto = Type.Object(
  {
    version: Type.Integer({ minimum: 1 }),
    changedFields: Type.Array(Type.String(), { description: 'Fields of the override this version set, changed or removed' }),
    override: PricingOverrideDto,
    updatedAt: Timestamp,
    updatedBy: Type.Union([Type.String(), Type.Null()]),
    requestId: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'FarmPricingVersion' },
);

export const FarmPricingResponse = Success(FarmPricingDto);
export const FarmPricingHistoryResponse = ListOf(FarmPricingVersionDto);

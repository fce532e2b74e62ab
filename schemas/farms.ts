import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ExpectedVersion, ListOf, pageQueryProperties, StringEnum, Success, Timestamp } from './common.js';

/**
 * Farms and houses (Configuration group, `/api/v1/config/farms…`). Request schemas (…Body, …Query,
 * …Params) are compiled into validators; the DTOs describe the responses in the OpenAPI document.
 */

/** Free text that is not blank. */
const Text = (max: number, description?: string) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S', ...(description ? { description } : {}) });
const Nullable = <T extends TSchema>(s: T, description: string) => Type.Union([s, Type.Null()], { description });

/**
 * Farm and house ids: ULIDs for records created through the API; any short id an integrator migrated is
 * accepted in paths as well (an unknown id answers 404, like an id of a farm you may not see).
 */
const RecordId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });

export const HOUSE_TYPES = ['floor', 'cage', 'aviary', 'free_range', 'other'] as const;
export const HouseType = StringEnum(HOUSE_TYPES, {
  description:
    'Housing system: floor (deep litter / slatted floor), cage (enriched cages: conventional cages are prohibited for laying hens since 2012, Directive 1999/74/EC Art. 5(2)), ' +
    'aviary (multi-tier), free_range (house with outdoor range), other. It decides the stocking density rule of laying hens (docs/domain.md, "Stocking density")',
});

const FarmName = Text(120, 'Farm name (need not be unique)');
const Location = Text(300, 'Address or location description, e.g. "Route de Thiès km 12, Pout"');
const CountryCode = Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 country code, upper case (e.g. "SN", "FR")' });
const TimeZone = (extra = '') =>
  Type.String({
    minLength: 1,
    maxLength: 64,
    pattern: '^[A-Za-z][A-Za-z0-9_+/-]*$',
    description: `IANA time zone (e.g. "Africa/Dakar"), stored in its canonical spelling; farm-local dates (daily records, schedules) are computed in it${extra}`,
  });
const TotalAreaHa = Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000, description: 'Total land area of the farm in hectares' });
const Notes = Text(2000, 'Free-text notes');

const HouseName = Text(120, 'House name, unique within its farm (compared case- and space-insensitively)');
const UsableAreaM2 = Type.Number({
  exclusiveMinimum: 0,
  maximum: 100_000,
  description:
    'Usable area in m², the basis of stocking density: the floor the birds use, every level of an aviary (usable area as Directive 1999/74/EC Art. 2(2)(d) defines it); in a cage house the cages’ usable area',
});
const CageAreaM2 = Type.Number({
  exclusiveMinimum: 0,
  maximum: 100_000,
  description:
    'Cage houses: the total area of the enriched cages, every tier, m² (laying hens need 750 cm² of cage area each, Directive 1999/74/EC Art. 6(1)(a)); without it the usable area stands for it',
});
const RangeAreaM2 = Type.Number({
  exclusiveMinimum: 0,
  maximum: 10_000_000,
  description: 'Free-range houses: the open-air run the hens have access to, m² (at least 4 m² per hen, Regulation (EC) No 589/2008 Annex II 1(c))',
});
const Capacity = Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Maximum number of birds the house holds' });

const FarmIdParam = Type.String({ ...RecordId, description: 'Id of the farm (a ULID, or the id a migration kept)', examples: ['01JD3Y4Z9V6Q8K2M5N7P0R1S3T'] });
const HouseIdParam = Type.String({
  ...RecordId,
  description: 'Id of the house within its farm (a ULID, or the id a migration kept)',
  examples: ['01JD3Y5A2B3C4D5E6F7G8H9J0K'],
});

export const farmIdParams = Type.Object({ farmId: FarmIdParam }, { additionalProperties: false, $id: 'FarmIdParams' });
export type FarmIdParams = Static<typeof farmIdParams>;

export const houseParams = Type.Object({ farmId: FarmIdParam, houseId: HouseIdParam }, { additionalProperties: false, $id: 'HouseParams' });
export type HouseParams = Static<typeof houseParams>;

export const listFarmsQuery = Type.Object(pageQueryProperties, { additionalProperties: false, $id: 'ListFarmsQuery' });
export type ListFarmsQuery = Static<typeof listFarmsQuery>;

export const listHousesQuery = Type.Object(pageQueryProperties, { additionalProperties: false, $id: 'ListHousesQuery' });
export type ListHousesQuery = Static<typeof listHousesQuery>;

/** The broiler stocking density the farm declared (Directive 2007/43/EC, Art. 3): 33, 39 or 42 kg live weight per m² (default 33). */
const DensityTier = Type.Union([Type.Literal(33), Type.Literal(39), Type.Literal(42)], {
  description:
    'Declared maximum broiler stocking density, kg/m² of usable area: 33 (default), 39 or 42 (Directive 2007/43/EC, Art. 3); the compliance report checks against it',
});

/** Drinking water the farm holds in storage (tanks, towers), litres: readiness counts the days it lasts. */
const WaterReserveLiters = Type.Number({
  minimum: 0,
  maximum: 100_000_000,
  description: 'Drinking water held in storage (tanks, towers), litres: continuity readiness reports the days it lasts at the trailing consumption',
});

export const createFarmBody = Type.Object(
  {
    name: FarmName,
    location: Type.Optional(Location),
    countryCode: Type.Optional(CountryCode),
    timezone: Type.Optional(TimeZone('. Default "UTC"')),
    totalAreaHa: Type.Optional(TotalAreaHa),
    densityTier: Type.Optional(DensityTier),
    waterReserveLiters: Type.Optional(WaterReserveLiters),
    notes: Type.Optional(Notes),
  },
  { additionalProperties: false, $id: 'CreateFarmBody' },
);
export type CreateFarmBody = Static<typeof createFarmBody>;

export const updateFarmBody = Type.Object(
  {
    name: Type.Optional(FarmName),
    location: Type.Optional(Nullable(Location, 'Address or location description; null clears it')),
    countryCode: Type.Optional(Nullable(CountryCode, 'ISO 3166-1 alpha-2 country code; null clears it')),
    timezone: Type.Optional(TimeZone()),
    totalAreaHa: Type.Optional(Nullable(TotalAreaHa, 'Total land area in hectares; null clears it')),
    densityTier: Type.Optional(DensityTier),
    waterReserveLiters: Type.Optional(Type.Union([WaterReserveLiters, Type.Null()], { description: 'Drinking water held in storage, litres; null clears it' })),
    notes: Type.Optional(Nullable(Notes, 'Free-text notes; null clears them')),
    version: Type.Optional(ExpectedVersion),
  },
  { additionalProperties: false, minProperties: 1, $id: 'UpdateFarmBody' },
);
export type UpdateFarmBody = Static<typeof updateFarmBody>;

export const createHouseBody = Type.Object(
  {
    name: HouseName,
    usableAreaM2: UsableAreaM2,
    capacity: Capacity,
    type: Type.Optional(HouseType),
    cageAreaM2: Type.Optional(CageAreaM2),
    rangeAreaM2: Type.Optional(RangeAreaM2),
    notes: Type.Optional(Notes),
  },
  { additionalProperties: false, $id: 'CreateHouseBody' },
);
export type CreateHouseBody = Static<typeof createHouseBody>;

export const updateHouseBody = Type.Object(
  {
    name: Type.Optional(HouseName),
    usableAreaM2: Type.Optional(UsableAreaM2),
    capacity: Type.Optional(Capacity),
    type: Type.Optional(Type.Union([HouseType, Type.Null()], { description: 'Housing system; null clears it' })),
    cageAreaM2: Type.Optional(Nullable(CageAreaM2, 'Total area of the enriched cages, m²; null clears it')),
    rangeAreaM2: Type.Optional(Nullable(RangeAreaM2, 'Open-air run of a free-range house, m²; null clears it')),
    notes: Type.Optional(Nullable(Notes, 'Free-text notes; null clears them')),
    version: Type.Optional(ExpectedVersion),
  },
  { additionalProperties: false, minProperties: 1, $id: 'UpdateHouseBody' },
);
export type UpdateHouseBody = Static<typeof updateHouseBody>;

const NullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const FarmDto = Type.Object(
  {
    id: Type.String({ description: 'Farm id (ULID)' }),
    name: Type.String(),
    location: NullableString('Address or location description'),
    countryCode: NullableString('ISO 3166-1 alpha-2'),
    timezone: Type.String({ description: 'IANA time zone' }),
    totalAreaHa: Type.Union([Type.Number(), Type.Null()], { description: 'Hectares' }),
    densityTier: DensityTier,
    waterReserveLiters: Type.Union([Type.Number(), Type.Null()], { description: 'Drinking water held in storage, litres (null: not declared)' }),
    notes: NullableString('Free-text notes'),
    isDefault: Type.Boolean({ description: 'The farm `npm start` creates; flocks created without farmId go here' }),
    createdBy: NullableString('User id of the creator (null for the seeded default farm)'),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    version: Type.Integer({ description: 'Optimistic concurrency version (also the ETag)' }),
  },
  { $id: 'Farm' },
);

export const HouseDto = Type.Object(
  {
    id: Type.String({ description: 'House id (ULID)' }),
    farmId: Type.String(),
    name: Type.String(),
    usableAreaM2: Type.Number({ description: 'Usable area in m²' }),
    capacity: Type.Integer({ description: 'Maximum number of birds' }),
    type: Type.Union([HouseType, Type.Null()]),
    cageAreaM2: Type.Optional(Type.Number({ description: 'Total area of the enriched cages, m² (absent: not declared)' })),
    rangeAreaM2: Type.Optional(Type.Number({ description: 'Open-air run of a free-range house, m² (absent: not declared)' })),
    notes: NullableString('Free-text notes'),
    createdBy: NullableString('User id of the creator'),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    version: Type.Integer({ description: 'Optimistic concurrency version (also the ETag)' }),
  },
  { $id: 'House' },
);

export const FarmResponse = Success(FarmDto);
export const FarmListResponse = ListOf(FarmDto);
export const HouseResponse = Success(HouseDto);
export const HouseListResponse = ListOf(HouseDto);

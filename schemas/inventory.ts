import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import { ListFarmId, ListOf, StringEnum, Success, Timestamp, Ulid, UlidOf, pageQueryProperties, periodProperties } from './common.js';
import { CalendarDate } from './flocks.js';
import {
  FARM_MOVEMENT_TYPES,
  InputSchemaDto,
  MEDICINE_UNITS,
  MOVEMENT_CATALOGUE,
  MOVEMENT_TYPES,
  MovementDto,
  type FarmMovementType,
  type MovementInput,
} from './movements.js';

/**
 * Inventory (`/api/v1/inventory`): a farm's current stock, and the movement search / CSV export across
 * the cycles of a farm. `farmId` may be left out by a caller assigned to exactly one farm.
 */
const FarmId = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9_-]+$',
  description: 'The farm; may be omitted when you are assigned to exactly one farm',
});
const ORDERS = ['asc', 'desc'] as const;

const searchFilters = {
  farmId: ListFarmId('`flockId`'),
  type: Type.Optional(StringEnum(MOVEMENT_TYPES, { description: 'Only movements of this type' })),
  ...periodProperties,
  flockId: Type.Optional(Type.String({ pattern: Ulid.pattern, description: 'Only movements of this flock (any of its cycles)' })),
};

export const inventoryStockQuery = Type.Object({ farmId: Type.Optional(FarmId) }, { additionalProperties: false, $id: 'InventoryStockQuery' });
export type InventoryStockQuery = Static<typeof inventoryStockQuery>;

export const inventoryMovementsQuery = Type.Object(
  {
    ...pageQueryProperties,
    ...searchFilters,
    order: Type.Optional(StringEnum(ORDERS, { default: 'desc', description: 'By movement date then id: `desc` newest first (default), `asc` oldest first' })),
  },
  { additionalProperties: false, $id: 'InventoryMovementsQuery' },
);
export type InventoryMovementsQuery = Static<typeof inventoryMovementsQuery>;

export const inventoryExportQuery = Type.Object(
  {
    ...searchFilters,
    order: Type.Optional(
      StringEnum(ORDERS, { default: 'asc', description: 'By movement date then id: `asc` chronological (default, like a ledger), `desc` newest first' }),
    ),
  },
  { additionalProperties: false, $id: 'InventoryExportQuery' },
);
export type InventoryExportQuery = Static<typeof inventoryExportQuery>;

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const FlockStockDto = Type.Object(
  {
    flockId: Ulid,
    name: Type.String(),
    birdType: StringEnum(['broiler', 'layer', 'breeder'] as const),
    houseId: Nullable(Type.String()),
    cycleId: Nullable(Ulid),
    cycleStartDate: Nullable(CalendarDate),
    placed: Type.Integer({ description: 'Birds placed in the active cycle (0 without an active cycle)' }),
    alive: Type.Integer({ description: 'Birds alive in the active cycle now (0 without an active cycle)' }),
  },
  { $id: 'FlockStock' },
);

const Shortfalls = Type.Array(
  Type.Object({
    from: CalendarDate,
    until: Type.Union([CalendarDate, Type.Null()], {
      description: 'The first later date the balance is back at or above zero (null: still short at the latest dated entry)',
    }),
    lowest: Type.Number({ description: 'The lowest balance in the run (negative)' }),
  }),
  {
    description:
      'The runs of past dates on which this stock was below zero (oldest first; empty when none): back-dated entries took more than the entries dated before them had brought. ' +
      'The balance now never goes below zero; a shortfall says which delivery paperwork is missing or which date is wrong.',
  },
);

export const InventoryStockDto = Type.Object(
  {
    farmId: Type.String(),
    asOf: Timestamp,
    birds: Type.Object({
      total: Type.Integer({ description: 'Birds alive across the active cycles of the farm' }),
      flocks: Type.Array(FlockStockDto, {
        description: 'Every active (not archived) flock of the farm, by name; flocks without an active cycle show 0 birds and cycleId null',
      }),
    }),
    feed: Type.Object({
      totalKg: Type.Number(),
      byType: Type.Array(Type.Object({ feedType: Type.String(), kg: Type.Number(), shortfalls: Shortfalls }), {
        description: 'Every feed type the farm has stocked, by feed type, including those at 0 kg',
      }),
    }),
    eggs: Type.Object({
      count: Type.Integer({ description: 'Eggs in stock on the farm: the sum over its cycles’ egg lots' }),
      byGrade: Type.Record(Type.String(), Type.Integer(), {
        description: 'Eggs in stock per grade or size, as collections graded them and sales and losses of a grade took them (grades at zero left out)',
      }),
      ungraded: Type.Integer({ description: 'Eggs in stock not graded: count less the graded ones' }),
      shortfalls: Shortfalls,
    }),
    medicines: Type.Array(Type.Object({ product: Type.String(), unit: StringEnum(MEDICINE_UNITS), quantity: Type.Number(), shortfalls: Shortfalls }), {
      description:
        'The farm’s vaccines and medicines, per product and unit, by product (including those at 0): `medicine_delivery` movements (purchase order receipts) add, treatments with `fromStock` take',
    }),
  },
  { $id: 'InventoryStock' },
);
export const InventoryStockResponse = Success(InventoryStockDto);
export const InventoryMovementListResponse = ListOf(MovementDto);
/** The form of one movement type, and every type's form keyed by type (GET /api/v1/inventory/input-schema…). */
export const InputSchemaResponse = Success(InputSchemaDto);
export const InputSchemaListResponse = Success(Type.Record(Type.String(), InputSchemaDto));

/**
 * A delivery to the farm's stock without a cycle (`POST /api/v1/inventory/movements`): the catalogue's own
 * schema of `feed_delivery` or `medicine_delivery` (the same fields as the cycle movement), with the farm and
 * an optional house bin. One discriminated validator, like the cycle movements'.
 */
const FARM_MOVEMENT_EXTRA = {
  farmId: Type.Optional(FarmId),
  houseId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[A-Za-z0-9_-]+$',
      description: 'The house whose bin receives it: a house of the farm (any other id answers 404, as a missing house)',
    }),
  ),
};
const FARM_MOVEMENTS = MOVEMENT_CATALOGUE.filter((m) => (FARM_MOVEMENT_TYPES as readonly string[]).includes(m.type));
export type FarmMovementInput = Extract<MovementInput, { type: FarmMovementType }> & { farmId?: string; houseId?: string };
export const createFarmMovementBody = Type.Unsafe<FarmMovementInput>({
  $id: 'CreateFarmMovementBody',
  type: 'object',
  discriminator: { propertyName: 'type' },
  required: ['type'],
  properties: { type: { type: 'string', enum: [...FARM_MOVEMENT_TYPES], description: 'What was delivered to the farm' } },
  oneOf: FARM_MOVEMENTS.map((m) => {
    const schema = m.schema as TObject;
    return Type.Object({ ...FARM_MOVEMENT_EXTRA, ...schema.properties }, { additionalProperties: false, title: schema.title, description: schema.description });
  }),
});

export const farmMovementParams = Type.Object(
  { farmMovementId: UlidOf('Id of a movement booked on the farm (without a cycle)') },
  { additionalProperties: false, $id: 'FarmMovementParams' },
);
export type FarmMovementParams = Static<typeof farmMovementParams>;

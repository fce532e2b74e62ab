import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import {
  ExpectedVersion,
  FarmDate,
  periodProperties,
  JsonSchema,
  ListOf,
  pageQueryProperties,
  StringEnum,
  Success,
  Timestamp,
  Ulid,
  UlidOf,
} from './common.js';
import { WriteWarnings } from './warnings.js';
import { Count, FromLots, Grade, GRADE_PATTERN, Kg, Money, Notes, Text, WithdrawalOverride } from './movement-fields.js';
import { CalendarDate } from './flocks.js';
import { ROLES } from './vocabulary.js';

/**
 * The movement catalogue: one JSON Schema per type. The same schemas validate writes
 * (compiled into one discriminated validator, `createMovementBody`) and answer
 * GET /api/v1/inventory/input-schema.
 */

function movement<T extends string, P extends TProperties>(type: T, label: string, description: string, props: P) {
  return {
    type,
    label,
    description,
    schema: Type.Object(
      { type: Type.Literal(type), date: FarmDate('The day of the movement'), ...props, notes: Notes },
      { additionalProperties: false, title: label, description },
    ),
  };
}

export const FEED_QUALITY_ISSUES = ['mould', 'wet', 'contaminated', 'wrong_type', 'damaged_bags', 'short_weight', 'other'] as const;

export const DEATH_CAUSES = ['disease', 'heat', 'cold', 'predator', 'injury', 'smothering', 'dehydration', 'culled_sick', 'unknown'] as const;

/** Units a farm's medicine stock is kept in (one balance per product and unit), as purchase orders count vaccines and medicines. */
export const MEDICINE_UNITS = ['doses', 'l', 'kg', 'units'] as const;
export type MedicineUnit = (typeof MEDICINE_UNITS)[number];
const MedicineUnit = StringEnum(MEDICINE_UNITS, { description: 'doses, l, kg or units' });
/** What a treatment takes from the farm's medicine stock (of its product or vaccine, in this unit). */
export const FromStock = Type.Object(
  {
    quantity: Type.Number({ exclusiveMinimum: 0, maximum: 10_000_000, description: 'Quantity taken from stock' }),
    unit: MedicineUnit,
  },
  { additionalProperties: false, description: 'Take the product from the farm’s medicine stock (never below zero)' },
);

/**
 * A medication's fields, Reg. (EU) 2019/6 Art. 108 among them (optional: a missing one is a finding of the
 * compliance report, never a refused write). Schedule completions of medication occurrences take the
 * same schemas (schemas/schedules.ts, CompletionData).
 */
export const MEDICATION_FIELDS = {
  product: Text(120, 'Product'),
  dose: Text(120, 'Dose, e.g. "0.5 ml/l for 5 days"'),
  withdrawalDays: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 365,
      description:
        'Withdrawal period for meat, days, counted from the end of the treatment; record it even when zero (Reg. (EU) 2019/6 Art. 108). Also the egg withdrawal when `eggWithdrawalDays` is not sent',
    }),
  ),
  eggWithdrawalDays: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 365,
      description:
        'Withdrawal period for eggs, days, counted from the end of the treatment, as the product’s SPC gives it (0: eggs may be sold during the treatment). Not sent: the meat period applies to eggs too',
    }),
  ),
  treatmentDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, description: 'Duration of the treatment, days (default 1): `date` is its first day' })),
  route: Type.Optional(StringEnum(['water', 'feed', 'injection', 'spray', 'other'] as const)),
  prescribedBy: Type.Optional(Text(120, 'Veterinarian')),
  fromStock: Type.Optional(FromStock),
  // Reg. (EU) 2019/6 Art. 108: optional here (a missing one is a finding of the compliance report, never a refused write)
  quantityAdministered: Type.Optional(Text(120, 'Quantity of the medicinal product administered, e.g. "2 l"')),
  supplier: Type.Optional(Text(200, 'Supplier of the medicinal product (name and address)')),
  purchaseReference: Type.Optional(Text(120, 'Proof of purchase: invoice or delivery note reference')),
  prescriptionReference: Type.Optional(Text(120, 'Veterinary prescription reference')),
  batchNumber: Type.Optional(Text(64, 'Batch of the medicinal product')),
  animalsTreated: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000, description: 'Birds treated (default: the whole flock)' })),
};

/**
 * Movement types written only by the completion of a transfer between farms: no route records, corrects or
 * deletes them on its own (POST …/movements refuses them: 400; PATCH and DELETE: 409).
 */
export const FARM_TRANSFER_TYPES = ['feed_transfer_out', 'feed_transfer_in', 'egg_transfer_out', 'egg_transfer_in'] as const;
const BY_TRANSFER =
  'Written only by completing a transfer between farms (POST /api/v1/sharing/transfers/{transferId}/complete); POST …/movements refuses it (400), PATCH and DELETE answer 409';

/** Deliveries to the farm's stock, which may also be recorded without a cycle (POST /api/v1/inventory/movements). */
export const FARM_MOVEMENT_TYPES = ['feed_delivery', 'medicine_delivery'] as const;
export type FarmMovementType = (typeof FARM_MOVEMENT_TYPES)[number];

/** The cost per bird a transfer between flocks carries: written on both sides, it moves the birds' cost from the sending cycle to the receiving one. */
const transferUnitCost = Money(
  'Cost per bird carried from the sending cycle to the receiving one (both sides record it): the receiving cycle counts it as its pullet cost, the sending cycle passes it on as a transfer out at cost. The sending cycle’s financials answer its cost so far per bird alive (costPerBirdAlive), the figure to send. Without it the birds move without a cost: the sending cycle keeps it',
);

export const MOVEMENT_CATALOGUE = [
  movement('bird_inflow', 'Birds placed', 'Birds placed into the cycle (chicks or pullets arriving)', {
    quantity: Count('Birds placed'),
    breed: Type.Optional(Text(80, 'Breed as delivered')),
    source: Type.Optional(Text(200, 'Hatchery or supplier')),
    supplierId: Type.Optional(Text(64, 'A supplier serving the farm (procurement); any other id answers 404, as a missing supplier')),
    unitCost: Type.Optional(Money('Cost per bird')),
    averageWeightGrams: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 10_000, description: 'Average weight at placement, g' })),
  }),
  movement('bird_mortality', 'Mortality', 'Birds found dead', {
    quantity: Count('Dead birds'),
    cause: Type.Optional(StringEnum(DEATH_CAUSES, { description: 'Cause of death' })),
  }),
  movement('bird_cull', 'Culls', 'Birds culled (removed on purpose: sick, weak, leg problems)', {
    quantity: Count('Culled birds'),
    reason: Type.Optional(Text(200, 'Why they were culled')),
  }),
  movement('bird_sale', 'Birds sold', 'Birds sold or shipped to slaughter', {
    quantity: Count('Birds sold'),
    totalWeightKg: Type.Optional(Kg('Total live weight sold, kg')),
    unitPrice: Type.Optional(Money('Price per bird')),
    buyer: Type.Optional(Text(200, 'Buyer')),
    override: WithdrawalOverride,
  }),
  movement(
    'bird_transfer_out',
    'Transfer out',
    'Birds moved to another flock of the same farm (its active cycle receives the transfer in, in the same write). Between farms, birds move only by a transfer (POST /api/v1/sharing/transfers)',
    {
      quantity: Count('Birds moved out'),
      counterpartFlockId: UlidOf('The receiving flock: a flock of the same farm with an active cycle (any other id answers 404, as a missing flock)'),
      unitCost: Type.Optional(transferUnitCost),
    },
  ),
  movement(
    'bird_transfer_in',
    'Transfer in',
    'Birds received from another flock of the same farm (its active cycle records the transfer out, in the same write). Between farms, birds move only by a transfer (POST /api/v1/sharing/transfers)',
    {
      quantity: Count('Birds moved in'),
      counterpartFlockId: UlidOf('The sending flock: a flock of the same farm with an active cycle (any other id answers 404, as a missing flock)'),
      unitCost: Type.Optional(transferUnitCost),
    },
  ),
  movement('feed_delivery', 'Feed delivered', 'Feed delivered to the farm (adds to the farm’s stock of that feed type)', {
    feedType: Text(60, 'Feed type, e.g. starter, grower, finisher, layer-mash'),
    quantityKg: Kg('Feed delivered, kg'),
    supplierId: Type.Optional(Text(64, 'A supplier serving the farm; any other id answers 404, as a missing supplier')),
    orderId: Type.Optional(Text(64, 'A purchase order of the farm (of that supplier when both are sent); any other id answers 404')),
    orderedDate: Type.Optional(FarmDate('Date the feed was ordered (lead time in supplier reliability)')),
    expectedDate: Type.Optional(FarmDate('Delivery date the supplier promised (on-time rate in supplier reliability)')),
    orderedQuantityKg: Type.Optional(Kg('Quantity ordered, kg (quantity accuracy in supplier reliability)')),
    qualityIssues: Type.Optional(
      Type.Array(StringEnum(FEED_QUALITY_ISSUES), {
        uniqueItems: true,
        maxItems: FEED_QUALITY_ISSUES.length,
        description: 'Problems found on receipt (supplier reliability)',
      }),
    ),
    unitPrice: Type.Optional(Money('Price per kg')),
    lotNumber: Type.Optional(Text(64, 'Lot / batch number')),
  }),
  movement('feed_consumption', 'Feed consumed', 'Feed fed to the flock (taken from the farm’s stock)', {
    quantityKg: Kg('Feed consumed, kg'),
    feedType: Type.Optional(Text(60, 'Feed type; required when the farm stocks more than one')),
  }),
  movement('egg_collection', 'Eggs collected', 'Eggs collected (adds to the farm’s egg stock, as the cycle’s egg lot of that laying day)', {
    totalEggs: Type.Integer({ minimum: 0, maximum: 10_000_000, description: 'All eggs collected, including cracked and dirty' }),
    cracked: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000 })),
    dirty: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000 })),
    doubleYolk: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000 })),
    floor: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000, description: 'Floor eggs (laid outside the nests), part of totalEggs' })),
    averageEggWeightGrams: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 200 })),
    grades: Type.Optional(
      Type.Record(Type.String({ pattern: GRADE_PATTERN }), Type.Integer({ minimum: 0, maximum: 10_000_000 }), {
        maxProperties: 20,
        additionalProperties: false,
        description:
          'Count per grade (S, M, L, XL…): keys of 1–20 letters, digits, _ or -. Part of totalEggs: the rest are ungraded. The egg stock keeps each grade, and a sale or loss names the grade it takes',
      }),
    ),
  }),
  movement('egg_sale', 'Eggs sold', 'Eggs sold from the eggs this cycle’s hens laid (its egg lots; a cycle that laid none sells none)', {
    quantity: Count('Eggs sold'),
    grade: Grade,
    fromLots: FromLots,
    unitPrice: Type.Optional(Money('Price per egg')),
    buyer: Type.Optional(Text(200, 'Buyer')),
    override: WithdrawalOverride,
  }),
  movement('egg_loss', 'Eggs lost', 'Eggs broken, discarded or otherwise lost from the eggs this cycle’s hens laid (its egg lots)', {
    quantity: Count('Eggs lost'),
    grade: Grade,
    fromLots: FromLots,
    reason: Type.Optional(Text(200, 'Reason')),
  }),
  movement('medication', 'Medication', 'A treatment given to the flock', MEDICATION_FIELDS),
  movement('vaccination', 'Vaccination', 'A vaccine given to the flock', {
    vaccine: Text(120, 'Vaccine'),
    method: Type.Optional(StringEnum(['water', 'spray', 'eye_drop', 'injection', 'wing_web', 'other'] as const)),
    dose: Type.Optional(Text(120, 'Dose')),
    batchNumber: Type.Optional(Text(64, 'Vaccine batch')),
    fromStock: Type.Optional(FromStock),
  }),
  movement('water_consumption', 'Water consumed', 'Water drunk by the flock that day', {
    liters: Kg('Water, litres'),
    meterReading: Type.Optional(Type.Number({ minimum: 0, maximum: 1e12, description: 'Meter reading' })),
  }),
  movement('medicine_delivery', 'Medicine delivered', 'Vaccines or medicines delivered to the farm (adds to its medicine stock of that product and unit)', {
    product: Text(120, 'Product or vaccine, as treatments name it'),
    quantity: Type.Number({ exclusiveMinimum: 0, maximum: 10_000_000, description: 'Quantity delivered, in `unit`' }),
    unit: MedicineUnit,
    supplierId: Type.Optional(Text(64, 'A supplier serving the farm; any other id answers 404, as a missing supplier')),
    orderId: Type.Optional(Text(64, 'A purchase order of the farm (of that supplier when both are sent); any other id answers 404')),
    lotNumber: Type.Optional(Text(64, 'Lot / batch number')),
    expiryDate: Type.Optional(FarmDate('Expiry date of the lot', 3653)),
    unitPrice: Type.Optional(Money('Price per unit')),
  }),
  // Sharing: the two sides of a completed transfer between farms (POST /api/v1/sharing/transfers/{transferId}/complete), the only way they are written.
  movement('feed_transfer_out', 'Feed transferred out', `Feed sent to another farm (taken from this farm’s stock of that feed type). ${BY_TRANSFER}`, {
    feedType: Text(60, 'Feed type'),
    quantityKg: Kg('Feed sent, kg'),
    counterpartFarmId: Text(64, 'The receiving farm'),
  }),
  movement('feed_transfer_in', 'Feed transferred in', `Feed received from another farm (adds to this farm’s stock of that feed type). ${BY_TRANSFER}`, {
    feedType: Text(60, 'Feed type'),
    quantityKg: Kg('Feed received, kg'),
    counterpartFarmId: Text(64, 'The sending farm'),
  }),
  movement('egg_transfer_out', 'Eggs transferred out', `Eggs sent to another farm (taken from the sending cycle’s egg lots). ${BY_TRANSFER}`, {
    quantity: Count('Eggs sent'),
    fromLots: FromLots,
    counterpartFarmId: Text(64, 'The receiving farm'),
  }),
  movement(
    'egg_transfer_in',
    'Eggs transferred in',
    `Eggs received from another farm (adds lots of their laying days to the receiving cycle). ${BY_TRANSFER}`,
    {
      quantity: Count('Eggs received'),
      fromLots: FromLots,
      counterpartFarmId: Text(64, 'The sending farm'),
    },
  ),
] as const;

export type MovementEntry = (typeof MOVEMENT_CATALOGUE)[number];
export type MovementType = MovementEntry['type'];
export const MOVEMENT_TYPES = MOVEMENT_CATALOGUE.map((m) => m.type) as MovementType[];
export type MovementInput = Static<MovementEntry['schema']>;

/** The types a client records (POST …/movements): every type but those only a transfer between farms writes. */
export const RECORDED_MOVEMENTS = MOVEMENT_CATALOGUE.filter((m) => !(FARM_TRANSFER_TYPES as readonly string[]).includes(m.type));

/** One validator for every recorded type: AJV's discriminator picks the branch by `type`, so errors name only that type's fields. */
export const createMovementBody = Type.Unsafe<MovementInput>({
  $id: 'CreateMovementBody',
  type: 'object',
  discriminator: { propertyName: 'type' },
  required: ['type'],
  properties: {
    type: {
      type: 'string',
      enum: RECORDED_MOVEMENTS.map((m) => m.type),
      description: `Movement type (${FARM_TRANSFER_TYPES.join(', ')} are written only by completing a transfer between farms)`,
    },
  },
  oneOf: RECORDED_MOVEMENTS.map((m) => m.schema as TObject),
});

export const updateMovementBody = Type.Object(
  { date: Type.Optional(FarmDate('The day of the movement')), version: Type.Optional(ExpectedVersion) },
  {
    additionalProperties: true,
    minProperties: 1,
    maxProperties: 40,
    $id: 'UpdateMovementBody',
    description:
      'Any fields of the movement’s own type (see its input schema); null removes an optional field. The movement as read may be sent back without its read-only metadata (id, flockId, cycleId, farmId, lock, createdAt, createdBy, updatedAt, which are refused): `type` and the fields set by the service (transferId, counterpartCycleId, counterpartMovementId, dailyRecordDate, receiptId, houseId) are accepted when unchanged and refused (400 naming the field) when different; a delivery booked on the farm may also change its `houseId`.',
  },
);
export type UpdateMovementBody = Static<typeof updateMovementBody> & Record<string, unknown>;

export const movementParams = Type.Object(
  { flockId: UlidOf('Id of the flock'), cycleId: UlidOf('Id of the cycle'), movementId: UlidOf('Id of the movement') },
  { additionalProperties: false, $id: 'MovementParams' },
);
export type MovementParams = Static<typeof movementParams>;
export const movementTypeParams = Type.Object(
  {
    movementType: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'A movement type (`type` of a movement, e.g. bird_inflow); an unknown one answers 404',
      examples: ['bird_inflow'],
    }),
  },
  { additionalProperties: false, $id: 'MovementTypeParams' },
);
export type MovementTypeParams = Static<typeof movementTypeParams>;

export const lockBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 500, pattern: '\\S', description: 'Why' }) },
  { additionalProperties: false, $id: 'LockBody' },
);
export type LockBody = Static<typeof lockBody>;

export const listMovementsQuery = Type.Object(
  {
    ...pageQueryProperties,
    type: Type.Optional(StringEnum(MOVEMENT_TYPES, { description: 'Only the movements of this type' })),
    ...periodProperties,
  },
  { additionalProperties: false, $id: 'ListMovementsQuery' },
);
export type ListMovementsQuery = Static<typeof listMovementsQuery>;

/**
 * Fields the services add to those recorded: links between the two sides of a transfer, the daily record a
 * movement came from. A PATCH takes them back unchanged and refuses a different value (`updateMovementBody`).
 */
export const SERVICE_FIELDS = ['transferId', 'counterpartCycleId', 'counterpartMovementId', 'dailyRecordDate', 'receiptId', 'houseId'] as const;
const ADDED_FIELDS = {
  transferId: Type.Optional(Type.String({ description: 'Shared id of both sides of a transfer (set by the service)' })),
  counterpartCycleId: Type.Optional(Type.String({ pattern: Ulid.pattern, description: 'The other side of a transfer: its cycle (set by the service)' })),
  counterpartMovementId: Type.Optional(Type.String({ pattern: Ulid.pattern, description: 'The other side of a transfer: its movement (set by the service)' })),
  dailyRecordDate: Type.Optional(Type.String({ format: 'date', description: 'The daily record this movement was written from (set by the service)' })),
  receiptId: Type.Optional(Type.String({ pattern: Ulid.pattern, description: 'The purchase-order receipt this movement was written by (set by the service)' })),
  houseId: Type.Optional(
    Type.String({
      description:
        'A delivery booked on the farm (no cycle): the house bin it went to, as booked; only a correction of that delivery (PATCH /api/v1/inventory/movements/{farmMovementId}) changes it',
    }),
  ),
} satisfies Record<(typeof SERVICE_FIELDS)[number], unknown>;
const MovementLock = Type.Union([
  Type.Object({
    type: StringEnum(['manual', 'automatic'] as const),
    reason: Type.String(),
    at: Timestamp,
    by: Type.Union([Type.String(), Type.Null()]),
    byRole: Type.Optional(
      StringEnum(ROLES, {
        description:
          'A manual lock: the role of whoever locked it. Unlocking needs manage_flocks, or this role or a higher one (viewer < worker < veterinarian < manager < admin)',
      }),
    ),
  }),
  Type.Null(),
]);
/** What the API says about a movement besides its fields: `type` and `date` are written too, the others are read-only. */
const OfCycle = (what: string) =>
  Type.Union([Ulid, Type.Null()], {
    description: `The ${what} of a cycle movement; null for a delivery booked on the farm (POST /api/v1/inventory/movements)`,
  });
const HEAD = { id: Ulid, flockId: OfCycle('flock'), cycleId: OfCycle('cycle'), farmId: Type.String() };
const TAIL = { lock: MovementLock, createdAt: Timestamp, createdBy: Type.String(), updatedAt: Timestamp, version: Type.Integer() };
/** The metadata no PATCH may carry, whatever its value (mass-assignment guard: the service refuses it, naming each); `version` is the expected version. */
export const READ_ONLY_MOVEMENT_FIELDS = [...Object.keys(HEAD), ...Object.keys(TAIL).filter((k) => k !== 'version')];
/** Every name of the metadata: no field of the catalogue or of the service may use one (tests/unit/movement-shape.test.ts). */
export const MOVEMENT_METADATA = [...Object.keys(HEAD), 'type', 'date', ...Object.keys(TAIL)];
/**
 * A movement as answered, flat: the metadata and, at the same level, the type's fields (required as the
 * catalogue says) and the service's fields. The same names as a write, so what is read can be sent back.
 */
const movementDtoOf = (m: MovementEntry) => {
  const { type: _type, date: _date, ...recorded } = m.schema.properties as TProperties;
  return Type.Object(
    { ...HEAD, type: Type.Literal(m.type), date: CalendarDate, ...recorded, ...ADDED_FIELDS, ...TAIL },
    { $id: `${m.type.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase())}MovementRecord`, description: m.description },
  );
};
const MOVEMENT_DTOS = MOVEMENT_CATALOGUE.map(movementDtoOf);
/** A movement as answered: one flat shape per type, told apart by `type` (the document's generator adds `discriminator.mapping`). */
export const MovementDto = Type.Unsafe<Static<(typeof MOVEMENT_DTOS)[number]>>({
  $id: 'Movement',
  oneOf: MOVEMENT_DTOS,
  discriminator: { propertyName: 'type' },
});
export const MovementResponse = Success(MovementDto);
/** A recorded or corrected movement, and its warnings: birds entering a house above the stocking density limit, a farm stock short at a past date. */
export const MovementWrittenResponse = Type.Object({ message: Type.String(), data: MovementDto, warnings: WriteWarnings });

export const MovementListResponse = ListOf(MovementDto);

export const InputSchemaDto = Type.Object(
  {
    type: Type.String(),
    label: Type.String(),
    description: Type.Optional(Type.String()),
    requiredFields: Type.Array(Type.String()),
    optionalFields: Type.Array(Type.String()),
    schema: Type.Optional(JsonSchema),
    farmBooking: Type.Optional(
      Type.Object(
        { method: Type.String(), path: Type.String(), extraFields: Type.Array(Type.String()), description: Type.String() },
        { description: 'Deliveries only: the route that books this type on the farm’s stock without a cycle, and the fields its body adds' },
      ),
    ),
  },
  { $id: 'MovementInputSchema' },
);

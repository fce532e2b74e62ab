import { WriteWarnings } from './warnings.js';
import { Type, type Static, type TOptional } from '@sinclair/typebox';
import { FarmDate, ListOf, StringEnum, Success, Timestamp, Ulid, pageQueryProperties } from './common.js';
import { CalendarDate } from './flocks.js';
import { DEATH_CAUSES, MovementDto } from './movements.js';
import { PHASES as STAGES } from './vocabulary.js';

const Count = Type.Integer({ minimum: 0, maximum: 10_000_000 });
const Amount = Type.Number({ minimum: 0, maximum: 10_000_000 });

/** Deaths per cause: each known cause an optional count, nothing else. */
const DeathsByCause = Type.Object(
  Object.fromEntries(DEATH_CAUSES.map((c) => [c, Type.Optional(Count)])) as Record<(typeof DEATH_CAUSES)[number], TOptional<typeof Count>>,
  {
    additionalProperties: false,
    minProperties: 1,
  },
);

/** The fields of one day's form (shared by the record and by validate-daily-data). */
const dailyFields = {
  deaths: Type.Optional(Type.Union([Count, DeathsByCause], { description: 'Dead birds: a total, or a count per cause (disease, heat, …, unknown)' })),
  culls: Type.Optional(Count),
  cullReason: Type.Optional(Type.String({ maxLength: 200 })),
  feedKg: Type.Optional(Amount),
  feedType: Type.Optional(Type.String({ minLength: 1, maxLength: 60, description: 'Required when the farm stocks more than one feed type' })),
  waterLiters: Type.Optional(Amount),
  eggsCollected: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000, description: 'All eggs collected that day, including those below' })),
  eggsCracked: Type.Optional(Count),
  eggsDirty: Type.Optional(Count),
  eggsFloor: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000, description: 'Floor eggs (laid outside the nests), part of eggsCollected' })),
  eggsDoubleYolk: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000, description: 'Double-yolk eggs, part of eggsCollected' })),
  eggGrades: Type.Optional(
    Type.Record(Type.String({ pattern: '^[A-Za-z0-9_-]{1,20}$' }), Type.Integer({ minimum: 0, maximum: 10_000_000 }), {
      maxProperties: 20,
      additionalProperties: false,
      description: 'Eggs per grade or size (S, M, L, XL…), part of eggsCollected: the rest are ungraded. The egg stock keeps each grade',
    }),
  ),
  averageEggWeightGrams: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 200, description: 'Average egg weight that day, g' })),
  temperatureMinC: Type.Optional(Type.Number({ minimum: -40, maximum: 60 })),
  temperatureMaxC: Type.Optional(Type.Number({ minimum: -40, maximum: 60 })),
  humidityPct: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
  lightHours: Type.Optional(
    Type.Number({ minimum: 0, maximum: 24, multipleOf: 0.25, description: 'Photoperiod: hours of light in the 24 hours of the day (0–24, in quarter hours)' }),
  ),
  longestDarkHours: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 24,
      multipleOf: 0.25,
      description:
        'The longest uninterrupted dark period of the day, hours (dimming excluded); at most 24 − lightHours. Absent: one dark period of 24 − lightHours',
    }),
  ),
  notes: Type.Optional(Type.String({ maxLength: 2000 })),
};

export const dailyRecordBody = Type.Object(
  { date: FarmDate('The day recorded'), ...dailyFields },
  {
    additionalProperties: false,
    $id: 'DailyRecordBody',
    description:
      'One form per cycle and day; submitting the same day again replaces it (the ledger moves by the difference). Only `date` is required by the ' +
      'shape, but the production stage of the day requires more (every stage: deaths, feedKg, waterLiters; brooding, growing and finishing add ' +
      'climate fields, laying and molting eggsCollected): GET /api/v1/flocks/{flockId}/cycles/{cycleId}/daily-records/form?date=YYYY-MM-DD ' +
      'lists the required and optional fields of that day with their units. A missing one answers 400 naming it.',
  },
);
export type DailyRecordBody = Static<typeof dailyRecordBody>;

/** `?date=` of the form route: the day whose form is wanted (default today, UTC). */
export const dailyRecordFormQuery = Type.Object(
  { date: Type.Optional(Type.String({ format: 'date', description: 'The day whose form is wanted (YYYY-MM-DD); default today (UTC)' })) },
  { additionalProperties: false, $id: 'DailyRecordFormQuery' },
);
export type DailyRecordFormQuery = Static<typeof dailyRecordFormQuery>;

export const dailyRecordParams = Type.Object({ flockId: Ulid, cycleId: Ulid, date: CalendarDate }, { additionalProperties: false, $id: 'DailyRecordParams' });
export type DailyRecordParams = Static<typeof dailyRecordParams>;
export const listDailyRecordsQuery = Type.Object({ ...pageQueryProperties }, { additionalProperties: false, $id: 'ListDailyRecordsQuery' });

/** The interface contract's body: `{dailyRecord: string, productionStage: string}` plus the record's own fields as extra properties. */
export const validateDailyDataBody = Type.Object(
  {
    dailyRecord: Type.String({ minLength: 1, maxLength: 100, description: 'The record being checked (its date or an id)' }),
    productionStage: StringEnum(STAGES),
    ...dailyFields,
  },
  { additionalProperties: true, $id: 'ValidateDailyDataBody' },
);
export type ValidateDailyDataBody = Static<typeof validateDailyDataBody>;

export const DailyRecordDto = Type.Object(
  {
    date: CalendarDate,
    cycleId: Ulid,
    flockId: Ulid,
    stage: StringEnum(STAGES),
    fields: Type.Object(dailyFields, { description: 'The form as submitted, without its date' }),
    movementIds: Type.Array(Ulid),
    warnings: Type.Array(Type.String()),
    createdAt: Timestamp,
    createdBy: Type.String(),
    updatedAt: Timestamp,
    version: Type.Integer(),
  },
  { $id: 'DailyRecord' },
);
const FormField = Type.Object(
  {
    name: StringEnum(Object.keys(dailyFields) as (keyof typeof dailyFields)[], { description: 'The body field of POST …/daily-records' }),
    unit: Type.Union([Type.String(), Type.Null()], { description: 'Unit of the value (birds, kg, L, eggs, °C, %); null for text' }),
    description: Type.String(),
  },
  { $id: 'DailyFormField' },
);
export const DailyRecordFormResponse = Success(
  Type.Object({
    date: CalendarDate,
    ageDays: Type.Integer({
      minimum: 0,
      description: 'Age of the birds on that date: from the hatch date when known, else from the first placement, else from the cycle start',
    }),
    stage: StringEnum(STAGES),
    requiredFields: Type.Array(FormField, { description: 'Fields POST …/daily-records requires for that date (a missing one is a 400 naming it)' }),
    optionalFields: Type.Array(FormField, { description: 'Other fields the form of that stage takes' }),
    existing: Type.Union([DailyRecordDto, Type.Null()], { description: 'The record already saved for that date (submitting again replaces it), or null' }),
  }),
);
const SourcedFigure = Type.Object({
  value: Type.Number(),
  source: Type.Union([StringEnum(['manual', 'sensor'] as const), Type.Null()], {
    description: 'manual (recorded movements, which always win), sensor (the house’s meters or silo load cells), or null (no figure)',
  }),
});
/** The day's record and its movements, and a warning when its consumption leaves a farm stock short at a past date. */
export const DailyRecordResponse = Type.Object({
  message: Type.String(),
  data: Type.Object({ record: DailyRecordDto, movements: Type.Array(MovementDto) }),
  warnings: WriteWarnings,
});
export const DailyRecordWithFiguresResponse = Success(
  Type.Object({
    record: DailyRecordDto,
    movements: Type.Array(MovementDto),
    dayFigures: Type.Object(
      { waterLiters: SourcedFigure, feedKg: SourcedFigure },
      { description: 'The day’s water (l) and feed (kg) as the analytics count them, and where each comes from' },
    ),
  }),
);
export const DailyRecordListResponse = ListOf(DailyRecordDto);
export const DailyCheckResponse = Success(
  Type.Object({
    valid: Type.Boolean(),
    dailyRecord: Type.String(),
    productionStage: StringEnum(STAGES),
    requiredFields: Type.Array(Type.String()),
    missingFields: Type.Array(Type.String()),
    warnings: Type.Array(Type.String()),
  }),
);

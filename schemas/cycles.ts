import { Type, type Static } from '@sinclair/typebox';
import { ExpectedVersion, FarmDate, ListOf, pageQueryProperties, StringEnum, Success, Timestamp, Ulid, UlidOf } from './common.js';
import { BIRD_TYPES, CalendarDate } from './flocks.js';
import { FigureDto } from './figures.js';

export const cycleParams = Type.Object(
  { flockId: UlidOf('Id of the flock'), cycleId: UlidOf('Id of the cycle (one placement of the flock)') },
  { additionalProperties: false, $id: 'CycleParams' },
);
export type CycleParams = Static<typeof cycleParams>;

/** The cycle's own lighting programme: from an age, the hours of light planned (until the next step). */
const LightingProgramme = Type.Array(
  Type.Object(
    {
      fromAgeDays: Type.Integer({ minimum: 0, maximum: 1000, description: 'From this age, days' }),
      lightHours: Type.Number({ minimum: 0, maximum: 24, multipleOf: 0.25, description: 'Hours of light planned from that age' }),
    },
    { additionalProperties: false },
  ),
  {
    minItems: 1,
    maxItems: 100,
    description:
      'The lighting programme the farm plans for this cycle: steps of {fromAgeDays, lightHours}, ages strictly increasing. The compliance report warns on a recorded day off its step by more than 0.5 h; it replaces the breed guide’s programme',
  },
);

export const createCycleBody = Type.Object(
  {
    startDate: FarmDate('The day the birds were placed (or will be)'),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' })),
    targetAgeDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Planned age at depletion, days' })),
    targetWeightGrams: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 10_000, description: 'Target live weight, g' })),
    lightingProgramme: Type.Optional(LightingProgramme),
    notes: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false, $id: 'CreateCycleBody' },
);
export type CreateCycleBody = Static<typeof createCycleBody>;

export const updateCycleBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' })),
    targetAgeDays: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 1000 }), Type.Null()])),
    targetWeightGrams: Type.Optional(Type.Union([Type.Number({ exclusiveMinimum: 0, maximum: 10_000 }), Type.Null()])),
    lightingProgramme: Type.Optional(Type.Union([LightingProgramme, Type.Null()])),
    notes: Type.Optional(Type.String({ maxLength: 2000 })),
    version: Type.Optional(ExpectedVersion),
  },
  { additionalProperties: false, minProperties: 1, $id: 'UpdateCycleBody' },
);
export type UpdateCycleBody = Static<typeof updateCycleBody>;

export const closeCycleBody = Type.Object(
  {
    endDate: Type.Optional(FarmDate('The last day of the cycle (default: today)')),
    reason: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false, $id: 'CloseCycleBody' },
);
export type CloseCycleBody = Static<typeof closeCycleBody>;

export const listCyclesQuery = Type.Object({ ...pageQueryProperties }, { additionalProperties: false, $id: 'ListCyclesQuery' });
export type ListCyclesQuery = Static<typeof listCyclesQuery>;

export const CycleSummaryDto = Type.Object(
  {
    id: Ulid,
    flockId: Ulid,
    farmId: Type.String(),
    name: Type.Union([Type.String(), Type.Null()]),
    birdType: StringEnum(BIRD_TYPES),
    status: StringEnum(['active', 'closed'] as const),
    startDate: CalendarDate,
    placedOn: Type.Union([CalendarDate, Type.Null()], {
      description: 'The date of the first bird_inflow still recorded (null: no placement recorded, or recorded before the cycle kept it)',
    }),
    endDate: Type.Union([CalendarDate, Type.Null()]),
    closedAt: Type.Union([Timestamp, Type.Null()]),
    ageDays: Type.Integer({
      description:
        'Age of the birds today (or at the end date): from the hatch date when known, else from the first placement (`placedOn`), else from the start date (no birds placed yet)',
    }),
    ageFrom: StringEnum(['hatch_date', 'placement', 'start_date'] as const, { description: 'Which date `ageDays` counts from' }),
    targetAgeDays: Type.Union([Type.Integer(), Type.Null()]),
    targetWeightGrams: Type.Union([Type.Number(), Type.Null()]),
    lightingProgramme: Type.Union([LightingProgramme, Type.Null()]),
    notes: Type.Union([Type.String(), Type.Null()]),
    birds: Type.Object({
      placed: Type.Integer(),
      transferredIn: Type.Integer(),
      deaths: Type.Integer(),
      culls: Type.Integer(),
      sold: Type.Integer(),
      transferredOut: Type.Integer(),
      alive: Type.Integer(),
    }),
    feed: Type.Object({ deliveredKg: Type.Number(), consumedKg: Type.Number() }),
    eggs: Type.Object({ collected: Type.Integer(), cracked: Type.Integer(), dirty: Type.Integer(), sold: Type.Integer(), lost: Type.Integer() }),
    waterLiters: Type.Number(),
    medications: Type.Integer(),
    vaccinations: Type.Integer(),
    movementCount: Type.Integer(),
    latestWeight: Type.Union([Type.Object({ date: CalendarDate, grams: Type.Number() }), Type.Null()]),
    kpis: Type.Object(
      { mortalityPct: FigureDto, livabilityPct: FigureDto, fcr: FigureDto, epef: FigureDto },
      {
        description:
          'The headline KPIs from the running counters, each a Figure with the same unit and rounding as the flock analytics and `/api/v2/analytics` (docs/analytics.md § Figures)',
      },
    ),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    version: Type.Integer(),
  },
  { $id: 'CycleSummary' },
);
export const CycleResponse = Success(CycleSummaryDto);
export const CycleListResponse = ListOf(CycleSummaryDto);

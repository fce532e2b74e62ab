import { Type, type Static } from '@sinclair/typebox';
import { FarmDate, periodProperties, Success, Timestamp, Ulid, UlidOf } from './common.js';
import { WeightDto } from './weights.js';
import { CalendarDate } from './flocks.js';
import { MOVEMENT_CATALOGUE, MovementWrittenResponse } from './movements.js';
import { DatedFigureDto, FigureDto } from './figures.js';

export { DatedFigureDto, FigureDto };

/**
 * Analytics V2 (`/api/v2/analytics`): the interface contract's writes (egg production, water readings,
 * age-adjusted data) and their answers, the path/query parameters of the reads, and the overview. The reads'
 * answers: every field the engine returns, every KPI a Figure, in ./analytics-*.ts by report
 * (tests/unit/analytics-response-types.test.ts keeps them equal to the engine's types).
 */

export const flockIdParams = Type.Object({ flockId: UlidOf('Id of the flock') }, { additionalProperties: false, $id: 'AnalyticsFlockParams' });
export type FlockIdParams = Static<typeof flockIdParams>;

const eggCollection = MOVEMENT_CATALOGUE.find((m) => m.type === 'egg_collection')!.schema;
const { type: _type, date: _date, notes, ...eggFields } = eggCollection.properties;

const RecordDate = (what: string) => Type.Optional(FarmDate(`Date of the ${what} (YYYY-MM-DD); default today (UTC)`));

/** The contract's body `{flockId, totalEggs, ...}`: the egg_collection fields, recorded in the flock's active cycle. */
export const eggProductionBody = Type.Object(
  { flockId: Ulid, date: RecordDate('collection'), ...eggFields, notes },
  {
    additionalProperties: false,
    $id: 'EggProductionBody',
    description: 'One day’s egg production of a layer or breeder flock: total eggs and their quality (cracked, dirty, double yolk, average weight, grades)',
  },
);
export type EggProductionBody = Static<typeof eggProductionBody>;

/**
 * The egg_collection branch of the movement validator (`createMovementBody`) alone. The egg production's
 * correction of a day's eggs edits an egg_collection and validates the edited movement with it, so that
 * route's bundle carries one type's validator, not every type's (docs/performance.md, "Update: deploy
 * bundles back under 250 KB").
 */
export const eggCollectionMovementBody = Type.Unsafe<Static<typeof eggCollection>>({ ...eggCollection, $id: 'EggCollectionMovementBody' });

export const WATER_SOURCES = ['tank', 'line_start', 'line_end', 'well', 'mains', 'other'] as const;

/** The contract's body `{flockId, pH, ...}`: a drinking-water quality reading. */
export const waterReadingBody = Type.Object(
  {
    flockId: Ulid,
    pH: Type.Number({ minimum: 0, maximum: 14, description: 'Drinking water pH (0–14; acceptable 6.0–8.0 by default, see thresholds)' }),
    date: RecordDate('reading'),
    temperatureC: Type.Optional(Type.Number({ minimum: -5, maximum: 60, description: 'Water temperature, °C' })),
    tdsPpm: Type.Optional(Type.Number({ minimum: 0, maximum: 100_000, description: 'Total dissolved solids, ppm' })),
    chlorinePpm: Type.Optional(Type.Number({ minimum: 0, maximum: 100, description: 'Free chlorine, ppm' })),
    orpMv: Type.Optional(Type.Number({ minimum: -2000, maximum: 2000, description: 'Oxidation-reduction potential, mV' })),
    hardnessPpm: Type.Optional(Type.Number({ minimum: 0, maximum: 10_000, description: 'Hardness as CaCO₃, ppm' })),
    source: Type.Optional(Type.Unsafe<(typeof WATER_SOURCES)[number]>({ type: 'string', enum: [...WATER_SOURCES], description: 'Where the sample was taken' })),
    notes: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
  },
  { additionalProperties: false, $id: 'WaterReadingBody' },
);
export type WaterReadingBody = Static<typeof waterReadingBody>;

export const WaterReadingDto = Type.Object(
  {
    id: Ulid,
    flockId: Ulid,
    cycleId: Ulid,
    farmId: Type.String(),
    date: CalendarDate,
    pH: Type.Number(),
    temperatureC: Type.Union([Type.Number(), Type.Null()]),
    tdsPpm: Type.Union([Type.Number(), Type.Null()]),
    chlorinePpm: Type.Union([Type.Number(), Type.Null()]),
    orpMv: Type.Union([Type.Number(), Type.Null()]),
    hardnessPpm: Type.Union([Type.Number(), Type.Null()]),
    source: Type.Union([Type.String(), Type.Null()]),
    notes: Type.Union([Type.String(), Type.Null()]),
    assessment: Type.Object(
      {
        pH: Type.Unsafe<'low' | 'below_optimum' | 'acceptable' | 'high'>({ type: 'string', enum: ['low', 'below_optimum', 'acceptable', 'high'] }),
        message: Type.String(),
        range: Type.Object({ min: Type.Number(), max: Type.Number(), performanceMin: Type.Number() }),
      },
      { description: 'The pH against the thresholds in force when it was recorded' },
    ),
    createdAt: Timestamp,
    createdBy: Type.String(),
  },
  { $id: 'WaterReading' },
);
export const WaterReadingResponse = Success(WaterReadingDto);

export const EggProductionResponse = MovementWrittenResponse;

export const AGE_ADJUSTED_METRICS = ['body_weight_g'] as const;

/** The contract's body `{value, ...}`: an observation of the flock at its age, compared with the breed standard for that age. */
export const ageAdjustedDataBody = Type.Object(
  {
    value: Type.Number({ exclusiveMinimum: 0, maximum: 10_000, description: 'The observed value (body weight: average grams per bird)' }),
    metric: Type.Optional(
      Type.Unsafe<(typeof AGE_ADJUSTED_METRICS)[number]>({
        type: 'string',
        enum: [...AGE_ADJUSTED_METRICS],
        default: 'body_weight_g',
        description: 'What was observed (default body_weight_g)',
      }),
    ),
    date: RecordDate('observation'),
    sampleSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'How many birds the average covers' })),
    referenceAgeDays: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 1000,
        description: 'Age to express the value at (default: the cycle’s targetAgeDays, else 42 for broilers and 18 weeks for layers)',
      }),
    ),
    notes: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false, $id: 'AgeAdjustedDataBody' },
);
export type AgeAdjustedDataBody = Static<typeof ageAdjustedDataBody>;

export const AgeAdjustedResponse = Success(
  Type.Object({
    metric: Type.String(),
    value: Type.Number(),
    unit: Type.String(),
    date: CalendarDate,
    ageDays: Type.Integer(),
    standard: Type.Union([Type.Object({ name: Type.String(), status: Type.String(), value: Type.Number(), interpolated: Type.Boolean() }), Type.Null()]),
    deviationPct: Type.Union([Type.Number(), Type.Null()]),
    ageAdjusted: Type.Union([Type.Object({ referenceAgeDays: Type.Integer(), value: Type.Number(), method: Type.String() }), Type.Null()]),
    reason: Type.Optional(Type.String({ description: 'Why there is no comparison (no standard for the breed, or the age is outside the table)' })),
    weighing: Type.Composite([WeightDto, Type.Object({ latestWeightUpdated: Type.Boolean() })], {
      description: 'The weighing it was stored as (GET …/weights lists it)',
    }),
  }),
);

// ---------------------------------------------------------------------------------------------------
// Reads of one cycle (params: CycleParams of schemas/cycles.ts)

export const CHARTS = ['weight', 'mortality', 'fcr'] as const;
const ChartQuery = Type.Optional(
  Type.Unsafe<(typeof CHARTS)[number]>({
    type: 'string',
    enum: [...CHARTS],
    default: 'weight',
    description: 'With `Accept: image/svg+xml`: which chart (weight vs standard, daily mortality, FCR vs standard)',
  }),
);

export const dailyAnalyticsQuery = Type.Object({ chart: ChartQuery }, { additionalProperties: false, $id: 'DailyAnalyticsQuery' });
export type DailyAnalyticsQuery = Static<typeof dailyAnalyticsQuery>;
export const breedAnalyticsQuery = Type.Object({ chart: ChartQuery }, { additionalProperties: false, $id: 'BreedAnalyticsQuery' });
export type BreedAnalyticsQuery = Static<typeof breedAnalyticsQuery>;

export const predictionsQuery = Type.Object(
  {
    targetAgeDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Age to predict the weight at (default: the cycle’s targetAgeDays)' })),
    targetWeightGrams: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, maximum: 10_000, description: 'Weight whose date to predict (default: the cycle’s targetWeightGrams)' }),
    ),
    forecastWeeks: Type.Optional(Type.Integer({ minimum: 1, maximum: 52, default: 8, description: 'Layers: weeks of production forecast' })),
  },
  { additionalProperties: false, $id: 'PredictionsQuery' },
);
export type PredictionsQuery = Static<typeof predictionsQuery>;

export const anomaliesQuery = Type.Object(
  {
    severity: Type.Optional(
      Type.Unsafe<'warning' | 'critical'>({ type: 'string', enum: ['warning', 'critical'], description: 'Only anomalies of this severity' }),
    ),
    ...periodProperties,
  },
  { additionalProperties: false, $id: 'AnomaliesQuery' },
);
export type AnomaliesQuery = Static<typeof anomaliesQuery>;

export const eggQualityQuery = Type.Object(
  {
    cycleId: Type.Optional(Type.String({ pattern: Ulid.pattern, description: 'Default: the flock’s active cycle' })),
    window: Type.Optional(
      Type.Unsafe<'day' | 'week'>({ type: 'string', enum: ['day', 'week'], default: 'week', description: 'Periods: calendar days or ISO weeks' }),
    ),
    periods: Type.Optional(Type.Integer({ minimum: 3, maximum: 52, description: 'Latest periods the trend is fitted on (default 7 days or 4 weeks)' })),
  },
  { additionalProperties: false, $id: 'EggQualityQuery' },
);
export type EggQualityQuery = Static<typeof eggQualityQuery>;

export const AnalyticsOverviewResponse = Success(
  Type.Object({
    name: Type.String(),
    version: Type.String(),
    description: Type.String(),
    endpoints: Type.Array(Type.Object({ method: Type.String(), path: Type.String(), summary: Type.String(), capability: Type.String() })),
    charts: Type.Array(Type.String()),
    breedStandards: Type.Array(Type.String()),
  }),
);

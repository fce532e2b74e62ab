import { Type, type Static } from '@sinclair/typebox';
import { Success, Timestamp, Ulid } from './common.js';
import { CalendarDate } from './flocks.js';
import { MOVEMENT_CATALOGUE, MovementDto } from './movements.js';

/**
 * Analytics V2 (`/api/v2/analytics`): the seed's writes (egg production, water readings, age-adjusted
 * data) and the path/query parameters of the reads. The KPI answers are described where they are built
 * (schemas/analytics-reports.ts).
 */

export const flockIdParams = Type.Object({ flockId: Ulid }, { additionalProperties: false, $id: 'AnalyticsFlockParams' });
export type FlockIdParams = Static<typeof flockIdParams>;

const eggCollection = MOVEMENT_CATALOGUE.find((m) => m.type === 'egg_collection')!.schema;
const { type: _type, date: _date, notes, ...eggFields } = eggCollection.properties;

const RecordDate = (what: string) => Type.Optional(Type.String({ format: 'date', description: `Date of the ${what} (YYYY-MM-DD); default today (UTC)` }));

/** Seed: `{flockId, totalEggs, ...}`: the egg_collection fields, recorded in the flock's active cycle. */
export const eggProductionBody = Type.Object(
  { flockId: Ulid, date: RecordDate('collection'), ...eggFields, notes },
  {
    additionalProperties: false,
    $id: 'EggProductionBody',
    description: 'One day’s egg production of a layer or breeder flock: total eggs and their quality (cracked, dirty, double yolk, average weight, grades)',
  },
);
export type EggProductionBody = Static<typeof eggProductionBody>;

export const WATER_SOURCES = ['tank', 'line_start', 'line_end', 'well', 'mains', 'other'] as const;

/** Seed: `{flockId, pH, ...}`: a drinking-water quality reading. */
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

export const EggProductionResponse = Success(MovementDto);

import { Type, type Static } from '@sinclair/typebox';
import { FarmDate, ListOf, periodProperties, StringEnum, Success, Timestamp, Ulid } from './common.js';
import { CalendarDate } from './flocks.js';
import { CONFIDENCES, MAX_PLAUSIBLE_GRAMS, MIN_PLAUSIBLE_GRAMS, PHASES, WEIGHT_METHODS } from './vocabulary.js';

/**
 * Body weights of a cycle (the interface contract's `GET …/weights` → `[{date, grams, method,
 * confidence, phase, daysInCycle}]`), manual samples, and batches from automatic bird scales
 * (`POST /api/v1/scale`).
 */
const Grams = (description: string) => Type.Number({ minimum: MIN_PLAUSIBLE_GRAMS, maximum: MAX_PLAUSIBLE_GRAMS, description });
const RecordId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
export const DeviceId = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9_.:-]+$',
  description:
    'A bird scale registered in the flock’s farm (POST /api/v1/iot/devices; its metrics include birdWeightGrams); another farm’s device or an unregistered id answers 404',
});

export const listWeightsQuery = Type.Object(
  {
    ...periodProperties,
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1000, default: 500, description: 'Page size (1–1000, default 500: a whole broiler cycle fits one page)' }),
    ),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'Opaque cursor from page.nextCursor' })),
  },
  { additionalProperties: false, $id: 'ListWeightsQuery' },
);
export type ListWeightsQuery = Static<typeof listWeightsQuery>;

export const recordWeightBody = Type.Object(
  {
    date: FarmDate('The day the birds were weighed'),
    grams: Type.Optional(Grams('Average weight of the birds weighed, g (send this or samples)')),
    sampleSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'How many birds the average covers (with grams only)' })),
    samples: Type.Optional(
      Type.Array(Grams('One bird, g'), {
        minItems: 1,
        maxItems: 1000,
        description: 'Individual weighings, g (send this or grams): mean, SD, CV and uniformity are computed from them',
      }),
    ),
    notes: Type.Optional(Type.String({ maxLength: 500 })),
  },
  {
    additionalProperties: false,
    $id: 'RecordWeightBody',
    description: 'A manual weighing session: exactly one of `grams` (an average, optionally with `sampleSize`) or `samples` (1–1000 individual weights).',
  },
);
export type RecordWeightBody = Static<typeof recordWeightBody>;

export const scaleIngestBody = Type.Object(
  {
    deviceId: DeviceId,
    flockId: Ulid,
    cycleId: Type.Optional(Ulid),
    houseId: Type.Optional(
      Type.String({ ...RecordId, description: 'A house of the flock’s farm, the flock’s own when it has one (another farm’s answers 404)' }),
    ),
    weighings: Type.Array(
      Type.Object(
        {
          at: Type.String({
            format: 'date-time',
            description: 'When the bird was weighed, ISO 8601 with the device’s UTC offset (the written date is the day it counts for)',
          }),
          grams: Type.Number({ description: 'The reading, g (readings below 1 g, above 10 kg or far from the day’s median are rejected, not refused)' }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 1000 },
    ),
  },
  { additionalProperties: false, $id: 'ScaleIngestBody' },
);
export type ScaleIngestBody = Static<typeof scaleIngestBody>;

const Nullable = <T extends ReturnType<typeof Type.Number>>(t: T) => Type.Union([t, Type.Null()]);
export const WeightDto = Type.Object(
  {
    id: Type.String({ description: 'Record id (manual samples) or the scale’s device id (automatic sessions)' }),
    date: CalendarDate,
    grams: Type.Number({ description: 'Average weight, g (0.1)' }),
    method: StringEnum(WEIGHT_METHODS),
    confidence: StringEnum(CONFIDENCES, {
      description: 'From sample size and CV: high (n ≥ 100, CV ≤ 10 %), medium (n ≥ 30, CV ≤ 20 %; or an average over ≥ 100 birds), else low',
    }),
    phase: StringEnum(PHASES, { description: 'From bird type and age at the weighing (molting is never derived)' }),
    daysInCycle: Type.Integer({ description: 'Days since the cycle’s start date' }),
    ageDays: Type.Integer({
      description: 'Age of the birds at the weighing: from the hatch date when known, else from the first placement, else from the start date',
    }),
    sampleSize: Type.Union([Type.Integer(), Type.Null()], { description: 'Birds weighed (null: an average without its sample size)' }),
    sd: Nullable(Type.Number({ description: 'Sample standard deviation (n − 1), g' })),
    cv: Nullable(Type.Number({ description: 'Coefficient of variation, %' })),
    uniformityPct: Nullable(Type.Number({ description: 'Birds within ±10 % of the mean, %' })),
    deviceId: Type.Union([Type.String(), Type.Null()]),
    houseId: Type.Union([Type.String(), Type.Null()]),
    notes: Type.Union([Type.String(), Type.Null()]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Weight' },
);
export const WeightListResponse = ListOf(WeightDto);
export const RecordWeightResponse = Success(
  Type.Composite([
    WeightDto,
    Type.Object({ latestWeightUpdated: Type.Boolean({ description: 'Whether this became the cycle’s latest weight (the summary’s FCR)' }) }),
  ]),
);

const RejectCounts = Type.Object({ outsideCycle: Type.Integer(), implausible: Type.Integer(), outlier: Type.Integer() });
export const ScaleIngestResponse = Success(
  Type.Object({
    deviceId: Type.String(),
    flockId: Ulid,
    cycleId: Ulid,
    accepted: Type.Integer(),
    rejected: Type.Integer(),
    rejectedBy: RejectCounts,
    latestWeightUpdated: Type.Boolean(),
    days: Type.Array(
      Type.Object({
        date: CalendarDate,
        accepted: Type.Integer({ description: 'Readings of this batch kept for the day' }),
        rejected: Type.Integer({ description: 'Readings of this batch rejected for the day' }),
        session: Type.Union([WeightDto, Type.Null()], {
          description: 'The day’s session after the batch; null when every reading of that day was rejected and the day has no session',
        }),
      }),
    ),
  }),
);

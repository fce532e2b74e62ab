/**
 * What the answers of the analytics reads share (schemas/analytics-*.ts): the cycle header every answer
 * starts with, and the nullable field types.
 */
import { Type } from '@sinclair/typebox';
import { StringEnum, Ulid } from './common.js';
import { BIRD_TYPES } from './vocabulary.js';
import { CalendarDate } from './flocks.js';

// ---------------------------------------------------------------------------------------------------
// Answers: every field the engine (shared/domain/analytics) returns, typed. Every KPI is a Figure.
// tests/unit/analytics-response-types.test.ts asserts at compile time that the static type of each schema
// equals the engine's output type, so the two cannot drift apart.

export const Num = Type.Union([Type.Number(), Type.Null()]);
export const Int = Type.Integer();
export const NullableInt = Type.Union([Type.Integer(), Type.Null()]);
export const NullableString = Type.Union([Type.String(), Type.Null()]);
export const NullableDate = Type.Union([CalendarDate, Type.Null()]);
/** A map from a free key (a cause of death, a feed type, an issue kind…) to a number. */
export const Counts = (description: string) => Type.Record(Type.String(), Type.Number(), { description });

export const AnalyticsCycleHeader = Type.Object(
  {
    flockId: Ulid,
    flockName: Type.String(),
    cycleId: Ulid,
    farmId: Type.String(),
    birdType: StringEnum(BIRD_TYPES),
    breed: NullableString,
    status: StringEnum(['active', 'closed'] as const),
    startDate: CalendarDate,
    endDate: NullableDate,
    asOf: CalendarDate,
    configVersion: Type.Integer({ description: 'Analytics configuration version used (0: defaults)' }),
    pricingVersion: Type.Integer({ description: 'The farm’s pricing version used (0: the farm has no override; GET /api/v1/config/farms/{farmId}/pricing)' }),
    currency: Type.String({ description: 'ISO 4217 currency of every money figure of the answer: the farm’s pricing currency' }),
  },
  { $id: 'AnalyticsCycleHeader', description: 'The cycle the figures cover and the configuration they were computed with' },
);

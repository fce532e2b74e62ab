import { Type, type Static } from '@sinclair/typebox';
import { ExpectedVersion, FarmDate, ListOf, pageQueryProperties, StringEnum, Success, Timestamp, Ulid, UlidOf } from './common.js';

export { BIRD_TYPES } from './vocabulary.js';
import { BIRD_TYPES } from './vocabulary.js';
export const FLOCK_STATUSES = ['active', 'archived'] as const;
export const CalendarDate = Type.String({ format: 'date', description: 'Calendar date YYYY-MM-DD' });
const Text = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S' });
/** Farm and house ids: ULIDs, or any short id an integrator migrated (validated against the table). */
const RecordId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });

export const flockIdParams = Type.Object({ flockId: UlidOf('Id of the flock') }, { additionalProperties: false, $id: 'FlockIdParams' });
export type FlockIdParams = Static<typeof flockIdParams>;

export const createFlockBody = Type.Object(
  {
    name: Text(120),
    birdType: StringEnum(BIRD_TYPES),
    breed: Type.Optional(
      Type.String({
        maxLength: 80,
        description: 'Free text; analytics compares known breeds (Ross 308, Cobb 500, Hy-Line Brown, Lohmann Brown) with their standards',
      }),
    ),
    farmId: Type.Optional(RecordId),
    houseId: Type.Optional(RecordId),
    hatchDate: Type.Optional(FarmDate('The day the birds hatched')),
    source: Type.Optional(Type.String({ maxLength: 200, description: 'Hatchery or supplier' })),
    notes: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false, $id: 'CreateFlockBody' },
);
export type CreateFlockBody = Static<typeof createFlockBody>;

export const updateFlockBody = Type.Object(
  {
    name: Type.Optional(Text(120)),
    breed: Type.Optional(Type.String({ maxLength: 80 })),
    houseId: Type.Optional(Type.Union([RecordId, Type.Null()])),
    hatchDate: Type.Optional(Type.Union([FarmDate('The day the birds hatched'), Type.Null()])),
    source: Type.Optional(Type.String({ maxLength: 200 })),
    notes: Type.Optional(Type.String({ maxLength: 2000 })),
    version: Type.Optional(ExpectedVersion),
  },
  { additionalProperties: false, minProperties: 1, $id: 'UpdateFlockBody' },
);
export type UpdateFlockBody = Static<typeof updateFlockBody>;

export const listFlocksQuery = Type.Object(
  {
    ...pageQueryProperties,
    farmId: Type.Optional(Type.String({ ...RecordId, description: 'Only the flocks of this farm' })),
    status: Type.Optional(StringEnum(FLOCK_STATUSES, { default: 'active', description: 'Only the flocks in this status (default active)' })),
    birdType: Type.Optional(StringEnum(BIRD_TYPES, { description: 'Only the flocks of this bird type' })),
    houseId: Type.Optional(Type.String({ ...RecordId, description: 'Only the flocks housed in this house' })),
  },
  { additionalProperties: false, $id: 'ListFlocksQuery' },
);
export type ListFlocksQuery = Static<typeof listFlocksQuery>;

export const FlockDto = Type.Object(
  {
    id: Ulid,
    farmId: Type.String(),
    houseId: Type.Union([Type.String(), Type.Null()]),
    name: Type.String(),
    birdType: StringEnum(BIRD_TYPES),
    breed: Type.Union([Type.String(), Type.Null()]),
    hatchDate: Type.Union([CalendarDate, Type.Null()]),
    source: Type.Union([Type.String(), Type.Null()]),
    notes: Type.Union([Type.String(), Type.Null()]),
    status: StringEnum(FLOCK_STATUSES),
    activeCycleId: Type.Union([Ulid, Type.Null()]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    version: Type.Integer(),
  },
  { $id: 'Flock' },
);
export const FlockResponse = Success(FlockDto);
export const FlockListResponse = ListOf(FlockDto);

import { Type, type Static } from '@sinclair/typebox';
import { Email, ExpectedVersion, JsonValue, ListOf, Name, pageQueryProperties, Password, Success, Ulid, UlidOf } from './common.js';
import { Role, UserDto } from './auth.js';

const Capabilities = Type.Array(Type.String({ pattern: '^[a-z_]{2,64}$' }), { maxItems: 64, uniqueItems: true });
const FarmIds = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100, uniqueItems: true });

export const userIdParams = Type.Object({ userId: UlidOf('Id of the user') }, { additionalProperties: false, $id: 'UserIdParams' });
export type UserIdParams = Static<typeof userIdParams>;

export const listUsersQuery = Type.Object({ ...pageQueryProperties, role: Type.Optional(Role) }, { additionalProperties: false, $id: 'ListUsersQuery' });
export type ListUsersQuery = Static<typeof listUsersQuery>;

export const createUserBody = Type.Object(
  {
    email: Email,
    password: Password,
    name: Name,
    role: Type.Optional(Role),
    capabilities: Type.Optional(Capabilities),
    farmIds: Type.Optional(FarmIds),
    verified: Type.Optional(Type.Boolean({ default: true, description: 'Admin-created accounts start verified unless set false' })),
  },
  { additionalProperties: false, $id: 'CreateUserBody' },
);
export type CreateUserBody = Static<typeof createUserBody>;

export const patchUserBody = Type.Object(
  {
    role: Type.Optional(Role),
    capabilities: Type.Optional(Type.Union([Capabilities, Type.Null()], { description: 'null restores the role defaults' })),
    locked: Type.Optional(Type.Boolean()),
    verified: Type.Optional(Type.Boolean()),
    farmIds: Type.Optional(FarmIds),
    name: Type.Optional(Name),
    version: Type.Optional(ExpectedVersion),
  },
  { additionalProperties: false, minProperties: 1, $id: 'PatchUserBody' },
);
export type PatchUserBody = Static<typeof patchUserBody>;

export const listAuditQuery = Type.Object(
  {
    ...pageQueryProperties,
    targetId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Only entries about this record (user id, farm id…)' })),
  },
  { additionalProperties: false, $id: 'ListAuditQuery' },
);
export type ListAuditQuery = Static<typeof listAuditQuery>;

export const CapabilityDto = Type.Object(
  { name: Type.String(), description: Type.String(), adminOnly: Type.Boolean(), roles: Type.Array(Type.String()) },
  { $id: 'Capability' },
);

export const AuditEntryDto = Type.Object(
  {
    id: Ulid,
    at: Type.String({ format: 'date-time' }),
    actorId: Type.Union([Type.String(), Type.Null()]),
    action: Type.String(),
    targetType: Type.String(),
    targetId: Type.String(),
    changes: Type.Record(Type.String(), JsonValue, { description: 'What changed, as the action records it (free-form per action)' }),
    requestId: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'AuditEntry' },
);

export const UserResponse = Success(UserDto);
export const UserListResponse = ListOf(UserDto);
export const CapabilityListResponse = Success(Type.Array(CapabilityDto));
export const AuditListResponse = ListOf(AuditEntryDto);

import { Type, type Static } from '@sinclair/typebox';
import { ROLES } from './vocabulary.js';
import { Email, EmptyBody, Name, Password, StringEnum, Success, Timestamp, Ulid } from './common.js';

export const signupBody = Type.Object({ email: Email, password: Password, name: Name }, { additionalProperties: false, $id: 'SignupBody' });
export type SignupBody = Static<typeof signupBody>;

export const loginBody = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 254 }), password: Type.String({ minLength: 1, maxLength: 256 }) },
  { additionalProperties: false, $id: 'LoginBody' },
);
export type LoginBody = Static<typeof loginBody>;

export const verifyEmailBody = Type.Object({ token: Type.String({ minLength: 16, maxLength: 256 }) }, { additionalProperties: false, $id: 'VerifyEmailBody' });
export type VerifyEmailBody = Static<typeof verifyEmailBody>;

export const logoutBody = Type.Composite([EmptyBody], { additionalProperties: false, $id: 'LogoutBody' });
export const verifyTokenBody = Type.Composite([EmptyBody], { additionalProperties: false, $id: 'VerifyTokenBody' });

export const Role = StringEnum(ROLES, { description: 'Role: gives the default capability set' });

export const UserDto = Type.Object(
  {
    id: Ulid,
    email: Email,
    name: Type.String(),
    role: Role,
    capabilities: Type.Array(Type.String(), { description: 'Effective capabilities' }),
    explicitCapabilities: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'Set by an admin; replaces the role defaults' }),
    farmIds: Type.Array(Type.String()),
    verified: Type.Boolean(),
    locked: Type.Boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    version: Type.Integer(),
  },
  { $id: 'User' },
);

export const SignupResponse = Success(
  Type.Object({
    email: Email,
    verificationToken: Type.Optional(
      Type.String({
        description:
          'Only outside production, standing in for the mail: the token for verify-email when the address was new, else a random token that verifies nothing',
      }),
    ),
  }),
);
export const LoginResponse = Type.Object(
  { message: Type.String(), token: Type.String({ description: 'JWT (HS256) for Authorization: Bearer' }), expiresAt: Timestamp, user: UserDto },
  { $id: 'LoginResponse' },
);
export const VerifyTokenResponse = Success(Type.Object({ valid: Type.Literal(true), user: UserDto, tokenId: Type.String(), expiresAt: Timestamp }));
export const LogoutResponse = Success(Type.Object({ revoked: Type.Literal(true), tokenId: Type.String() }));
export const VerifyEmailResponse = Success(Type.Object({ user: UserDto }));

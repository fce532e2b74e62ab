import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, NotFound } from '../errors.js';
import type { Role } from '../domain/capabilities.js';
import { batchGet, db, tableName, transact, transactUnless, type TransactItem } from './client.js';
import { emailKey, gsi1, revokedTokenKey, userKey } from './keys.js';
import { pick } from './items.js';
import { queryPage } from './pagination.js';

/** A user as stored. `passwordHash` never leaves shared/ (see toUserDto in shared/services/accounts). */
export interface UserRecord {
  id: string;
  email: string;
  name: string;
  role: Role;
  explicitCapabilities: string[] | null;
  farmIds: string[];
  verified: boolean;
  locked: boolean;
  passwordHash: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

const USER_FIELDS: readonly (keyof UserRecord)[] = [
  'id',
  'email',
  'name',
  'role',
  'explicitCapabilities',
  'farmIds',
  'verified',
  'locked',
  'passwordHash',
  'createdAt',
  'updatedAt',
  'version',
];

function fromItem(item: Record<string, unknown> | undefined): UserRecord | undefined {
  if (!item) return undefined;
  return pick<UserRecord>(item, USER_FIELDS);
}

function toItem(user: UserRecord) {
  return { ...userKey(user.id), ...gsi1.users, GSI1SK: `${user.email}#${user.id}`, type: 'User', ...user };
}

const emailTaken = () => new Conflict('An account with this e-mail already exists');

/** Creates the user and claims its e-mail in one transaction (plus any extra items: audit, tokens). */
export async function createUser(user: UserRecord, extra: TransactItem[] = []): Promise<void> {
  if (!(await createUserUnlessEmailTaken(user, extra))) throw emailTaken();
}

/**
 * createUser for sign-up, which tells nobody whether an address is registered: false (and nothing written)
 * when the e-mail already belongs to an account, instead of a Conflict.
 */
export async function createUserUnlessEmailTaken(user: UserRecord, extra: TransactItem[] = []): Promise<boolean> {
  const T = tableName();
  return transactUnless(
    [
      { Put: { TableName: T, Item: { ...emailKey(user.email), type: 'EmailClaim', userId: user.id }, ConditionExpression: 'attribute_not_exists(PK)' } },
      { Put: { TableName: T, Item: toItem(user), ConditionExpression: 'attribute_not_exists(PK)' } },
      ...extra,
    ],
    0,
    () => new Conflict('A record with this id already exists'),
  );
}

export async function getUser(id: string): Promise<UserRecord | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: userKey(id), ConsistentRead: true }));
  return fromItem(res.Item);
}

/**
 * The user whose password a sign-in checks: for an unknown e-mail (no user id) the same GetItem on a key no
 * user has, so a sign-in costs the same reads whether or not the e-mail is registered.
 */
export function getUserForSignIn(id: string | undefined): Promise<UserRecord | undefined> {
  return getUser(id ?? 'NO_SUCH_USER');
}

export async function getUserOrThrow(id: string): Promise<UserRecord> {
  const user = await getUser(id);
  if (!user) throw new NotFound(`User ${id} not found`);
  return user;
}

export async function getUserIdByEmail(email: string): Promise<string | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: emailKey(email), ConsistentRead: true }));
  return res.Item?.userId as string | undefined;
}

/**
 * The per-request user load: the user and the token's revocation marker in ONE strongly consistent
 * BatchGetItem, so a lock, a role change or a logout takes effect on the very next request.
 */
export async function loadUserAndRevocation(userId: string, jti: string): Promise<{ user: UserRecord | undefined; revoked: boolean }> {
  const uk = userKey(userId);
  const rk = revokedTokenKey(jti);
  const found = await batchGet([uk, rk], { consistent: true });
  return {
    user: fromItem(found.find((i) => i.PK === uk.PK)),
    revoked: found.some((i) => i.PK === rk.PK),
  };
}

/** Writes a changed user if nobody else changed it since `expectedVersion` (else Conflict), with extra items. */
export async function saveUser(user: UserRecord, expectedVersion: number, extra: TransactItem[] = []): Promise<void> {
  await transact(
    [
      {
        Put: {
          TableName: tableName(),
          Item: toItem(user),
          ConditionExpression: 'attribute_exists(PK) AND version = :v',
          ExpressionAttributeValues: { ':v': expectedVersion },
        },
      },
      ...extra,
    ],
    () => new Conflict(`User ${user.id} was changed by another request (expected version ${expectedVersion}); read it again and retry`),
  );
}

export async function deleteUser(user: UserRecord, extra: TransactItem[] = []): Promise<void> {
  const T = tableName();
  await transact(
    [
      { Delete: { TableName: T, Key: userKey(user.id), ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': user.version } } },
      { Delete: { TableName: T, Key: emailKey(user.email), ConditionExpression: 'userId = :id', ExpressionAttributeValues: { ':id': user.id } } },
      ...extra,
    ],
    () => new Conflict(`User ${user.id} was changed by another request; read it again and retry`),
  );
}

export async function listUsers(opts: { limit: number; cursor?: string; role?: Role }) {
  const page = await queryPage(
    {
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ...(opts.role ? { FilterExpression: '#role = :role', ExpressionAttributeNames: { '#role': 'role' } } : {}),
      ExpressionAttributeValues: { ':pk': gsi1.users.GSI1PK, ...(opts.role ? { ':role': opts.role } : {}) },
    },
    opts,
  );
  return { items: page.items.map((i) => fromItem(i)!), nextCursor: page.nextCursor };
}

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, NotFound } from '../errors.js';
import type { Role } from '../domain/capabilities.js';
import type { UserRecord } from '../domain/users.js';
import { batchGet, db, tableName } from './client.js';
import type { Write } from './commit.js';
import { absent, all, any, eq, exists, isNew, sizeBelow } from './conditions.js';
import { emailKey, gsi1, revokedTokenKey, userKey } from './keys.js';
import { pick } from './items.js';
import { queryPage } from './pagination.js';

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

/** The e-mail belongs to another account already. */
export class EmailTaken extends Conflict {
  constructor() {
    super('An account with this e-mail already exists');
  }
}

/** A new user and the claim of its e-mail, both new: a taken e-mail fails the commit with EmailTaken. */
export function userCreate(user: UserRecord): Write[] {
  return [
    { put: { ...emailKey(user.email), type: 'EmailClaim', userId: user.id }, when: isNew(), failed: () => new EmailTaken() },
    { put: toItem(user), when: isNew() },
  ];
}

/**
 * The user as changed (`next`), written over the version read (`current.version`, bumped by the commit
 * with `updatedAt`); the body's stated version and the request's If-Match are about this user.
 */
export function userChange(current: UserRecord, next: UserRecord, stated?: number): Write {
  return { put: toItem(next), version: { read: current.version, what: `User ${current.id}`, stated, subject: true } };
}

/** Removes the user at the version read, and frees its e-mail (the claim, if it is still this user's). */
export function userDelete(user: UserRecord): Write[] {
  const changed = () => new Conflict(`User ${user.id} was changed by another request; read it again and retry`);
  return [
    { delete: userKey(user.id), version: { read: user.version, what: `User ${user.id}` }, failed: changed },
    { delete: emailKey(user.email), when: eq('userId', user.id), failed: changed },
  ];
}

/**
 * A farm added to a user's `farmIds` (an atomic append, bumping the user's version), only while the user
 * exists and holds fewer than `maxFarms`: else the commit fails with `refused()`.
 */
export function userFarmAdded(userId: string, farmId: string, maxFarms: number, now: string, refused: () => Conflict): Write {
  return {
    update: userKey(userId),
    set: { updatedAt: now },
    append: { farmIds: [farmId] },
    add: { version: 1 },
    when: all(exists(), any(absent('farmIds'), sizeBelow('farmIds', maxFarms))),
    failed: refused,
  };
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

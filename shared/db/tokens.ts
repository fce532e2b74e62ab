import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.js';
import type { Write } from './commit.js';
import { all, eq, gt, isNew } from './conditions.js';
import { revokedTokenKey, verificationTokenKey } from './keys.js';

const epoch = (at: Date) => Math.floor(at.getTime() / 1000);

/** Revokes a token id until the token's own expiry (TTL removes the marker afterwards). */
export function tokenRevocation(jti: string, expiresAtSeconds: number, userId: string): Write {
  return { put: { ...revokedTokenKey(jti), type: 'RevokedToken', userId, expiresAt: expiresAtSeconds } };
}

/** The hashed e-mail verification token, valid `ttlSeconds` from `now`: a write of the sign-up. */
export function verificationTokenCreate(tokenHash: string, userId: string, ttlSeconds: number, now: Date): Write {
  return { put: { ...verificationTokenKey(tokenHash), type: 'VerificationToken', userId, expiresAt: epoch(now) + ttlSeconds }, when: isNew() };
}

/** Consumes a verification token: the write fails unless the token is the user's and unexpired at `now`. */
export function verificationTokenConsume(tokenHash: string, userId: string, now: Date): Write {
  return { delete: verificationTokenKey(tokenHash), when: all(eq('userId', userId), gt('expiresAt', epoch(now))) };
}

export async function getVerificationToken(tokenHash: string): Promise<{ userId: string; expiresAt: number } | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: verificationTokenKey(tokenHash), ConsistentRead: true }));
  return res.Item ? { userId: res.Item.userId as string, expiresAt: res.Item.expiresAt as number } : undefined;
}

import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { batchGet, db, tableName, type TransactItem } from './client.js';
import { emailKey, loginFailuresKey, revokedTokenKey, verificationTokenKey } from './keys.js';

const epoch = (ms: number) => Math.floor(ms / 1000);

/** Revokes a token id until the token's own expiry (TTL removes the marker afterwards). */
export async function revokeToken(jti: string, expiresAtSeconds: number, userId: string): Promise<void> {
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...revokedTokenKey(jti), type: 'RevokedToken', userId, expiresAt: expiresAtSeconds } }));
}

/** The hashed e-mail verification token, as one element of the signup transaction. */
export function verificationTokenPut(tokenHash: string, userId: string, ttlSeconds: number): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...verificationTokenKey(tokenHash), type: 'VerificationToken', userId, expiresAt: epoch(Date.now()) + ttlSeconds },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

/** Consumes a verification token as part of a transaction: fails unless it exists and is unexpired. */
export function verificationTokenDelete(tokenHash: string, userId: string): TransactItem {
  return {
    Delete: {
      TableName: tableName(),
      Key: verificationTokenKey(tokenHash),
      ConditionExpression: 'userId = :u AND expiresAt > :now',
      ExpressionAttributeValues: { ':u': userId, ':now': epoch(Date.now()) },
    },
  };
}

export async function getVerificationToken(tokenHash: string): Promise<{ userId: string; expiresAt: number } | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: verificationTokenKey(tokenHash), ConsistentRead: true }));
  return res.Item ? { userId: res.Item.userId as string, expiresAt: res.Item.expiresAt as number } : undefined;
}

export interface LoginFailures {
  failures: number;
  windowEndsAt: number;
  lockedUntil: number | null;
}

/** The e-mail claim (→ user id) and its failed-login counter, in one read. */
export async function getLoginState(email: string): Promise<{ userId: string | undefined; failures: LoginFailures | undefined }> {
  const items = await batchGet([emailKey(email), loginFailuresKey(email)], { consistent: true });
  const claim = items.find((i) => i.SK === 'EMAIL');
  const counter = items.find((i) => i.SK === 'LOGIN_FAILURES');
  const now = epoch(Date.now());
  const live = counter && ((counter.windowEndsAt as number) > now || ((counter.lockedUntil as number | null) ?? 0) > now);
  return {
    userId: claim?.userId as string | undefined,
    failures: live
      ? { failures: counter.failures as number, windowEndsAt: counter.windowEndsAt as number, lockedUntil: (counter.lockedUntil as number | null) ?? null }
      : undefined,
  };
}

/**
 * Counts one failed login for an e-mail (known or not, so lockout reveals nothing). The counter lives
 * for `windowSeconds` from the first failure; at `maxFailures` the e-mail is locked for `lockSeconds`.
 * Atomic: concurrent failures each count.
 */
export async function recordLoginFailure(email: string, policy: { maxFailures: number; windowSeconds: number; lockSeconds: number }): Promise<LoginFailures> {
  const now = epoch(Date.now());
  const key = loginFailuresKey(email);
  const T = tableName();
  let attributes: Record<string, unknown> | undefined;
  // Count in the live window; if there is none, start one. A concurrent starter may win the race, then
  // the next attempt counts in its window.
  for (let attempt = 0; attempt < 3 && !attributes; attempt++) {
    try {
      const counted = await db().send(
        new UpdateCommand({
          TableName: T,
          Key: key,
          UpdateExpression: 'ADD failures :one',
          ConditionExpression: 'attribute_exists(PK) AND windowEndsAt > :now',
          ExpressionAttributeValues: { ':one': 1, ':now': now },
          ReturnValues: 'ALL_NEW',
        }),
      );
      attributes = counted.Attributes;
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
      try {
        const started = await db().send(
          new UpdateCommand({
            TableName: T,
            Key: key,
            UpdateExpression: 'SET failures = :one, windowEndsAt = :we, expiresAt = :exp, lockedUntil = :null',
            ConditionExpression: 'attribute_not_exists(PK) OR windowEndsAt <= :now',
            ExpressionAttributeValues: {
              ':one': 1,
              ':we': now + policy.windowSeconds,
              ':exp': now + policy.windowSeconds + policy.lockSeconds,
              ':now': now,
              ':null': null,
            },
            ReturnValues: 'ALL_NEW',
          }),
        );
        attributes = started.Attributes;
      } catch (e) {
        if (!(e instanceof ConditionalCheckFailedException)) throw e;
      }
    }
  }
  const a = attributes ?? { failures: policy.maxFailures, windowEndsAt: now + policy.windowSeconds, lockedUntil: null };
  let lockedUntil = (a.lockedUntil as number | null) ?? null;
  if ((a.failures as number) >= policy.maxFailures && (lockedUntil === null || lockedUntil <= now)) {
    lockedUntil = now + policy.lockSeconds;
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET lockedUntil = :lu, expiresAt = :exp',
        ExpressionAttributeValues: { ':lu': lockedUntil, ':exp': lockedUntil + 60 },
      }),
    );
  }
  return { failures: a.failures as number, windowEndsAt: a.windowEndsAt as number, lockedUntil };
}

export async function clearLoginFailures(email: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: loginFailuresKey(email) }));
}

import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, type TransactItem } from './client.js';
import { revokedTokenKey, verificationTokenKey } from './keys.js';

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

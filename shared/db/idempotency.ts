import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, type TransactItem } from './client.js';
import { idempotencyKey } from './keys.js';

/** Stored first responses of writes sent with an Idempotency-Key (per user and key, kept 24 h). */
export interface StoredResponse {
  statusCode: number;
  body: unknown;
}

export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

export async function getStoredResponse(userId: string, key: string): Promise<{ requestHash: string; response: StoredResponse } | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: idempotencyKey(userId, key), ConsistentRead: true }));
  return res.Item ? { requestHash: res.Item.requestHash as string, response: res.Item.response as StoredResponse } : undefined;
}

/** The stored response as one element of the write's own transaction: the record and its replay exist together or not at all. */
export function storedResponsePut(userId: string, key: string, requestHash: string, response: StoredResponse): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...idempotencyKey(userId, key),
        type: 'IdempotentResponse',
        requestHash,
        response,
        expiresAt: Math.floor(Date.now() / 1000) + IDEMPOTENCY_TTL_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, type TransactItem } from './client.js';
import { compileCondition, isNew } from './conditions.js';
import { idempotencyKey } from './keys.js';

/**
 * What a write sent with an idempotency key produced the first time, kept 24 h per user and key, and
 * given back to a retry: whether it created something, its message and its data.
 */
export interface StoredResponse {
  created: boolean;
  message: string;
  data: unknown;
  /** What the write went ahead with that is worth a look (e.g. the stocking density it leads to); absent when none. */
  warnings?: unknown[];
}

export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

export async function getStoredResponse(userId: string, key: string): Promise<{ requestHash: string; response: StoredResponse } | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: idempotencyKey(userId, key), ConsistentRead: true }));
  return res.Item ? { requestHash: res.Item.requestHash as string, response: storedResponseOf(res.Item.response) } : undefined;
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
      ...compileCondition(isNew()),
    },
  };
}

/** Items written before outcomes replaced HTTP responses (`{statusCode, body}`, kept 24 h) read as outcomes. */
function storedResponseOf(stored: unknown): StoredResponse {
  const legacy = stored as { statusCode?: number; body?: { message: string; data: unknown } };
  if (legacy.statusCode === undefined) return stored as StoredResponse;
  return { created: legacy.statusCode === 201, message: legacy.body?.message ?? '', data: legacy.body?.data ?? null };
}

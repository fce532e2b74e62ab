import { ulid } from 'ulidx';
import { tableName, type TransactItem } from './client.js';
import { outboxKey } from './keys.js';

/** Messages for delivery (e-mail) written in the same transaction as the change that causes them. */
export function outboxPut(kind: string, payload: Record<string, unknown>, ttlSeconds: number): TransactItem {
  const id = ulid();
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...outboxKey(id),
        type: 'OutboxMessage',
        id,
        kind,
        payload,
        createdAt: new Date().toISOString(),
        expiresAt: Math.floor(Date.now() / 1000) + ttlSeconds,
      },
    },
  };
}

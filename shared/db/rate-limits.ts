import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.js';
import { rateLimitKey } from './keys.js';

/**
 * One hit on a fixed-window counter: atomic ADD, the item expires (TTL) a minute after its window.
 * Returns the count including this hit.
 */
export async function hitCounter(limiter: string, client: string, windowStart: number, windowSeconds: number): Promise<number> {
  const res = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: rateLimitKey(limiter, client, windowStart),
      UpdateExpression: 'ADD hits :one SET expiresAt = if_not_exists(expiresAt, :exp)',
      ExpressionAttributeValues: { ':one': 1, ':exp': windowStart + windowSeconds + 60 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(res.Attributes?.hits ?? 1);
}

import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.js';
import { rateLimitKey } from './keys.js';

/** A second class counted on the same item: its window must lie inside the item's window (see rate-limit middleware). */
export interface NestedCounter {
  limiter: string;
  windowStart: number;
}

/**
 * One hit on a fixed-window counter: atomic ADD on the client's item (`RATE#<limiter>#<client>` /
 * `WINDOW#<windowStart>`, attribute `hits`), which expires (TTL) a minute after its window. With `nested`,
 * the SAME UpdateItem also adds one to a second class's counter kept on that item as the attribute
 * `<nested limiter>@<nested windowStart>`: one round trip and one write for a route's general + specific
 * class. Returns the counts including this hit.
 */
export async function hitCounters(
  limiter: string,
  client: string,
  windowStart: number,
  windowSeconds: number,
  nested?: NestedCounter,
): Promise<{ hits: number; nested?: number }> {
  const nestedName = nested ? `${nested.limiter}@${nested.windowStart}` : undefined;
  const res = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: rateLimitKey(limiter, client, windowStart),
      UpdateExpression: `ADD hits :one${nestedName ? ', #nested :one' : ''} SET expiresAt = if_not_exists(expiresAt, :exp)`,
      ...(nestedName ? { ExpressionAttributeNames: { '#nested': nestedName } } : {}),
      ExpressionAttributeValues: { ':one': 1, ':exp': windowStart + windowSeconds + 60 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const hits = Number(res.Attributes?.hits ?? 1);
  return nestedName ? { hits, nested: Number(res.Attributes?.[nestedName] ?? 1) } : { hits };
}

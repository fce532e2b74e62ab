import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, db, tableName } from './client.js';
import { metricsKey } from './keys.js';
import { isoDate } from '../platform/calendar.js';

/**
 * Rate-limit refusals per day for the admin dashboard: one `ADD` per client, class and window that a
 * container sees go over its limit (the first refusal; the rest of that flood is not written again, so
 * a flood never turns this item into a hot spot). Kept 90 days (TTL).
 */
const RATE_LIMITED = 'RATE_LIMITED';
const KEEP_SECONDS = 90 * 86_400;

export async function countRateLimited(classes: readonly string[], now = new Date()): Promise<void> {
  const names: Record<string, string> = {};
  const adds = classes.map((cls, i) => {
    names[`#c${i}`] = cls;
    return `#c${i} :one`;
  });
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: metricsKey(RATE_LIMITED, isoDate(now)),
      UpdateExpression: `ADD #total :one, ${adds.join(', ')} SET expiresAt = :ttl`,
      ExpressionAttributeNames: { ...names, '#total': 'total' },
      ExpressionAttributeValues: { ':one': 1, ':ttl': Math.floor(now.getTime() / 1000) + KEEP_SECONDS },
    }),
  );
}

/** Per date: clients that went over a limit (total and per class). */
export async function rateLimitedOn(dates: readonly string[]): Promise<Array<{ date: string; total: number; byClass: Record<string, number> }>> {
  const items = await batchGet(dates.map((d) => metricsKey(RATE_LIMITED, d)));
  return dates.map((date) => {
    const item = items.find((i) => i.SK === metricsKey(RATE_LIMITED, date).SK);
    const byClass = Object.fromEntries(Object.entries(item ?? {}).filter(([k, v]) => typeof v === 'number' && !['total', 'expiresAt'].includes(k))) as Record<
      string,
      number
    >;
    return { date, total: Number(item?.total ?? 0), byClass };
  });
}

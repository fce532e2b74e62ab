import { ulid } from 'ulidx';
import { tableName, transactUnless, type TransactItem } from './client.js';
import { Conflict } from '../errors.js';
import { emailNoticeKey, outboxKey } from './keys.js';

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

/**
 * A notice mailed to an address at most once per window (`windowSeconds`, aligned to the epoch): the outbox
 * message (kept `ttlSeconds` for the mailer), a marker of the window and any extra items (audit) in one
 * transaction. Returns false, writing nothing, when this window's notice of that kind was already written.
 */
export async function outboxNoticeOncePerWindow(
  notice: { to: string; kind: string; windowSeconds: number; ttlSeconds: number },
  extra: TransactItem[] = [],
): Promise<boolean> {
  const { to: email, kind, windowSeconds } = notice;
  const now = Math.floor(Date.now() / 1000);
  const windowStart = now - (now % windowSeconds);
  const marker: TransactItem = {
    Put: {
      TableName: tableName(),
      Item: { ...emailNoticeKey(email, kind, windowStart), type: 'EmailNotice', expiresAt: windowStart + windowSeconds },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
  return transactUnless([marker, outboxPut(kind, { to: email }, notice.ttlSeconds), ...extra], 0, () => new Conflict(`The ${kind} notice was not written`));
}

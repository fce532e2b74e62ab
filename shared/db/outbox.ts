import { ulid } from 'ulidx';
import type { Write } from './commit.js';
import { isNew } from './conditions.js';
import { Conflict } from '../errors.js';
import { emailNoticeKey, outboxKey } from './keys.js';

/** Messages for delivery (e-mail), written in the same commit as the change that causes them. */
export function outboxWrite(kind: string, payload: Record<string, unknown>, ttlSeconds: number, now: Date): Write {
  const id = ulid();
  return {
    put: {
      ...outboxKey(id),
      type: 'OutboxMessage',
      id,
      kind,
      payload,
      createdAt: now.toISOString(),
      expiresAt: Math.floor(now.getTime() / 1000) + ttlSeconds,
    },
  };
}

/** This window's notice of that kind to that address was written already: nothing is written again. */
export class NoticeAlreadySent extends Conflict {}

/**
 * A notice mailed to an address at most once per window (`windowSeconds`, aligned to the epoch): a marker
 * of the window, which must be new (else the commit fails with NoticeAlreadySent), and the outbox message
 * (kept `ttlSeconds` for the mailer).
 */
export function noticeOncePerWindow(notice: { to: string; kind: string; windowSeconds: number; ttlSeconds: number }, now: Date): Write[] {
  const { to: email, kind, windowSeconds } = notice;
  const seconds = Math.floor(now.getTime() / 1000);
  const windowStart = seconds - (seconds % windowSeconds);
  return [
    {
      put: { ...emailNoticeKey(email, kind, windowStart), type: 'EmailNotice', expiresAt: windowStart + windowSeconds },
      when: isNew(),
      failed: () => new NoticeAlreadySent(`The ${kind} notice was not written`),
    },
    outboxWrite(kind, { to: email }, notice.ttlSeconds, now),
  ];
}

/** Account rules without I/O: e-mail normalization, the sign-in throttle and its audit events. */
import type { AuditEvent } from './decision.js';

/**
 * Sign-in throttling (docs/security.md, "Sign-in throttling"): failed sign-ins slow down the client that
 * makes them, per account and client, and only a flood from many clients slows down the account itself.
 * - Per account and client (source IP): the first `freeFailures` failed attempts cost nothing; after that
 *   the client waits `baseDelaySeconds` before its next attempt for that e-mail, doubling with each further
 *   failure up to `maxDelaySeconds`. The count is forgotten at a successful sign-in from that client, or
 *   `memorySeconds` after its last attempt.
 * - Per account, from all clients: `accountMaxFailures` failures in one window of `accountWindowSeconds`
 *   (aligned to the epoch) refuse the e-mail to everyone until the window ends: a ceiling for guessing
 *   spread over many addresses, far above what one client reaches (see the delays above, and the auth
 *   rate limit per client).
 * Unknown e-mails are counted exactly like registered ones, so throttling reveals nothing.
 */
export const LOGIN_THROTTLE = {
  freeFailures: 5,
  baseDelaySeconds: 60,
  maxDelaySeconds: 15 * 60,
  memorySeconds: 24 * 60 * 60,
  accountMaxFailures: 100,
  accountWindowSeconds: 15 * 60,
} as const;

/** How long a client waits after `attempts` unsuccessful sign-in attempts for one e-mail (0: not at all). */
export function clientDelaySeconds(attempts: number): number {
  const { freeFailures, baseDelaySeconds, maxDelaySeconds } = LOGIN_THROTTLE;
  return attempts < freeFailures ? 0 : Math.min(baseDelaySeconds * 2 ** (attempts - freeFailures), maxDelaySeconds);
}

/** What the table holds on a sign-in's throttle: the client's unsuccessful attempts for the e-mail, the account's failures in this window. */
export interface LoginThrottleState {
  /** The client's attempts since its last successful sign-in, and when it may try again (epoch s). */
  client: { attempts: number; openAt: number } | undefined;
  accountFailures: number;
  accountWindowEndsAt: number;
}

export interface LoginRefusal {
  scope: 'client' | 'account';
  retryAfterSeconds: number;
}

/** Why a sign-in attempt is refused before the password is even checked, or null. */
export function loginRefusal(state: LoginThrottleState, now: number): LoginRefusal | null {
  if (state.accountFailures >= LOGIN_THROTTLE.accountMaxFailures) return { scope: 'account', retryAfterSeconds: state.accountWindowEndsAt - now };
  if (state.client && state.client.openAt > now) return { scope: 'client', retryAfterSeconds: state.client.openAt - now };
  return null;
}

/** The client's record after one more attempt (counted as a failure until the password proves right). */
export function nextClientAttempt(state: LoginThrottleState, now: number): { attempts: number; openAt: number } {
  const attempts = (state.client?.attempts ?? 0) + 1;
  return { attempts, openAt: now + clientDelaySeconds(attempts) };
}

/**
 * The moments of a failed sign-in an admin wants to see, as audit events naming no actor (the attempts are
 * anonymous): a client of a registered account is first delayed; the account reaches its ceiling.
 */
export function throttleEvents(
  userId: string,
  client: string,
  attempt: { attempts: number; openAt: number },
  accountFailures: number,
  windowEndsAt: number,
): AuditEvent[] {
  const at = (epoch: number) => new Date(epoch * 1000).toISOString();
  const event = (action: string, changes: Record<string, unknown>): AuditEvent => ({ actorId: null, action, targetType: 'user', targetId: userId, changes });
  return [
    ...(attempt.attempts === LOGIN_THROTTLE.freeFailures
      ? [event('auth.throttle', { client, failures: attempt.attempts, delayedUntil: at(attempt.openAt) })]
      : []),
    ...(accountFailures === LOGIN_THROTTLE.accountMaxFailures ? [event('auth.lockout', { failures: accountFailures, lockedUntil: at(windowEndsAt) })] : []),
  ];
}

/** The text of a refusal: the same for every e-mail, registered or not. */
export function loginRefusalMessage(refusal: LoginRefusal): string {
  const s = refusal.retryAfterSeconds;
  const wait = s <= 60 ? `${s} second(s)` : `${Math.ceil(s / 60)} minute(s)`;
  return refusal.scope === 'client'
    ? `Too many failed sign-in attempts for this e-mail from your address; try again in ${wait}`
    : `Too many failed sign-in attempts for this e-mail; try again in ${wait}`;
}
export const VERIFICATION_TOKEN_TTL_SECONDS = 24 * 60 * 60;
/** A sign-up with a registered address mails its owner an "account exists" notice at most once per this window. */
export const ACCOUNT_EXISTS_NOTICE_SECONDS = 60 * 60;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Field diffs live in ./changes.ts (every feature's updates use them); re-exported for the account use cases. */
export { diff } from './changes.js';

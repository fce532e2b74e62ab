import { createHash, randomBytes } from 'node:crypto';
import { settings } from '../../config/env.js';
import { dummyHash, hashPassword, verifyPassword } from '../../auth/passwords.js';
import { issueToken } from '../../auth/tokens.js';
import { effectiveCapabilities } from '../../domain/capabilities.js';
import {
  ACCOUNT_EXISTS_NOTICE_SECONDS,
  LOGIN_THROTTLE,
  VERIFICATION_TOKEN_TTL_SECONDS,
  loginRefusal,
  loginRefusalMessage,
  nextClientAttempt,
  normalizeEmail,
  throttleEvents,
  type LoginRefusal,
} from '../../domain/accounts.js';
import { decideVerification, newAccount } from '../../domain/users.js';
import { commit } from '../../db/commit.js';
import { NoticeAlreadySent, noticeOncePerWindow, outboxWrite } from '../../db/outbox.js';
import { clearLoginAttempts, countAccountLoginFailure, countLoginAttempt, readLoginState } from '../../db/login-throttle.js';
import { getVerificationToken, tokenRevocation, verificationTokenConsume, verificationTokenCreate } from '../../db/tokens.js';
import { EmailTaken, getUser, getUserForSignIn, getUserIdByEmail, userChange, userCreate } from '../../db/users.js';
import type { UserRecord } from '../../domain/users.js';
import { commandContext, type CommandContext } from '../../domain/command.js';
import { Conflict, Invalid, Forbidden, Unauthenticated } from '../../errors.js';
import type { SignupBody, LoginBody } from '../../../schemas/auth.js';

/** Sign-up, sign-in, sign-out and e-mail verification. */

export function toUserDto(user: UserRecord) {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    capabilities: effectiveCapabilities(user.role, user.explicitCapabilities),
    explicitCapabilities: user.explicitCapabilities,
    farmIds: user.farmIds,
    verified: user.verified,
    locked: user.locked,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
    version: user.version,
  };
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');

/**
 * The command context of a request about an account without a session (sign-up, sign-in, e-mail
 * verification): the account is the caller the audit names; an anonymous attempt's entries name no actor.
 */
function asAccount(user: UserRecord, requestId: string, now: Date): CommandContext {
  return commandContext({ id: user.id, role: user.role, capabilities: new Set(), farmIds: user.farmIds, allFarms: false }, { requestId, now });
}

/**
 * Sign-up answers the same whether the address is new or already has an account (OWASP Authentication
 * Cheat Sheet, "Authentication and Error Messages"): the same answer after the same work (the password is
 * hashed, the claim read and one transaction written either way). A new address gets an unverified viewer
 * and its verification token; a registered one gets an "account exists" notice in the outbox instead (at
 * most one per ACCOUNT_EXISTS_NOTICE_SECONDS) and no account changes. Outside production the token stands
 * in for the mail: for a registered address it is a random token that verifies nothing.
 */
export async function signup(body: SignupBody, requestId: string): Promise<{ email: string; verificationToken?: string }> {
  const email = normalizeEmail(body.email);
  const [passwordHash, existingId] = await Promise.all([hashPassword(body.password), getUserIdByEmail(email)]);
  const verificationToken = randomBytes(32).toString('base64url');
  const { isProduction } = settings();
  const at = new Date();
  const user = newAccount(body, passwordHash, at);
  const ctx = asAccount(user, requestId, at);
  const created =
    existingId === undefined &&
    (await commit(ctx, {
      writes: [
        ...userCreate(user),
        verificationTokenCreate(sha256(verificationToken), user.id, VERIFICATION_TOKEN_TTL_SECONDS, at),
        // In production the token leaves only by e-mail (an outbox item for the mailer); elsewhere it is returned.
        ...(isProduction ? [outboxWrite('verify-email', { to: email, token: verificationToken }, VERIFICATION_TOKEN_TTL_SECONDS, at)] : []),
      ],
      audit: [{ action: 'auth.signup', targetType: 'user', targetId: user.id, changes: { email, role: user.role } }],
    }).then(
      () => true,
      (err: unknown) => {
        if (err instanceof EmailTaken) return false;
        throw err;
      },
    ));
  if (!created) {
    // registered already (or just now, by a concurrent sign-up): tell the owner, not the caller; nobody is the actor
    const ownerId = existingId ?? (await getUserIdByEmail(email));
    const notice = { to: email, kind: 'account-exists', windowSeconds: ACCOUNT_EXISTS_NOTICE_SECONDS, ttlSeconds: VERIFICATION_TOKEN_TTL_SECONDS };
    const audit = [{ actorId: null, action: 'auth.signup-existing', targetType: 'user', targetId: ownerId ?? email, changes: { email } }];
    await commit(ctx, { writes: noticeOncePerWindow(notice, at), audit }).catch((err) => {
      if (!(err instanceof NoticeAlreadySent)) throw err;
    });
  }
  return { email, ...(isProduction ? {} : { verificationToken }) };
}

const INVALID_CREDENTIALS = 'Invalid e-mail or password';

/**
 * Sign-in with the throttle of LOGIN_THROTTLE (docs/security.md, "Sign-in throttling"), per account and
 * `client` (the source IP) plus a ceiling per account. The DynamoDB work is fixed: a refused attempt reads
 * once (BatchGetItem) and checks no password; any other reads once, counts the attempt (UpdateItem) while
 * it reads the user (GetItem, also for an unknown e-mail), checks the password (scrypt, against a dummy hash
 * for an unknown e-mail), then clears the client's count (DeleteItem) or counts the account's failure
 * (UpdateItem); an audit entry when a registered account's client is first delayed or the account reaches
 * its ceiling.
 */
export async function login(body: LoginBody, client: string, requestId: string) {
  const email = normalizeEmail(body.email);
  const at = new Date();
  const now = Math.floor(at.getTime() / 1000);
  const read = await readLoginState(email, client, now, LOGIN_THROTTLE.accountWindowSeconds);
  const refusal = loginRefusal(read.throttle, now);
  if (refusal) throw throttled(refusal);
  const next = nextClientAttempt(read.throttle, now);
  const [counted, user] = await Promise.all([countLoginAttempt(email, client, read, next, now + LOGIN_THROTTLE.memorySeconds), getUserForSignIn(read.userId)]);
  // another attempt of this client for this e-mail is being checked right now: one at a time
  if (!counted) throw throttled({ scope: 'client', retryAfterSeconds: 1 });
  const passwordOk = await verifyPassword(body.password, user?.passwordHash ?? (await dummyHash()));
  if (!user || !passwordOk) {
    const accountFailures = await countAccountLoginFailure(email, now, LOGIN_THROTTLE.accountWindowSeconds);
    const audit = user ? throttleEvents(user.id, client, next, accountFailures, read.throttle.accountWindowEndsAt) : [];
    if (user && audit.length) await commit(asAccount(user, requestId, at), { writes: [], audit });
    throw new Unauthenticated(INVALID_CREDENTIALS);
  }
  await clearLoginAttempts(email, client);
  if (user.locked) throw new Forbidden('Account is locked');
  const issued = await issueToken(user.id);
  return { token: issued.token, expiresAt: new Date(issued.expiresAt * 1000).toISOString(), user };
}

const throttled = (refusal: LoginRefusal) => new Forbidden(loginRefusalMessage(refusal), refusal.retryAfterSeconds);

/** Revokes the caller's token until it would have expired anyway. */
export async function logout(ctx: CommandContext, token: { jti: string; expiresAt: number }): Promise<void> {
  await commit(ctx, {
    writes: [tokenRevocation(token.jti, token.expiresAt, ctx.caller.id)],
    audit: [{ action: 'auth.logout', targetType: 'token', targetId: token.jti, changes: { revoked: true } }],
  });
}

const invalidVerification = () => new Invalid('Invalid or expired verification token', [{ field: 'token', message: 'is invalid or expired' }]);

export async function verifyEmail(token: string, requestId: string) {
  const at = new Date();
  const hash = sha256(token);
  const record = await getVerificationToken(hash);
  const user = record ? await getUser(record.userId) : undefined;
  const { next, audit } = decideVerification(record, user, at, invalidVerification);
  const current = user as UserRecord;
  const changed = () => new Conflict(`User ${current.id} was changed by another request (expected version ${current.version}); read it again and retry`);
  await commit(asAccount(current, requestId, at), {
    writes: [userChange(current, next), { ...verificationTokenConsume(hash, current.id, at), failed: changed }],
    audit,
  });
  return next;
}

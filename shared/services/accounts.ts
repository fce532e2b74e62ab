import { createHash, randomBytes } from 'node:crypto';
import { ulid } from 'ulidx';
import { settings } from '../config/env.js';
import { dummyHash, hashPassword, verifyPassword } from '../auth/passwords.js';
import { issueToken } from '../auth/tokens.js';
import { effectiveCapabilities } from '../domain/capabilities.js';
import { LOGIN_LOCKOUT, VERIFICATION_TOKEN_TTL_SECONDS, normalizeEmail } from '../domain/accounts.js';
import { auditPut, recordAudit } from '../db/audit.js';
import { outboxPut } from '../db/outbox.js';
import {
  clearLoginFailures,
  getLoginState,
  getVerificationToken,
  recordLoginFailure,
  revokeToken,
  verificationTokenDelete,
  verificationTokenPut,
} from '../db/tokens.js';
import { createUser, getUser, saveUser, type UserRecord } from '../db/users.js';
import { Invalid, Forbidden, Unauthenticated } from '../errors.js';
import type { Caller } from '../domain/caller.js';
import type { SignupBody, LoginBody } from '../../schemas/auth.js';

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

export async function signup(body: SignupBody, requestId: string) {
  const now = new Date().toISOString();
  const user: UserRecord = {
    id: ulid(),
    email: normalizeEmail(body.email),
    name: body.name.trim(),
    role: 'viewer',
    explicitCapabilities: null,
    farmIds: [],
    verified: false,
    locked: false,
    passwordHash: await hashPassword(body.password),
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  const verificationToken = randomBytes(32).toString('base64url');
  const { isProduction } = settings();
  await createUser(user, [
    verificationTokenPut(sha256(verificationToken), user.id, VERIFICATION_TOKEN_TTL_SECONDS),
    auditPut({ actorId: user.id, action: 'auth.signup', targetType: 'user', targetId: user.id, changes: { email: user.email, role: user.role }, requestId }),
    // In production the token leaves only by e-mail (an outbox item for the mailer); elsewhere it is returned.
    ...(isProduction ? [outboxPut('verify-email', { to: user.email, token: verificationToken }, VERIFICATION_TOKEN_TTL_SECONDS)] : []),
  ]);
  return { user, verificationToken: isProduction ? undefined : verificationToken };
}

const INVALID_CREDENTIALS = 'Invalid e-mail or password';

export async function login(body: LoginBody, requestId: string) {
  const email = normalizeEmail(body.email);
  const now = Math.floor(Date.now() / 1000);
  const { userId, failures } = await getLoginState(email);
  if (failures?.lockedUntil && failures.lockedUntil > now) throw lockedOut(failures.lockedUntil - now);
  const user = userId ? await getUser(userId) : undefined;
  // Unknown e-mails are checked against a dummy hash: same work, same answer, same timing.
  const passwordOk = await verifyPassword(body.password, user?.passwordHash ?? (await dummyHash()));
  if (!user || !passwordOk) {
    const after = await recordLoginFailure(email, LOGIN_LOCKOUT);
    if (user && after.lockedUntil && after.failures === LOGIN_LOCKOUT.maxFailures) {
      await recordAudit({
        actorId: null,
        action: 'auth.lockout',
        targetType: 'user',
        targetId: user.id,
        changes: { failures: after.failures, lockedUntil: new Date(after.lockedUntil * 1000).toISOString() },
        requestId,
      });
    }
    throw new Unauthenticated(INVALID_CREDENTIALS);
  }
  if (user.locked) throw new Forbidden('Account is locked');
  if (failures) await clearLoginFailures(email);
  const issued = await issueToken(user.id);
  return { token: issued.token, expiresAt: new Date(issued.expiresAt * 1000).toISOString(), user };
}

function lockedOut(retryAfter: number) {
  return new Forbidden(`Too many failed sign-in attempts; try again in ${Math.ceil(retryAfter / 60)} minute(s)`, retryAfter);
}

/** Revokes the caller's token until it would have expired anyway. */
export async function logout(user: Caller, token: { jti: string; expiresAt: number }, requestId: string): Promise<void> {
  await revokeToken(token.jti, token.expiresAt, user.id);
  await recordAudit({ actorId: user.id, action: 'auth.logout', targetType: 'token', targetId: token.jti, changes: { revoked: true }, requestId });
}

const invalidVerification = () => new Invalid('Invalid or expired verification token', [{ field: 'token', message: 'is invalid or expired' }]);

export async function verifyEmail(token: string, requestId: string) {
  const hash = sha256(token);
  const record = await getVerificationToken(hash);
  if (!record || record.expiresAt <= Math.floor(Date.now() / 1000)) throw invalidVerification();
  const user = await getUser(record.userId);
  if (!user) throw invalidVerification();
  const updated: UserRecord = { ...user, verified: true, updatedAt: new Date().toISOString(), version: user.version + 1 };
  await saveUser(updated, user.version, [
    verificationTokenDelete(hash, user.id),
    auditPut({
      actorId: user.id,
      action: 'auth.verify-email',
      targetType: 'user',
      targetId: user.id,
      changes: { verified: { from: user.verified, to: true } },
      requestId,
    }),
  ]);
  return updated;
}

import type { MiddlewareObj } from '@middy/core';
import { verifyToken } from '../../auth/tokens.js';
import { effectiveCapabilities } from '../../domain/capabilities.js';
import { loadUserAndRevocation } from '../../db/users.js';
import type { UserRecord } from '../../domain/users.js';
import { Forbidden, Unauthenticated } from '../../errors.js';
import { stateOf, type AuthUser, type HttpRequest, type RouteSpec } from '../context.js';
import { authenticateDevice } from '../../services/iot/devices.js';

/**
 * Stage 6: bearer JWT (jose, pinned algorithm, iss/aud/exp required) → 401; revoked token → 401; then
 * the user, read fresh with the revocation marker in one call: deleted → 401, locked or unverified → 403.
 * Capabilities come from the user record, never from the token. A `device` route instead takes a
 * registered device's `X-Device-Key` (wrong, rotated or deleted → 401).
 */
export function authenticate(spec: RouteSpec): MiddlewareObj {
  const before = async (request: HttpRequest) => {
    if (spec.capability === 'public') return;
    const state = stateOf(request);
    if (spec.capability === 'device') {
      state.device = await authenticateDevice(state.headers['x-device-key']);
      return;
    }
    const header = state.headers.authorization ?? '';
    const match = /^Bearer +([A-Za-z0-9_.~+/=-]+)$/i.exec(header.trim());
    if (!match) throw new Unauthenticated(header ? 'Authorization header must be "Bearer <token>"' : 'Missing bearer token');
    const token = await verifyToken(match[1]!);
    const { user, revoked } = await loadUserAndRevocation(token.userId, token.jti);
    if (revoked) throw new Unauthenticated('Token has been revoked');
    if (!user) throw new Unauthenticated('Account no longer exists');
    if (user.locked) throw new Forbidden('Account is locked');
    if (!user.verified && !spec.allowUnverified) throw new Forbidden('Account e-mail is not verified');
    state.user = signedIn(user, token);
  };
  return { before } as MiddlewareObj;
}

/** The caller a verified token and its freshly read user record make. */
export function signedIn(user: UserRecord, token: { jti: string; expiresAt: number }): AuthUser {
  return {
    ...user,
    capabilities: new Set(effectiveCapabilities(user.role, user.explicitCapabilities)),
    allFarms: user.role === 'admin',
    token: { jti: token.jti, expiresAt: token.expiresAt },
  };
}

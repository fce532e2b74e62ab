import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { ulid } from 'ulidx';
import { settings } from '../config/env.js';
import { serviceSecret } from './secret.js';
import { Unauthenticated } from '../errors.js';

/**
 * Access tokens: HS256 JWTs signed with JWT_SECRET (≥ 32 bytes). One pinned algorithm; `iss`, `aud`,
 * `sub`, `jti`, `iat` and `exp` are required on verification. Revocation is checked by the caller.
 */
export const ALGORITHM = 'HS256';

let cachedKey: { secret: string; key: Uint8Array } | undefined;
function signingKey(): Uint8Array {
  const secret = serviceSecret();
  if (cachedKey?.secret === secret) return cachedKey.key;
  cachedKey = { secret, key: new TextEncoder().encode(secret) };
  return cachedKey.key;
}

export interface IssuedToken {
  token: string;
  jti: string;
  expiresAt: number;
}

export async function issueToken(userId: string): Promise<IssuedToken> {
  const { jwtIssuer, jwtAudience, jwtTtlSeconds } = settings();
  const now = Math.floor(Date.now() / 1000);
  const jti = ulid();
  const expiresAt = now + jwtTtlSeconds;
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setIssuer(jwtIssuer)
    .setAudience(jwtAudience)
    .setSubject(userId)
    .setJti(jti)
    .setIssuedAt(now)
    .setExpirationTime(expiresAt)
    .sign(signingKey());
  return { token, jti, expiresAt };
}

export interface VerifiedToken {
  userId: string;
  jti: string;
  expiresAt: number;
}

export async function verifyToken(token: string): Promise<VerifiedToken> {
  const { jwtIssuer, jwtAudience } = settings();
  try {
    const { payload } = await jwtVerify(token, signingKey(), {
      algorithms: [ALGORITHM],
      issuer: jwtIssuer,
      audience: jwtAudience,
      requiredClaims: ['sub', 'jti', 'iat', 'exp'],
    });
    return { userId: payload.sub!, jti: payload.jti!, expiresAt: payload.exp! };
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw new Unauthenticated('Token has expired');
    if (err instanceof joseErrors.JOSEError) throw new Unauthenticated('Invalid token');
    throw err;
  }
}

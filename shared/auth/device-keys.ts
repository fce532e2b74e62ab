import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Device keys: `X-Device-Key: <deviceId>.<secret>`. The secret is 32 random bytes (base64url, 43
 * characters), shown once and stored as its SHA-256 hash. A slow password hash buys nothing for a
 * 256-bit random secret, and ingestion checks it on every batch.
 */
export const newDeviceSecret = (): string => randomBytes(32).toString('base64url');

export const hashDeviceSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('base64url');

export const deviceKeyOf = (deviceId: string, secret: string): string => `${deviceId}.${secret}`;

/** The device id and secret of a header value, or null when it is not `<ULID>.<43 base64url characters>`. */
export function parseDeviceKey(header: string | undefined): { deviceId: string; secret: string } | null {
  const match = /^([0-9A-HJKMNP-TV-Z]{26})\.([A-Za-z0-9_-]{43})$/.exec((header ?? '').trim());
  return match ? { deviceId: match[1]!, secret: match[2]! } : null;
}

/** Compares in constant time. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const a = Buffer.from(hashDeviceSecret(secret));
  const b = Buffer.from(storedHash);
  return a.length === b.length && timingSafeEqual(a, b);
}

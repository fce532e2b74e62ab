import { hkdfSync } from 'node:crypto';

/**
 * The service's one secret, JWT_SECRET (≥ 32 bytes; Secrets Manager in AWS, `.local/jwt-secret` locally).
 * Access tokens are signed with it as it is; every other use gets a key of its own derived from it with
 * HKDF-SHA256 and a label naming that use (RFC 5869; OWASP Cryptographic Storage Cheat Sheet: one key per
 * purpose), so no other key is the signing key and rotating the secret rotates them all.
 */
export function serviceSecret(): string {
  const secret = process.env.JWT_SECRET ?? '';
  if (Buffer.byteLength(secret) < 32) throw new Error('JWT_SECRET is missing or shorter than 32 bytes');
  return secret;
}

let derived: { secret: string; keys: Map<string, Buffer> } | undefined;

/** A 256-bit key for one purpose (`label`, e.g. `flockwise/list-cursor/v1`), derived from the service's secret. */
export function derivedKey(label: string): Buffer {
  const secret = serviceSecret();
  if (derived?.secret !== secret) derived = { secret, keys: new Map() };
  let key = derived.keys.get(label);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, 'flockwise', label, 32));
    derived.keys.set(label, key);
  }
  return key;
}

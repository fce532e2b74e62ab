/**
 * What no response may carry: credentials, secrets and raw table keys, by property name at any depth,
 * and known secret values anywhere in the raw body or a header.
 */

/** Property names that hold a credential, a secret or a raw DynamoDB key. Compared case-insensitively. */
export const SECRET_KEYS = [
  'password',
  'passwordHash',
  'salt',
  'secret',
  'jwtSecret',
  'hash',
  'tokenHash',
  'apiKey',
  'privateKey',
  'token',
  'accessToken',
  'refreshToken',
  'resetToken',
  'verificationToken',
  'PK',
  'SK',
];
const EXACT = new Set(SECRET_KEYS.map((k) => k.toLowerCase()));
/** GSI1PK, GSI2SK…, and any name that mentions a password, secret or salt. */
const PATTERN = /^(gsi|lsi)\d*(pk|sk)$|password|secret|salt/i;

export const isSecretKey = (key: string) => EXACT.has(key.toLowerCase()) || PATTERN.test(key);

/**
 * JSON paths (`$.data.user.passwordHash`) of secret-named properties anywhere in `value`, except the
 * `allowed` paths (the login response's `$.token`, signup's `$.data.verificationToken` outside prod).
 */
export function secretPaths(value: unknown, allowed: readonly string[] = [], path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => secretPaths(v, allowed, `${path}[${i}]`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const p = `${path}.${k}`;
    return [...(isSecretKey(k) && !allowed.includes(p) ? [p] : []), ...secretPaths(v, allowed, p)];
  });
}

/** Raw fragments that must never appear in a body or header: a password hash, a table key, the signing secret. */
export function leakedFragments(raw: string, secrets: readonly string[]): string[] {
  const found: string[] = [];
  if (/scrypt\$\d+\$/.test(raw)) found.push('a scrypt password hash');
  const key = /\b(USER|EMAIL|REVOKED|VERIFY|IDEMPOTENCY|RATE|AUDIT|OUTBOX)#[\w.@-]*/.exec(raw);
  if (key) found.push(`a raw table key (${key[0]})`);
  for (const s of secrets) if (s && raw.includes(s)) found.push(`the value ${JSON.stringify(s.length > 24 ? `${s.slice(0, 12)}…` : s)}`);
  return found;
}

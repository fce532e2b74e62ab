import { describe, expect, it } from 'vitest';
import { diff, normalizeEmail } from '../../shared/domain/accounts.js';
import { versionFromIfMatch } from '../../shared/http/request-headers.js';
import { allowedMethods } from '../../shared/http/route-match.js';
import { hashPassword, verifyPassword } from '../../shared/auth/passwords.js';

describe('account rules', () => {
  it('normalizes e-mail addresses', () => {
    expect(normalizeEmail('  Jane.Doe@Example.COM ')).toBe('jane.doe@example.com');
  });

  it('diffs only changed fields, arrays by content', () => {
    const a = { role: 'worker', farmIds: ['A'], locked: false };
    expect(diff(a, { ...a, farmIds: ['A'] }, ['role', 'farmIds', 'locked'])).toEqual({});
    expect(diff(a, { ...a, farmIds: ['B'], locked: true }, ['role', 'farmIds', 'locked'])).toEqual({
      farmIds: { from: ['A'], to: ['B'] },
      locked: { from: false, to: true },
    });
  });

  it('reads versions from If-Match', () => {
    expect(versionFromIfMatch(undefined)).toBeUndefined();
    expect(versionFromIfMatch('"3"')).toBe(3);
    expect(versionFromIfMatch('W/"12"')).toBe(12);
    expect(versionFromIfMatch('7')).toBe(7);
    expect(versionFromIfMatch('"abc"')).toBeNaN();
  });
});

describe('route matching for 404/405', () => {
  const routes = [
    { method: 'GET', path: '/api/v1/admin/users/{userId}' },
    { method: 'PATCH', path: '/api/v1/admin/users/{userId}' },
    { method: 'POST', path: '/api/v1/auth/login' },
  ];
  it('finds the methods served on a concrete path', () => {
    expect(allowedMethods(routes, '/api/v1/admin/users/01ABC')).toEqual(['GET', 'PATCH']);
    expect(allowedMethods(routes, '/api/v1/auth/login/')).toEqual(['POST']);
    expect(allowedMethods(routes, '/api/v1/admin/users/')).toEqual([]);
    expect(allowedMethods(routes, '/api/v1/nothing')).toEqual([]);
  });
});

describe('password hashing', () => {
  it('uses scrypt at OWASP parameters, salts every hash, verifies only the right password', async () => {
    const [a, b] = await Promise.all([hashPassword('correct horse battery'), hashPassword('correct horse battery')]);
    expect(a).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
    expect(await verifyPassword('x', 'bcrypt$whatever')).toBe(false);
  });
});

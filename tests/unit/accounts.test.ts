import { describe, expect, it } from 'vitest';
import { LOGIN_THROTTLE, clientDelaySeconds, diff, loginRefusal, loginRefusalMessage, normalizeEmail } from '../../shared/domain/accounts.js';
import { versionFromIfMatch } from '../../shared/http/request-headers.js';
import { allowedMethods } from '../../shared/http/route-match.js';
import { hashPassword, verifyPassword } from '../../shared/auth/passwords.js';

describe('account rules', () => {
  it('normalizes e-mail addresses', () => {
    expect(normalizeEmail('  Jane.Doe@Example.COM ')).toBe('jane.doe@example.com');
  });

  it('sign-in throttle: 5 free failures per client, then 1 min doubling to at most 15 min; the account ceiling wins', () => {
    expect([1, 4, 5, 6, 7, 8, 9, 10, 50].map(clientDelaySeconds)).toEqual([0, 0, 60, 120, 240, 480, 900, 900, 900]);
    const now = 1_000_000;
    const state = (client: { attempts: number; openAt: number } | undefined, accountFailures = 0) => ({
      client,
      accountFailures,
      accountWindowEndsAt: now + 300,
    });
    expect(loginRefusal(state(undefined), now)).toBeNull();
    expect(loginRefusal(state({ attempts: 5, openAt: now }), now)).toBeNull();
    expect(loginRefusal(state({ attempts: 5, openAt: now + 42 }), now)).toEqual({ scope: 'client', retryAfterSeconds: 42 });
    expect(loginRefusal(state(undefined, LOGIN_THROTTLE.accountMaxFailures - 1), now)).toBeNull();
    expect(loginRefusal(state({ attempts: 9, openAt: now + 900 }, LOGIN_THROTTLE.accountMaxFailures), now)).toEqual({
      scope: 'account',
      retryAfterSeconds: 300,
    });
    expect(loginRefusalMessage({ scope: 'client', retryAfterSeconds: 60 })).toBe(
      'Too many failed sign-in attempts for this e-mail from your address; try again in 60 second(s)',
    );
    expect(loginRefusalMessage({ scope: 'account', retryAfterSeconds: 61 })).toBe('Too many failed sign-in attempts for this e-mail; try again in 2 minute(s)');
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

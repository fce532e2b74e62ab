/**
 * OWASP API2:2023 (broken authentication). Tokens: every way a bearer token can be forged, replayed or
 * outlived (other key, `alg: none` and algorithm confusion, expired, wrong issuer or audience, missing
 * claims, revoked, deleted/locked/unverified account) is refused on EVERY authenticated route of the route
 * table with the contract's status (401; 403 for locked and unverified accounts), and malformed
 * Authorization headers are 401. Sign-in: the throttle of shared/domain/accounts.ts (LOGIN_THROTTLE), which
 * slows the failing client and cannot be turned into a lockout of the owner (the lockout-abuse case), and
 * no user enumeration: an unknown e-mail and a wrong password get the same status, body and headers, the
 * same password work and the same data calls (counted, never timed); sign-up answers a registered and a new
 * address alike. Tokens are minted with jose from the service's own
 * claim settings (shared/config/env.ts: iss, aud, ttl).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { SignJWT, UnsecuredJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { ulid } from 'ulidx';
import { beforeAll, describe, expect, it, vi } from 'vitest';

// Counts the password work of each sign-in (the real scrypt still runs): an unknown e-mail must cost the same.
vi.mock('../../shared/auth/passwords.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../shared/auth/passwords.js')>();
  return { ...original, verifyPassword: vi.fn(original.verifyPassword), hashPassword: vi.fn(original.hashPassword) };
});

import { hashPassword, verifyPassword } from '../../shared/auth/passwords.js';
import { resetSettings, settings } from '../../shared/config/env.js';
import { dbCalls, resetDbCalls } from '../../shared/db/client.js';
import { getUserIdByEmail } from '../../shared/db/users.js';
import { LOGIN_THROTTLE } from '../../shared/domain/accounts.js';
import { call, type CallOptions, type CallResult } from '../support/api.js';
import { PASSWORD, login, uniqueEmail } from '../support/accounts.js';
import { otherFarm } from '../support/farms.js';
import { account, session, type Account } from './support/accounts.js';
import { apiRoutes, fill, isPublic, takesDeviceKey, type Route } from './support/routes.js';

const routes = await apiRoutes();
// every route a bearer token opens (the device-key route has its own suite: iot-device-keys.test.ts)
const guarded = routes.filter((r) => !isPublic(r) && !takesDeviceKey(r));
const VERIFY = '/api/v1/auth/verify-token';
const ADMIN_ROUTE = '/api/v1/admin/users';

// --- tokens ------------------------------------------------------------------------------------------

const key = () => new TextEncoder().encode(process.env.JWT_SECRET!);
const now = () => Math.floor(Date.now() / 1000);
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

/** The claims the service itself issues (shared/auth/tokens.ts), for `sub`. */
function claimsFor(sub: string): Record<string, unknown> {
  const { jwtIssuer, jwtAudience, jwtTtlSeconds } = settings();
  return { iss: jwtIssuer, aud: jwtAudience, sub, jti: randomBytes(12).toString('hex'), iat: now(), exp: now() + jwtTtlSeconds };
}

/** A token like the service's own, with claims changed (`null` removes one), another algorithm, key or header. */
async function mint(sub: string, over: Record<string, unknown> = {}, opts: { alg?: string; key?: Uint8Array; header?: Record<string, unknown> } = {}) {
  const claims = { ...claimsFor(sub), ...over };
  for (const [k, v] of Object.entries(claims)) if (v === null) delete claims[k];
  return new SignJWT(claims).setProtectedHeader({ alg: opts.alg ?? 'HS256', typ: 'JWT', ...opts.header }).sign(opts.key ?? key());
}

/** A token assembled by hand: any header, any payload, any (or no) signature. */
function handmade(header: Record<string, unknown>, payload: Record<string, unknown>, sign?: (input: string) => string): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${sign ? sign(input) : ''}`;
}
const hmac = (alg: 'sha256' | 'sha512', secret: string | Uint8Array) => (input: string) => createHmac(alg, secret).update(input).digest('base64url');

// --- assertions --------------------------------------------------------------------------------------

function expectRefused(res: CallResult, status: 401 | 403, label: string, error?: string | RegExp): void {
  expect(res.status, `${label} → ${res.raw}`).toBe(status);
  expect(Object.keys(res.body ?? {}), label).toEqual(['error']);
  if (error !== undefined)
    expect(res.body.error, label).toMatch(typeof error === 'string' ? new RegExp(`^${error.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : error);
  if (status === 401) expect(res.headers['WWW-Authenticate'], label).toBe('Bearer');
  expect(res.raw, label).not.toMatch(/"(token|user|data)"/);
}

/** The route with fresh ids and an empty body: authentication comes before any lookup or validation. */
const send = (r: Pick<Route, 'method' | 'path'>, token: string | undefined) =>
  call(r.method, fill(r.path), { body: {}, ...(token === undefined ? {} : { token }) });

// --- accounts ----------------------------------------------------------------------------------------

let admin: string;
let adminId: string;
const accounts = {} as Record<'deleted' | 'locked' | 'revoked' | 'demoted' | 'viewer', Account>;
let unverified: Account & { spare: string };

beforeAll(async () => {
  const root = await account({ role: 'admin' });
  [admin, adminId] = [root.token, root.id];
  const farmId = await otherFarm('API2 farm');
  const [deleted, locked, revoked, demoted, viewer, pending] = await Promise.all([
    account({ role: 'worker' }),
    account({ role: 'worker' }),
    account({ role: 'worker' }),
    account({ role: 'manager', farmIds: [farmId] }),
    account(),
    account({ verified: false }),
  ]);
  Object.assign(accounts, { deleted, locked, revoked, demoted, viewer });
  unverified = { ...pending!, spare: await session(pending!.id) };

  expect((await call('DELETE', `/api/v1/admin/users/${deleted!.id}`, { token: admin })).status).toBe(204);
  expect((await call('PATCH', `/api/v1/admin/users/${locked!.id}`, { token: admin, body: { locked: true } })).status).toBe(200);
  expect((await call('POST', '/api/v1/auth/logout', { token: revoked!.token, body: {} })).status).toBe(200);
});

// ------------------------------------------------------------------------------------------------------

describe('every authenticated route of the route table refuses a bad token', () => {
  it('covers the authenticated routes', () => {
    expect(guarded.length).toBeGreaterThan(35);
  });

  const sweep = (status: 401 | 403, error: string, token: () => string | undefined | Promise<string>) => async () => {
    for (const r of guarded) expectRefused(await send(r, await token()), status, r.label, error);
  };

  it(
    'no token: 401 Missing bearer token',
    sweep(401, 'Missing bearer token', () => undefined),
  );
  it(
    'a token signed with another secret: 401',
    sweep(401, 'Invalid token', () => mint(adminId, {}, { key: randomBytes(48) })),
  );
  it(
    'an unsigned alg:none token: 401',
    sweep(401, 'Invalid token', () => new UnsecuredJWT(claimsFor(adminId)).encode()),
  );
  it(
    'an expired token: 401',
    sweep(401, 'Token has expired', () => mint(adminId, { iat: now() - 7200, exp: now() - 1 })),
  );
  it(
    'a token revoked by logout: 401',
    sweep(401, 'Token has been revoked', () => accounts.revoked.token),
  );
  it(
    'the token of a deleted account: 401',
    sweep(401, 'Account no longer exists', () => accounts.deleted.token),
  );
  it(
    'the token of a locked account (issued before the lock): 403',
    sweep(403, 'Account is locked', () => accounts.locked.token),
  );

  it('the token of an unverified account: 403 everywhere but verify-token and logout', async () => {
    for (const r of guarded) {
      if (r.spec.allowUnverified) {
        // logout revokes what it is given: a session of its own
        const res = await send(r, r.path.endsWith('/logout') ? unverified.spare : unverified.token);
        expect(res.status, `${r.label} → ${res.raw}`).toBe(200);
      } else {
        expectRefused(await send(r, unverified.token), 403, r.label, 'Account e-mail is not verified');
      }
    }
    expect(
      guarded
        .filter((r) => r.spec.allowUnverified)
        .map((r) => r.path)
        .sort(),
    ).toEqual(['/api/v1/auth/logout', VERIFY]);
  });
});

describe('forged, tampered and incomplete tokens', () => {
  const targets = [
    { method: 'POST', path: VERIFY },
    { method: 'GET', path: ADMIN_ROUTE },
  ];

  it('a token minted exactly like the service’s own is accepted (control for every case below)', async () => {
    for (const t of targets) expect((await send(t, await mint(adminId))).status, t.path).toBe(200);
  });

  it('other keys, other algorithms and alg:none in every spelling are refused', async () => {
    const secret = process.env.JWT_SECRET!;
    const cases: Record<string, string> = {
      otherSecret: await mint(adminId, {}, { key: new TextEncoder().encode(`forged-${randomBytes(24).toString('hex')}`) }),
      unsecured: new UnsecuredJWT(claimsFor(adminId)).encode(),
      ...Object.fromEntries(['none', 'None', 'NONE', 'nOnE'].map((alg) => [`alg ${alg}`, handmade({ alg, typ: 'JWT' }, claimsFor(adminId))])),
      'alg none with a signature': handmade({ alg: 'none' }, claimsFor(adminId), hmac('sha256', secret)),
      'HS256 with the signature cut off': handmade({ alg: 'HS256', typ: 'JWT' }, claimsFor(adminId)),
      'HS512 with the right secret': await mint(adminId, {}, { alg: 'HS512', key: new TextEncoder().encode(secret.repeat(2)) }),
      'RS256 header over an HMAC of the secret (algorithm confusion)': handmade({ alg: 'RS256', typ: 'JWT' }, claimsFor(adminId), hmac('sha256', secret)),
      'embedded jwk with the attacker’s key': await mint(
        adminId,
        {},
        {
          key: new TextEncoder().encode('attacker-key-attacker-key-attacker-key!'),
          header: { jwk: { kty: 'oct', k: Buffer.from('attacker-key-attacker-key-attacker-key!').toString('base64url') } },
        },
      ),
      'kid path traversal signed with an empty key': handmade({ alg: 'HS256', kid: '../../../../dev/null' }, claimsFor(adminId), hmac('sha256', '')),
      'unknown critical header, right key': handmade(
        { alg: 'HS256', typ: 'JWT', crit: ['x-flockwise'], 'x-flockwise': true },
        claimsFor(adminId),
        hmac('sha256', secret),
      ),
    };
    const good = await mint(adminId);
    const [h, p, s] = good.split('.') as [string, string, string];
    cases['signature of another token'] = `${h}.${p}.${(await mint(adminId)).split('.')[2]}`;
    cases['one signature character changed'] = `${h}.${p}.${s.slice(0, -2)}${s.endsWith('AA') ? 'BB' : 'AA'}`;
    cases['payload tampered (sub changed, signature kept)'] = `${h}.${b64({ ...decodeJwt(good), sub: accounts.viewer.id })}.${s}`;
    cases['payload tampered (exp extended, signature kept)'] = `${h}.${b64({ ...decodeJwt(good), exp: now() + 10 * 365 * 86_400 })}.${s}`;
    for (const [name, token] of Object.entries(cases)) {
      for (const t of targets) expectRefused(await send(t, token), 401, `${name} on ${t.path}`, 'Invalid token');
    }
  });

  it('expired, not yet valid, wrong issuer or audience, and missing or mistyped claims are refused', async () => {
    const { jwtIssuer, jwtAudience } = settings();
    const cases: Record<string, [string, string]> = {
      'expired a second ago': [await mint(adminId, { iat: now() - 3601, exp: now() - 1 }), 'Token has expired'],
      'expired long ago': [await mint(adminId, { iat: 1_000_000_000, exp: 1_000_003_600 }), 'Token has expired'],
      'not valid before an hour from now': [await mint(adminId, { nbf: now() + 3600 }), 'Invalid token'],
      'wrong issuer': [await mint(adminId, { iss: `${jwtIssuer}-staging` }), 'Invalid token'],
      'no issuer': [await mint(adminId, { iss: null }), 'Invalid token'],
      'wrong audience': [await mint(adminId, { aud: `${jwtAudience}-admin` }), 'Invalid token'],
      'audience list without ours': [await mint(adminId, { aud: ['another-api', 'third-api'] }), 'Invalid token'],
      'no audience': [await mint(adminId, { aud: null }), 'Invalid token'],
      'no exp': [await mint(adminId, { exp: null }), 'Invalid token'],
      'exp as a string': [await mint(adminId, { exp: String(now() + 3600) }), 'Invalid token'],
      'no jti': [await mint(adminId, { jti: null }), 'Invalid token'],
      'no iat': [await mint(adminId, { iat: null }), 'Invalid token'],
      'no sub': [await mint(adminId, { sub: null }), 'Invalid token'],
      'sub of an account that never existed': [await mint(ulid()), 'Account no longer exists'],
      'empty sub': [await mint(''), 'Account no longer exists'],
    };
    for (const [name, [token, error]] of Object.entries(cases)) {
      for (const t of targets) expectRefused(await send(t, token), 401, `${name} on ${t.path}`, error);
    }
  });

  it('capabilities come from the account, never from the token: role and capability claims are ignored', async () => {
    const token = await mint(accounts.viewer.id, { role: 'admin', capabilities: ['manage_users'], scope: 'admin', isAdmin: true });
    const res = await send({ method: 'GET', path: ADMIN_ROUTE }, token);
    expectRefused(res, 403, 'viewer token with admin claims', 'Missing capability: manage_users');
    expect((await call('POST', VERIFY, { token, body: {} })).body.data.user).toMatchObject({ role: 'viewer' });
  });

  it('a role change takes effect on the very next request with the same token', async () => {
    const { id, token } = accounts.demoted;
    const farmId = (await call('POST', VERIFY, { token, body: {} })).body.data.user.farmIds[0];
    const flock = { name: 'Before demotion', birdType: 'broiler', farmId };
    expect((await call('POST', '/api/v1/flocks', { token, body: flock })).status).toBe(201);
    expect((await call('PATCH', `/api/v1/admin/users/${id}`, { token: admin, body: { role: 'viewer' } })).status).toBe(200);
    expectRefused(await call('POST', '/api/v1/flocks', { token, body: flock }), 403, 'demoted manager', 'Missing capability: manage_flocks');
  });

  it('a deleted account’s token stays refused after its e-mail is registered again', async () => {
    const signup = await call('POST', '/api/v1/auth/signup', { body: { email: accounts.deleted.email, password: PASSWORD, name: 'Same E-mail' } });
    expect(signup.status).toBe(202);
    const again = await getUserIdByEmail(accounts.deleted.email);
    expect(again).toBeDefined();
    expect(again).not.toBe(accounts.deleted.id);
    expectRefused(await send({ method: 'POST', path: VERIFY }, accounts.deleted.token), 401, 'old token, e-mail reused', 'Account no longer exists');
  });

  it('logout revokes only the token it is called with, and a revoked token cannot log out again', async () => {
    const [a, b] = await Promise.all([session(accounts.viewer.id), session(accounts.viewer.id)]);
    expect((await call('POST', '/api/v1/auth/logout', { token: a, body: {} })).status).toBe(200);
    expectRefused(await call('POST', '/api/v1/auth/logout', { token: a, body: {} }), 401, 'second logout', 'Token has been revoked');
    expect((await call('POST', VERIFY, { token: b, body: {} })).status).toBe(200);
  });

  it('an issued token carries only the standard claims, HS256, the configured lifetime and a fresh jti', async () => {
    const { email } = accounts.viewer;
    const [one, two] = await Promise.all([login(email, PASSWORD), login(email, PASSWORD)]);
    const { jwtIssuer, jwtAudience, jwtTtlSeconds } = settings();
    expect(decodeProtectedHeader(one)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = decodeJwt(one);
    expect(Object.keys(claims).sort()).toEqual(['aud', 'exp', 'iat', 'iss', 'jti', 'sub']);
    expect(claims).toMatchObject({ iss: jwtIssuer, aud: jwtAudience, sub: accounts.viewer.id });
    expect(claims.exp! - claims.iat!).toBe(jwtTtlSeconds);
    expect(decodeJwt(two).jti).not.toBe(claims.jti);
  });
});

describe('malformed Authorization headers', () => {
  it('anything but exactly one "Bearer <token>" is 401, even around a valid token', async () => {
    const t = admin;
    const cases: Record<string, Record<string, string>> = {
      'token without a scheme': { Authorization: t },
      'Basic credentials': { Authorization: `Basic ${Buffer.from('admin@test.local:admin-password-123').toString('base64')}` },
      'other scheme': { Authorization: `Token ${t}` },
      'JWT scheme': { Authorization: `JWT ${t}` },
      'Bearer alone': { Authorization: 'Bearer' },
      'Bearer and spaces': { Authorization: 'Bearer    ' },
      'two tokens, space separated': { Authorization: `Bearer ${t} ${t}` },
      'two tokens, comma separated': { Authorization: `Bearer ${t},${t}` },
      'two Bearer credentials': { Authorization: `Bearer ${t}, Bearer ${t}` },
      'two Bearer lines': { Authorization: `Bearer ${t}\nBearer ${t}` },
      'quoted token': { Authorization: `Bearer "${t}"` },
      'token with a trailing semicolon': { Authorization: `Bearer ${t};` },
      'token with a parameter': { Authorization: `Bearer ${t} realm="x"` },
      'huge garbage token (200 KB)': { Authorization: `Bearer ${'A'.repeat(200_000)}` },
      'huge tail after a valid token': { Authorization: `Bearer ${t}${'.A'.repeat(50_000)}` },
      'huge run of spaces before garbage': { Authorization: `Bearer${' '.repeat(100_000)}!` },
    };
    for (const [name, headers] of Object.entries(cases)) {
      for (const path of [VERIFY, ADMIN_ROUTE]) {
        const res = await call(path === VERIFY ? 'POST' : 'GET', path, { body: {}, headers });
        expectRefused(res, 401, `${name} on ${path}`);
      }
    }
  });

  it('a token anywhere but the Authorization header is ignored (query string, cookie, other headers)', async () => {
    const elsewhere: CallOptions[] = [
      { query: { access_token: admin } },
      { query: { token: admin } },
      { headers: { Cookie: `token=${admin}; access_token=${admin}` } },
      { headers: { 'X-Access-Token': admin, 'X-Auth-Token': admin } },
    ];
    for (const opts of elsewhere) {
      expectRefused(await call('POST', VERIFY, { body: {}, ...opts }), 401, JSON.stringify(Object.keys(opts)), 'Missing bearer token');
    }
  });

  it('the scheme name is case-insensitive (RFC 7235), as the service documents (control)', async () => {
    expect((await call('POST', VERIFY, { body: {}, headers: { authorization: `bearer ${admin}` } })).status).toBe(200);
  });
});

describe('sign-in throttling and lockout abuse (LOGIN_THROTTLE)', () => {
  const { freeFailures, baseDelaySeconds } = LOGIN_THROTTLE;
  const attempt = (email: string, password: string, ip: string) => call('POST', '/api/v1/auth/login', { ip, body: { email, password } });
  const spelled = (e: string, i: number) => [e, e.toUpperCase(), `  ${e}  `, e.replace(/^./, (c) => c.toUpperCase())][i % 4]!;
  const DELAYED = /^Too many failed sign-in attempts for this e-mail from your address; try again in \d+ (second|minute)\(s\)$/;

  function expectDelayed(res: CallResult, label: string, most = baseDelaySeconds): void {
    expectRefused(res, 403, label, DELAYED);
    const retryAfter = Number(res.headers['Retry-After']);
    expect(retryAfter, label).toBeGreaterThan(0);
    expect(retryAfter, label).toBeLessThanOrEqual(most);
  }

  it('lockout abuse: an attacker’s failures delay only the attacker’s address; the owner signs in from another, the attacker not even with the right password', async () => {
    const owner = await account({ role: 'admin' });
    const ghost = uniqueEmail('ghost');
    const attacker = '203.0.113.2';
    for (let i = 0; i < freeFailures; i++) {
      // the e-mail in any letter case is one e-mail; an unknown one is counted the same way
      expectRefused(await attempt(spelled(owner.email, i), `wrong-password-${i}`, attacker), 401, `failure ${i + 1}`, 'Invalid e-mail or password');
      expectRefused(await attempt(ghost, `wrong-password-${i}`, attacker), 401, `unknown e-mail, failure ${i + 1}`, 'Invalid e-mail or password');
    }
    const delayed = await attempt(owner.email, PASSWORD, attacker);
    expectDelayed(delayed, 'the attacker, right password');
    const ghostDelayed = await attempt(ghost, PASSWORD, attacker);
    expectDelayed(ghostDelayed, 'the attacker, unknown e-mail');
    // the same text, but for the seconds left (its own failures came a moment later)
    expect(ghostDelayed.body.error.replace(/\d+/, 'N')).toBe(delayed.body.error.replace(/\d+/, 'N'));
    // the attacker keeps trying: every attempt refused, and none of it reaches the owner
    for (let i = 0; i < 10; i++) expectDelayed(await attempt(owner.email, `wrong-again-${i}`, attacker), `the attacker, attempt ${freeFailures + 2 + i}`);
    for (const ip of ['203.0.113.3', '198.51.100.77']) expect((await attempt(owner.email, PASSWORD, ip)).status, `the owner from ${ip}`).toBe(200);
  }, 120_000);

  it('one client holds no account of others: failures on several accounts from one address leave each open to its owner', async () => {
    const owners = await Promise.all(Array.from({ length: 3 }, () => account()));
    const attacker = '203.0.113.4';
    for (const o of owners) for (let i = 0; i < freeFailures; i++) await attempt(o.email, `wrong-password-${i}`, attacker);
    for (const o of owners) {
      expectDelayed(await attempt(o.email, PASSWORD, attacker), `the attacker on ${o.email}`);
      expect((await attempt(o.email, PASSWORD, '203.0.113.5')).status, `the owner of ${o.email}`).toBe(200);
    }
  }, 120_000);

  it('a burst of concurrent guesses from one address gets no more password checks than the free failures', async () => {
    const { email } = await account();
    vi.mocked(verifyPassword).mockClear();
    const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => attempt(email, `wrong-password-${i}`, '203.0.113.6')));
    const checked = burst.filter((r) => r.status === 401).length;
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(freeFailures);
    expect(vi.mocked(verifyPassword).mock.calls).toHaveLength(checked);
    for (const res of burst.filter((r) => r.status !== 401)) expectDelayed(res, 'refused in the burst');
  }, 120_000);

  it('a sign-in from the address starts its count over', async () => {
    const { email } = await account();
    const ip = '203.0.113.7';
    for (let i = 0; i < freeFailures - 1; i++) expect((await attempt(email, `wrong-password-${i}`, ip)).status).toBe(401);
    expect((await attempt(email, PASSWORD, ip)).status).toBe(200);
    // had the sign-in not cleared the count, the second of these would already be delayed
    for (let i = 0; i < freeFailures; i++) expectRefused(await attempt(email, `wrong-again-${i}`, ip), 401, `failure ${i + 1} after the sign-in`);
    expectDelayed(await attempt(email, PASSWORD, ip), 'after the free failures');
  }, 120_000);
});

describe('no user enumeration', () => {
  const attempt = (email: string, password: string) => call('POST', '/api/v1/auth/login', { body: { email, password } });
  /** The scrypt parameters of each password check since the last clear (the service's own work, not a timing). */
  const passwordWork = () => vi.mocked(verifyPassword).mock.calls.map(([, stored]) => stored.split('$').slice(0, 4).join('$'));
  const headerNames = (res: CallResult) => Object.keys(res.headers).sort();

  it('an unknown e-mail, a wrong password, and a wrong password of a locked or unverified account: same status, body, headers, password work and data calls', async () => {
    vi.mocked(verifyPassword).mockClear();
    resetDbCalls();
    const unknown = await attempt(uniqueEmail('nobody'), 'wrong-password-1');
    const unknownWork = passwordWork();
    const unknownCalls = { ...dbCalls };
    expectRefused(unknown, 401, 'unknown e-mail', 'Invalid e-mail or password');
    expect(unknownWork).toEqual(['scrypt$131072$8$1']);
    for (const [name, email] of [
      ['wrong password', accounts.viewer.email],
      ['locked account', accounts.locked.email],
      ['unverified account', unverified.email],
    ] as const) {
      vi.mocked(verifyPassword).mockClear();
      resetDbCalls();
      const res = await attempt(email, 'wrong-password-1');
      expect(res.status, name).toBe(unknown.status);
      expect(res.body, name).toEqual(unknown.body);
      expect(headerNames(res), name).toEqual(headerNames(unknown));
      expect(passwordWork(), name).toEqual(unknownWork);
      expect({ ...dbCalls }, name).toEqual(unknownCalls);
    }
    // only the holder of the password learns that the account is locked
    expectRefused(await attempt(accounts.locked.email, PASSWORD), 403, 'locked, right password', 'Account is locked');
  });

  it('e-mail verification: an unknown, a used and a look-alike token get the same 400', async () => {
    const email = uniqueEmail('verify');
    const signup = await call('POST', '/api/v1/auth/signup', { body: { email, password: PASSWORD, name: 'Verify Me' } });
    const token = signup.body.data.verificationToken as string;
    expect((await call('POST', '/api/v1/auth/verify-email', { body: { token } })).status).toBe(200);
    const answers = await Promise.all(
      [token, randomBytes(32).toString('base64url'), 'A'.repeat(43), `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`].map((t) =>
        call('POST', '/api/v1/auth/verify-email', { body: { token: t } }),
      ),
    );
    for (const res of answers) expect(res.body).toEqual(answers[0]!.body);
    expect(answers[0]!.status).toBe(400);
    expect(answers[0]!.body).toEqual({ error: 'Invalid or expired verification token', details: [{ field: 'body.token', message: 'is invalid or expired' }] });
  });

  it('sign-up: a registered address (any letter case) and a new one get the same status, body, headers, password work and data calls, in production too', async () => {
    /** One sign-up with what it cost: scrypt hashes and DynamoDB calls (counted, never timed). */
    const signup = async (email: string) => {
      vi.mocked(hashPassword).mockClear();
      resetDbCalls();
      const res = await call('POST', '/api/v1/auth/signup', { body: { email, password: PASSWORD, name: 'Someone' } });
      return { res, hashes: vi.mocked(hashPassword).mock.calls.length, calls: { ...dbCalls } };
    };
    /** What may differ between two answers: the request id, the remaining quota, the address sent back, the token's value. */
    const comparable = ({ res, hashes, calls }: Awaited<ReturnType<typeof signup>>) => ({
      status: res.status,
      body: {
        ...res.body,
        data: { ...res.body.data, email: 'the address', ...('verificationToken' in res.body.data ? { verificationToken: 'a token' } : {}) },
      },
      headers: Object.fromEntries(Object.entries(res.headers).filter(([k]) => k !== 'X-Request-Id' && k !== 'RateLimit')),
      headerNames: Object.keys(res.headers).sort(),
      hashes,
      calls,
    });
    for (const stage of ['test', 'prod']) {
      process.env.STAGE = stage;
      resetSettings();
      try {
        const fresh = uniqueEmail('fresh');
        const registered = accounts.viewer.email;
        const [a, b, c] = [await signup(fresh), await signup(registered.toUpperCase()), await signup(registered)];
        expect(a.res.status, `${stage}: ${a.res.raw}`).toBe(202);
        expect(a.hashes).toBe(1);
        expect(a.res.body.data).toEqual(stage === 'prod' ? { email: fresh } : { email: fresh, verificationToken: expect.any(String) });
        for (const [name, other] of [
          ['registered address, upper case', b],
          ['registered address, again (no second notice)', c],
        ] as const) {
          expect(comparable(other), `${stage}: ${name}`).toEqual(comparable(a));
          expect(other.res.body.data.email).toBe(registered);
        }
      } finally {
        process.env.STAGE = 'test';
        resetSettings();
      }
    }
  });
});

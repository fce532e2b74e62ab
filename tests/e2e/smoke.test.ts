/**
 * e2e smoke suite: the API as a client sees it, over HTTP through serverless-offline (--useInProcess,
 * the single esbuild build in dist/) against DynamoDB Local. Two offline instances, each with its own
 * stage and table: the main one with the documented rate limits, a second one with tiny quotas for
 * the 429 checks (every request of a test comes from 127.0.0.1, so they share one client counter).
 *
 * Tests in this file run in order and build on each other (the admin token, the users created). The
 * main instance keeps the documented quotas: its ~20 requests of the auth class stay well under 50.
 */
import { randomBytes } from 'node:crypto';
import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOffline, type Offline } from '../support/offline.js';
import { client, type Res } from '../support/http.js';
import { checkedClient } from '../support/contract.js';

/** `{error}` and nothing else: the contract's error envelope. */
function expectError(res: Res, status: number, error?: string | RegExp): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(Object.keys(res.body)).toEqual(['error']);
  expect(typeof res.body.error).toBe('string');
  expect(res.body.error.length).toBeGreaterThan(0);
  if (error !== undefined) expect(res.body.error).toMatch(error);
}

const uniqueEmail = (tag: string) => `${tag}-${randomBytes(5).toString('hex')}@example.com`;
const PASSWORD = 'correct-horse-battery';

describe('e2e smoke through serverless-offline', () => {
  let api: Offline;
  const http = checkedClient(client(() => api));
  let adminToken: string;

  beforeAll(async () => {
    api = await startOffline();
  });
  afterAll(async () => {
    await api?.stop();
  });

  async function login(email: string, password: string): Promise<{ token: string; user: Record<string, unknown> }> {
    const res = await http('POST', '/api/v1/auth/login', { body: { email, password } });
    expect(res.status, res.text).toBe(200);
    return { token: res.body.token, user: res.body.user };
  }

  async function createUser(fields: Record<string, unknown>): Promise<{ id: string; email: string }> {
    const email = uniqueEmail(String(fields.role ?? 'user'));
    const res = await http('POST', '/api/v1/admin/users', { token: adminToken, body: { email, password: PASSWORD, name: 'E2E User', ...fields } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ message: expect.any(String), data: { email, role: fields.role ?? 'viewer', verified: true, locked: false } });
    expect(res.body.data).not.toHaveProperty('passwordHash');
    return { id: res.body.data.id, email };
  }

  describe('public routes', () => {
    it('GET / answers the service metadata: version 2.0.0 and the endpoint groups that have routes', async () => {
      const res = await http('GET', '/');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ message: expect.any(String), data: { name: 'Flockwise API', version: '2.0.0' } });
      const basePaths = Object.values(res.body.data.endpoints as Record<string, { basePath: string }>).map((g) => g.basePath);
      expect(new Set(basePaths).size).toBe(basePaths.length);
      expect(basePaths).toEqual(expect.arrayContaining(['/api/v1/auth', '/api/v2/analytics', '/api/v1/flocks/{flockId}/cycles', '/api/v1/admin']));
      expect(res.headers.get('x-request-id')).toBeTruthy();
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      // the documented default quota of the general limiter, announced on every limited route
      expect(res.headers.get('ratelimit-policy')).toBe('"general";q=3000;w=900');
      expect(res.headers.get('ratelimit')).toMatch(/^"general";r=\d+;t=\d+$/);
    });

    it('GET /health answers {status, timestamp, uptime, environment} without rate-limit headers', async () => {
      const res = await http('GET', '/health');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['environment', 'status', 'timestamp', 'uptime']);
      expect(res.body).toMatchObject({ status: 'ok', environment: api.stage });
      expect(typeof res.body.uptime).toBe('number');
      expect(new Date(res.body.timestamp).toISOString()).toBe(res.body.timestamp);
      expect(res.headers.get('ratelimit')).toBeNull();
    });

    it('GET /openapi.json serves the OpenAPI 3.1 document of version 2.0.0', async () => {
      const res = await http('GET', '/openapi.json');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toMatchObject({ openapi: '3.1.0', info: { version: '2.0.0' } });
      expect(res.body.paths['/api/v1/auth/login'].post.security).toEqual([]);
      expect(res.body.paths['/api/v1/admin/users'].get.security).toEqual([{ bearerAuth: [] }]);
      expect(res.body.servers).toEqual([{ url: '/' }]);
    });

    it('GET /docs serves the Swagger UI page and its assets', async () => {
      const page = await http('GET', '/docs');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.text).toMatch(/^<!doctype html>/i);
      expect(page.text).toContain('docs/swagger-ui-bundle.js');
      const asset = await http('GET', '/docs/swagger-init.js');
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect(asset.text).toContain('openapi.json');
    });
  });

  describe('signed in as the seeded admin', () => {
    it('login answers {token, user}; the token opens admin routes with {message, data} envelopes', async () => {
      const res = await http('POST', '/api/v1/auth/login', { body: { email: api.admin.email, password: api.admin.password } });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({
        token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
        user: { id: api.admin.id, email: api.admin.email, role: 'admin' },
      });
      expect(res.body.user).not.toHaveProperty('passwordHash');
      adminToken = res.body.token;

      const users = await http('GET', '/api/v1/admin/users', { token: adminToken });
      expect(users.status, users.text).toBe(200);
      expect(users.body).toMatchObject({ message: expect.any(String), data: expect.any(Array), page: { limit: 25, nextCursor: null } });
      expect(users.body.data.map((u: { email: string }) => u.email)).toContain(api.admin.email);

      const verify = await http('POST', '/api/v1/auth/verify-token', { token: adminToken, body: {} });
      expect(verify.status, verify.text).toBe(200);
      expect(verify.body).toMatchObject({ message: expect.any(String), data: { valid: true, user: { id: api.admin.id, role: 'admin' } } });
    });

    it('lists page with ?limit and an opaque cursor', async () => {
      await createUser({ role: 'viewer' });
      const first = await http('GET', '/api/v1/admin/users?limit=1', { token: adminToken });
      expect(first.status, first.text).toBe(200);
      expect(first.body.data).toHaveLength(1);
      expect(first.body.page).toEqual({ limit: 1, nextCursor: expect.any(String) });
      const second = await http('GET', `/api/v1/admin/users?limit=1&cursor=${encodeURIComponent(first.body.page.nextCursor)}`, { token: adminToken });
      expect(second.status, second.text).toBe(200);
      expect(second.body.data).toHaveLength(1);
      expect(second.body.data[0].id).not.toBe(first.body.data[0].id);
    });
  });

  describe('401: missing or invalid token', () => {
    const key = () => new TextEncoder().encode(api.jwtSecret);
    const now = () => Math.floor(Date.now() / 1000);
    /** A token exactly like the service's own, with any claim or the key changed. */
    const craft = (over: { iss?: string; aud?: string; iat?: number; exp?: number; alg?: string; secret?: string } = {}) =>
      new SignJWT({})
        .setProtectedHeader({ alg: over.alg ?? 'HS256', typ: 'JWT' })
        .setIssuer(over.iss ?? 'flockwise')
        .setAudience(over.aud ?? 'flockwise-api')
        .setSubject(api.admin.id)
        .setJti(randomBytes(12).toString('hex'))
        .setIssuedAt(over.iat ?? now())
        .setExpirationTime(over.exp ?? now() + 600)
        .sign(over.secret ? new TextEncoder().encode(over.secret) : key());

    const refused = async (token: string | undefined, error?: RegExp) => {
      const res = await http('GET', '/api/v1/admin/users', token === undefined ? {} : { token });
      expectError(res, 401, error);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    };

    it('a token crafted with the right key and claims is accepted (control for the cases below)', async () => {
      const res = await http('GET', '/api/v1/admin/users', { token: await craft() });
      expect(res.status, res.text).toBe(200);
    });

    it('no token, a malformed header and a garbage token', async () => {
      await refused(undefined, /missing/i);
      const basic = await http('GET', '/api/v1/admin/users', { headers: { authorization: 'Basic YWRtaW46YWRtaW4=' } });
      expectError(basic, 401);
      await refused('garbage');
      await refused('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl');
    });

    it('a forged signature (other key) and another algorithm are refused', async () => {
      await refused(await craft({ secret: `forged-${randomBytes(24).toString('hex')}` }), /invalid/i);
      // same claims, signature bytes changed
      const good = await craft();
      const [h, p, s] = good.split('.') as [string, string, string];
      const flipped = `${s.slice(0, -4)}${s.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
      await refused(`${h}.${p}.${flipped}`, /invalid/i);
      // the algorithm is pinned: HS512 with the right key is still refused
      await refused(await craft({ alg: 'HS512' }), /invalid/i);
    });

    it('an unsigned alg:none token is refused', async () => {
      const none = new UnsecuredJWT({})
        .setIssuer('flockwise')
        .setAudience('flockwise-api')
        .setSubject(api.admin.id)
        .setJti(randomBytes(12).toString('hex'))
        .setIssuedAt()
        .setExpirationTime('10m')
        .encode();
      expect(none.endsWith('.')).toBe(true);
      await refused(none, /invalid/i);
    });

    it('an expired token, a wrong audience and a wrong issuer are refused', async () => {
      await refused(await craft({ iat: now() - 7200, exp: now() - 3600 }), /expired/i);
      await refused(await craft({ aud: 'another-api' }), /invalid/i);
      await refused(await craft({ iss: 'someone-else' }), /invalid/i);
    });

    it('after logout the same token is refused with 401', async () => {
      const { token } = await login(api.admin.email, api.admin.password);
      const out = await http('POST', '/api/v1/auth/logout', { token, body: {} });
      expect(out.status, out.text).toBe(200);
      expect(out.body).toMatchObject({ message: expect.any(String), data: { revoked: true } });
      expectError(await http('POST', '/api/v1/auth/verify-token', { token, body: {} }), 401, /revoked/i);
      await refused(token, /revoked/i);
      // other sessions are untouched
      expect((await http('POST', '/api/v1/auth/verify-token', { token: adminToken, body: {} })).status).toBe(200);
    });
  });

  describe('403: capability, unverified and locked accounts', () => {
    it('a worker calling an admin route gets {error} naming the missing capability', async () => {
      const worker = await createUser({ role: 'worker' });
      const { token, user } = await login(worker.email, PASSWORD);
      expect(user).toMatchObject({ role: 'worker', verified: true });
      expect((await http('POST', '/api/v1/auth/verify-token', { token, body: {} })).status).toBe(200);
      expectError(await http('GET', '/api/v1/admin/users', { token }), 403, /manage_users/);
      expectError(await http('POST', '/api/v1/admin/users', { token, body: { email: uniqueEmail('x'), password: PASSWORD, name: 'X' } }), 403, /manage_users/);
    });

    it('a signed-up, unverified account can sign in and check its token, but every other route answers 403', async () => {
      const email = uniqueEmail('signup');
      const signup = await http('POST', '/api/v1/auth/signup', { body: { email, password: PASSWORD, name: 'Self Signed' } });
      expect(signup.status, signup.text).toBe(202);
      expect(signup.body).toMatchObject({ message: expect.any(String), data: { email } });
      const { token } = await login(email, PASSWORD);
      const verify = await http('POST', '/api/v1/auth/verify-token', { token, body: {} });
      expect(verify.status, verify.text).toBe(200);
      expect(verify.body.data.user).toMatchObject({ email, role: 'viewer', verified: false, farmIds: [] });
      expectError(await http('GET', '/api/v1/admin/users', { token }), 403, /verif/i);
      expectError(await http('GET', '/api/v1/admin/capabilities', { token }), 403, /verif/i);

      // verifying the e-mail lifts that: now only the capability is missing
      const verificationToken = signup.body.data.verificationToken as string;
      expect(typeof verificationToken).toBe('string');
      const verified = await http('POST', '/api/v1/auth/verify-email', { body: { token: verificationToken } });
      expect(verified.status, verified.text).toBe(200);
      expectError(await http('GET', '/api/v1/admin/users', { token }), 403, /manage_users/);
    });

    it('an account locked by the admin is refused with 403 within 5 s, old token and new login alike', async () => {
      const target = await createUser({ role: 'worker' });
      const { token } = await login(target.email, PASSWORD);
      expect((await http('POST', '/api/v1/auth/verify-token', { token, body: {} })).status).toBe(200);

      const lock = await http('PATCH', `/api/v1/admin/users/${target.id}`, { token: adminToken, body: { locked: true } });
      expect(lock.status, lock.text).toBe(200);
      expect(lock.body.data).toMatchObject({ id: target.id, locked: true });

      const lockedAt = Date.now();
      let res = await http('POST', '/api/v1/auth/verify-token', { token, body: {} });
      while (res.status === 200 && Date.now() - lockedAt < 5000) {
        await new Promise((r) => setTimeout(r, 250));
        res = await http('POST', '/api/v1/auth/verify-token', { token, body: {} });
      }
      expectError(res, 403, /locked/i);
      expect(Date.now() - lockedAt).toBeLessThanOrEqual(5000);
      const again = await http('POST', '/api/v1/auth/login', { body: { email: target.email, password: PASSWORD } });
      expectError(again, 403, /locked/i);
    });
  });

  describe('bad requests', () => {
    it('a validation failure answers 400 {error, details:[{field, message}]} naming every field', async () => {
      const res = await http('POST', '/api/v1/admin/users', {
        token: adminToken,
        body: { email: 'not-an-email', password: 'short', role: 'pilot', isAdmin: true },
      });
      expect(res.status, res.text).toBe(400);
      expect(Object.keys(res.body).sort()).toEqual(['details', 'error']);
      expect(typeof res.body.error).toBe('string');
      for (const d of res.body.details) expect(Object.keys(d).sort()).toEqual(['field', 'message']);
      const fields = res.body.details.map((d: { field: string }) => d.field);
      expect(fields).toEqual(expect.arrayContaining(['body.email', 'body.password', 'body.role', 'body.name', 'body.isAdmin']));
    });

    it('malformed JSON answers 400 {error}', async () => {
      expectError(await http('POST', '/api/v1/auth/login', { rawBody: '{"email": "a@b.c", ', headers: { 'content-type': 'application/json' } }), 400, /json/i);
    });

    it('a body over the 102400-byte cap answers 413 {error}', async () => {
      const rawBody = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(102_400) });
      expectError(await http('POST', '/api/v1/auth/login', { rawBody }), 413);
      // just under the cap is parsed and validated normally
      const fits = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(100_000) });
      expect((await http('POST', '/api/v1/admin/users', { token: adminToken, rawBody: fits })).status).toBe(400);
    });

    it('a body that is not JSON answers 415 {error}', async () => {
      expectError(
        await http('POST', '/api/v1/auth/login', {
          rawBody: 'email=a@example.com&password=x',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        415,
      );
      expectError(await http('POST', '/api/v1/auth/login', { rawBody: 'hello', headers: { 'content-type': 'text/plain' } }), 415);
    });
  });

  describe('unknown routes and methods', () => {
    it('an unknown route answers 404 {error} as JSON, not the emulator page', async () => {
      expectError(await http('GET', '/api/v1/nothing-here'), 404, /not found/i);
      expectError(await http('POST', '/no/such/route', { body: {} }), 404, /not found/i);
      // a well-formed id of a record that does not exist
      expectError(await http('GET', '/api/v1/admin/users/01JD3Y4Z9V6Q8K2M5N7P0R1S3T', { token: adminToken }), 404, /not found/i);
    });

    it('a known path with another method answers 405 {error} with Allow', async () => {
      const res = await http('DELETE', '/api/v1/auth/login');
      expectError(res, 405);
      expect(res.headers.get('allow')).toBe('POST');
      const users = await http('PUT', '/api/v1/admin/users', { token: adminToken, body: {} });
      expectError(users, 405);
      expect(users.headers.get('allow')).toBe('GET, POST');
    });
  });
});

describe('e2e rate limits (own offline instance and table, tiny quotas)', () => {
  const AUTH_MAX = 3;
  const GENERAL_MAX = 8;
  // A day-long window: the fixed window cannot roll over during the test.
  const WINDOW = 86_400;
  let api: Offline;
  const http = checkedClient(client(() => api));

  beforeAll(async () => {
    api = await startOffline({
      env: {
        RATE_LIMIT_AUTH_MAX: String(AUTH_MAX),
        RATE_LIMIT_AUTH_WINDOW_SECONDS: String(WINDOW),
        RATE_LIMIT_GENERAL_MAX: String(GENERAL_MAX),
        RATE_LIMIT_GENERAL_WINDOW_SECONDS: String(WINDOW),
      },
    });
  });
  afterAll(async () => {
    await api?.stop();
  });

  const expect429 = (res: Res, cls: string, max: number) => {
    expectError(res, 429, new RegExp(cls));
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= WINDOW, `Retry-After ${res.headers.get('retry-after')}`).toBe(true);
    expect(res.headers.get('ratelimit-policy')).toContain(`"${cls}";q=${max};w=${WINDOW}`);
    expect(res.headers.get('ratelimit')).toBe(`"${cls}";r=0;t=${retryAfter}`);
  };

  // Order and counts matter: each request below also counts against the general quota (8).
  it(`the auth class answers 429 after ${AUTH_MAX} requests, before the token is even checked`, async () => {
    for (let i = 1; i <= AUTH_MAX; i++) {
      const res = await http('POST', '/api/v1/auth/verify-token', { body: {} });
      expectError(res, 401);
      expect(res.headers.get('ratelimit')).toMatch(new RegExp(`^"auth";r=${AUTH_MAX - i};t=\\d+$`));
    }
    expect429(await http('POST', '/api/v1/auth/verify-token', { body: {} }), 'auth', AUTH_MAX);
    // a correct login from the same client is limited too
    expect429(await http('POST', '/api/v1/auth/login', { body: { email: api.admin.email, password: api.admin.password } }), 'auth', AUTH_MAX);
  });

  it(`the general class answers 429 on any route after ${GENERAL_MAX} requests in all`, async () => {
    const used = AUTH_MAX + 2; // the requests of the test above
    const statuses: number[] = [];
    let last: Res | undefined;
    for (let i = used + 1; i <= GENERAL_MAX + 1; i++) {
      last = await http('GET', '/');
      statuses.push(last.status);
    }
    expect(statuses).toEqual([...Array(GENERAL_MAX - used).fill(200), 429]);
    expect429(last!, 'general', GENERAL_MAX);
    expect429(await http('GET', '/api/v1/nothing-here'), 'general', GENERAL_MAX);
  });

  it('GET /health is never rate limited, even with every quota exhausted', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await http('GET', '/health');
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('ok');
      expect(res.headers.get('ratelimit')).toBeNull();
      expect(res.headers.get('retry-after')).toBeNull();
    }
  });
});

import { describe, expect, it } from 'vitest';

// Small limits for this file only; handlers read them when first imported (lazily, by call()).
Object.assign(process.env, { RATE_LIMIT_AUTH_MAX: '4', RATE_LIMIT_DATE_MAX: '3', RATE_LIMIT_GENERAL_MAX: '12', RATE_LIMIT_GENERAL_WINDOW_SECONDS: '600' });

const { call } = await import('../support/api.js');
const { PASSWORD, adminLogin, uniqueEmail, userWith } = await import('../support/accounts.js');
const { db, dbCalls, resetDbCalls, tableName } = await import('../../shared/db/client.js');
const { rateLimitKey } = await import('../../shared/db/keys.js');
const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');

/** Pushes a client's general counter (600 s window here) over its limit, as other containers' hits would. */
async function exhaustGeneral(ip: string): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  if (now % 600 > 590) await new Promise((r) => setTimeout(r, (600 - (now % 600) + 1) * 1000)); // not across a window edge
  const windowStart = Math.floor(Date.now() / 1000 / 600) * 600;
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: rateLimitKey('general', `ip:${ip}`, windowStart),
      UpdateExpression: 'ADD hits :n',
      ExpressionAttributeValues: { ':n': 100 },
    }),
  );
}

describe('rate limits', () => {
  it('auth limiter: the 5th auth request from one client answers 429 {error} with Retry-After and RateLimit headers', async () => {
    const ip = '192.0.2.10';
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 5; i++) {
      last = await call('POST', '/api/v1/auth/login', { ip, body: { email: `nobody${i}@example.com`, password: 'whatever-123' } });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    expect(Object.keys(last!.body)).toEqual(['error']);
    expect(last!.body.error).toMatch(/^Rate limit exceeded \(auth: 4 requests per 900 s\); retry in \d+ s$/);
    const retryAfter = Number(last!.headers['Retry-After']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(last!.headers['RateLimit-Policy']).toBe('"general";q=12;w=600, "auth";q=4;w=900');
    expect(last!.headers.RateLimit).toBe(`"auth";r=0;t=${retryAfter}`);
  });

  it('auth limiter also counts sign-up per account: one e-mail from many addresses is limited', async () => {
    const email = 'target@example.com';
    const statuses = [];
    // a password too short: refused by validation (no account, no mail), counted all the same
    for (let i = 0; i < 5; i++)
      statuses.push((await call('POST', '/api/v1/auth/signup', { ip: `198.51.100.${i + 1}`, body: { email, password: 'short', name: 'T' } })).status);
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
  });

  it('sign-in is not counted per account: more addresses than the auth quota still reach the sign-in throttle, and the owner signs in', async () => {
    const { email } = await userWith();
    const statuses = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await call('POST', '/api/v1/auth/login', { ip: `198.51.100.${40 + i}`, body: { email, password: 'guess-guess-1' } })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
    expect((await call('POST', '/api/v1/auth/login', { ip: '198.51.100.50', body: { email, password: PASSWORD } })).status).toBe(200);
  }, 120_000);

  it('date limiter (admin, inventory) and the general limiter count separately per client', async () => {
    const token = await adminLogin();
    const ip = '192.0.2.20';
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call('GET', '/api/v1/admin/capabilities', { ip, token })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // other routes of the same client still pass the general limiter
    const rest = await call('POST', '/api/v1/auth/verify-token', { ip, token, body: {} });
    expect(rest.status).toBe(200);
    expect(rest.headers['RateLimit-Policy']).toContain('"general";q=12;w=600');
    expect(rest.headers.RateLimit).toMatch(/^"(general|auth)";r=\d+;t=\d+$/);
    // another client is unaffected
    expect((await call('GET', '/api/v1/admin/capabilities', { ip: '192.0.2.21', token })).status).toBe(200);
  });

  it('the admin dashboard counts clients that went over a limit, once per client, class and window', async () => {
    const token = await adminLogin();
    const today = () => call('GET', '/api/v1/dashboard', { ip: `192.0.2.${60 + Math.floor(Math.random() * 100)}`, token });
    const before = (await today()).body.data.rateLimited.days[0];
    const ip = '192.0.2.35';
    for (let i = 0; i < 6; i++) await call('GET', '/api/v1/admin/capabilities', { ip, token }); // 3 pass, 3 refused: one client over `date`
    const after = (await today()).body.data.rateLimited.days[0];
    expect(after.date).toBe(new Date().toISOString().slice(0, 10));
    expect(after.total - before.total).toBe(1);
    expect((after.byClass.date ?? 0) - (before.byClass.date ?? 0)).toBe(1);
  });

  it('counts requests whose bodies are refused (malformed, oversized) before reading them', async () => {
    const ip = '192.0.2.40';
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call('POST', '/api/v1/auth/login', { ip, rawBody: '{"email":' })).status);
    statuses.push((await call('POST', '/api/v1/auth/signup', { ip, rawBody: 'x'.repeat(200_000) })).status);
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
  });

  it('general limiter applies to every route; /health is never limited', async () => {
    const ip = '192.0.2.30';
    const statuses = [];
    for (let i = 0; i < 13; i++) statuses.push((await call('GET', '/', { ip })).status);
    expect(statuses.slice(0, 12).every((s) => s === 200)).toBe(true);
    expect(statuses[12]).toBe(429);
    for (let i = 0; i < 20; i++) {
      const health = await call('GET', '/health', { ip });
      expect(health.status).toBe(200);
      expect(health.headers.RateLimit).toBeUndefined();
    }
  });

  describe('DynamoDB work of the limiter (counted, not timed)', () => {
    it('general + date on one item: an admin route makes ONE limiter UpdateItem; auth (900 s window, not inside 600 s) falls back to two', async () => {
      const token = await adminLogin();
      resetDbCalls();
      const admin = await call('GET', '/api/v1/admin/capabilities', { ip: '192.0.2.50', token });
      expect(admin.status).toBe(200);
      expect({ ...dbCalls }).toEqual({ UpdateItem: 1, BatchGetItem: 1 });
      expect(admin.headers['RateLimit-Policy']).toBe('"general";q=12;w=600, "date";q=3;w=60');
      expect(admin.headers.RateLimit).toMatch(/^"date";r=2;t=\d+$/);
      // the second request of the same client sees both counts of that one item
      expect((await call('GET', '/api/v1/admin/capabilities', { ip: '192.0.2.50', token })).headers.RateLimit).toMatch(/^"date";r=1;t=\d+$/);

      resetDbCalls();
      const verify = await call('POST', '/api/v1/auth/verify-token', { ip: '192.0.2.51', token, body: {} });
      expect(verify.status).toBe(200);
      expect({ ...dbCalls }).toEqual({ UpdateItem: 2, BatchGetItem: 1 });

      resetDbCalls();
      expect((await call('GET', '/', { ip: '192.0.2.52' })).status).toBe(200);
      expect({ ...dbCalls }).toEqual({ UpdateItem: 1 });
    });

    it('the counter write runs next to body parsing, token check and user load, and is awaited before the handler (order, not time)', async () => {
      const token = await adminLogin();
      const events: string[] = [];
      const client = db();
      // Hold every limiter UpdateItem back for 300 ms and log when each call starts and ends.
      client.middlewareStack.add(
        (next, context) => async (args) => {
          const name = String(context.commandName).replace(/Command$/, '');
          const limiter = name === 'UpdateItem' && JSON.stringify(args.input).includes('RATE#');
          const label = limiter ? 'limiter' : name;
          events.push(`start ${label}`);
          if (limiter) await new Promise((r) => setTimeout(r, 300));
          const out = await next(args);
          events.push(`end ${label}`);
          return out;
        },
        { step: 'initialize', name: 'limiterOrderProbe' },
      );
      try {
        const res = await call('GET', `/api/v1/admin/users/${(await call('POST', '/api/v1/auth/verify-token', { token, body: {} })).body.data.user.id}`, {
          ip: '192.0.2.80',
          token,
        });
        expect(res.status).toBe(200);
      } finally {
        client.middlewareStack.remove('limiterOrderProbe');
      }
      const tail = events.slice(events.lastIndexOf('start limiter'));
      // user load starts and ends while the counter is still pending; the handler's read waits for it
      expect(tail).toEqual(['start limiter', 'start BatchGetItem', 'end BatchGetItem', 'end limiter', 'start GetItem', 'end GetItem']);
    });

    it('a limited request does no handler work and writes nothing, and its 429 comes before any other refusal', async () => {
      const token = await adminLogin();
      const ip = '192.0.2.60';
      await exhaustGeneral(ip);
      // This container has not seen the client over its limit yet: the count ran next to the user load,
      // and the gate refused before the handler (no GetItem, no transaction, no user created). The only
      // other write: the admin dashboard's count of clients over a limit (first refusal of the window).
      resetDbCalls();
      const create = await call('POST', '/api/v1/admin/users', {
        ip,
        token,
        body: { email: uniqueEmail('limited'), password: 'correct-horse-battery', name: 'Limited' },
      });
      expect(create.status).toBe(429);
      expect(create.body.error).toMatch(/^Rate limit exceeded \(general: 12 requests per 600 s\); retry in \d+ s$/);
      expect(create.headers['Retry-After']).toMatch(/^\d+$/);
      expect(create.headers['RateLimit-Policy']).toBe('"general";q=12;w=600, "date";q=3;w=60');
      expect(create.headers.RateLimit).toBe(`"general";r=0;t=${create.headers['Retry-After']}`);
      expect({ ...dbCalls }).toEqual({ UpdateItem: 2, BatchGetItem: 1 });

      // Known over the limit in this window: the next request waits for its count first (no user load).
      resetDbCalls();
      expect((await call('GET', '/api/v1/admin/capabilities', { ip, token })).status).toBe(429);
      expect({ ...dbCalls }).toEqual({ UpdateItem: 1 });

      // 429 first, as if the limiter had been awaited at its own stage: bad token, bad body, bad params.
      const other = '192.0.2.61';
      await exhaustGeneral(other);
      expect((await call('GET', '/api/v1/admin/capabilities', { ip: other, token: 'not.a.token' })).status).toBe(429);
      const third = '192.0.2.62';
      await exhaustGeneral(third);
      expect((await call('GET', '/api/v1/admin/users/not-a-ulid', { ip: third, token })).status).toBe(429);
      const fourth = '192.0.2.63';
      await exhaustGeneral(fourth);
      expect((await call('POST', '/api/v1/admin/users', { ip: fourth, token, rawBody: '{"email":' })).status).toBe(429);
    });

    it('a request refused per client is not counted against the account; the account count waits for the client count', async () => {
      const email = 'account-order@example.com';
      const ip = '192.0.2.70';
      await exhaustGeneral(ip);
      resetDbCalls();
      const signup = (from: string) => call('POST', '/api/v1/auth/signup', { ip: from, body: { email, password: 'short', name: 'T' } });
      expect((await signup(ip)).status).toBe(429);
      // general + auth per client (two UpdateItems here: 900 s does not nest in 600 s) + the refusal metric;
      // no account counter, no sign-up work
      expect({ ...dbCalls }).toEqual({ UpdateItem: 3 });
      // the account still has its whole budget: 4 more from other addresses pass the limiter (400: the short password)
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await signup(`198.51.100.${100 + i}`)).status);
      expect(statuses).toEqual([400, 400, 400, 400]);
    });
  });
});

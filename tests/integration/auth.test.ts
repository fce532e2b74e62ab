import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { ADMIN, PASSWORD, adminLogin, login, uniqueEmail, userWith } from '../support/accounts.js';
import { getUserIdByEmail } from '../../shared/db/users.js';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, dbCalls, queryAll, resetDbCalls, tableName } from '../../shared/db/client.js';
import { loginAccountKey, loginClientKey } from '../../shared/db/keys.js';

const secret = new TextEncoder().encode(process.env.JWT_SECRET!);
const claims = async (sub: string) => ({ sub, iss: 'flockwise', aud: 'flockwise-api' });

async function signed(sub: string, mutate: (jwt: SignJWT) => SignJWT = (j) => j, key = secret) {
  const base = new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer('flockwise')
    .setAudience('flockwise-api')
    .setSubject(sub)
    .setJti(`jti-${Math.random()}`)
    .setIssuedAt()
    .setExpirationTime('1h');
  return mutate(base).sign(key);
}

/** The outbox messages (mail for the mailer) addressed to `email`. */
async function outboxFor(email: string): Promise<Array<{ kind: string; payload: Record<string, unknown> }>> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': 'OUTBOX' },
    ConsistentRead: true,
  });
  return items
    .filter((i) => (i.payload as { to?: string }).to === email)
    .map((i) => ({ kind: i.kind as string, payload: i.payload as Record<string, unknown> }));
}

describe('signup and e-mail verification', () => {
  it('creates an unverified viewer without a farm: 202 "check your mail", the verification token outside prod, never the hash', async () => {
    const email = uniqueEmail('Signup').replace('signup', 'SignUp');
    const res = await call('POST', '/api/v1/auth/signup', { body: { email, password: PASSWORD, name: 'New Person' } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      message: 'Check your mail to continue: we sent a message to this address',
      data: { email: email.toLowerCase(), verificationToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) },
    });
    expect(res.raw).not.toMatch(/passwordHash|scrypt\$/);
    const verified = await call('POST', '/api/v1/auth/verify-email', { body: { token: res.body.data.verificationToken } });
    expect(verified.body.data.user).toMatchObject({
      email: email.toLowerCase(),
      role: 'viewer',
      verified: true,
      locked: false,
      farmIds: [],
      capabilities: ['view_analytics'],
    });
  });

  it('a registered address (any letter case) gets the same 202 and no second account; its owner gets an "account exists" notice, once an hour', async () => {
    const email = uniqueEmail('taken');
    const fresh = await call('POST', '/api/v1/auth/signup', { body: { email, password: PASSWORD, name: 'Owner' } });
    const owner = await getUserIdByEmail(email);
    const again = await call('POST', '/api/v1/auth/signup', { body: { email: email.toUpperCase(), password: 'another-password-1', name: 'Intruder' } });
    expect(again.status).toBe(fresh.status);
    expect(again.body).toEqual({ ...fresh.body, data: { ...fresh.body.data, verificationToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) } });
    expect(Object.keys(again.headers).sort()).toEqual(Object.keys(fresh.headers).sort());
    // nothing changed for the account: same id, the owner's password, and the second token verifies nothing
    expect(await getUserIdByEmail(email)).toBe(owner);
    expect((await call('POST', '/api/v1/auth/login', { body: { email, password: 'another-password-1' } })).status).toBe(401);
    expect((await call('POST', '/api/v1/auth/verify-email', { body: { token: again.body.data.verificationToken } })).status).toBe(400);
    expect(await outboxFor(email)).toEqual([{ kind: 'account-exists', payload: { to: email } }]);
    // a third try within the hour: the same answer, no second notice
    expect((await call('POST', '/api/v1/auth/signup', { body: { email, password: PASSWORD, name: 'Owner' } })).status).toBe(202);
    expect(await outboxFor(email)).toHaveLength(1);
    const audit = await call('GET', '/api/v1/admin/audit', { token: await adminLogin(), query: { targetId: owner! } });
    expect(audit.body.data.map((e: { action: string }) => e.action)).toEqual(['auth.signup-existing', 'auth.signup']);
  });

  it('concurrent sign-ups of one address (any letter case) create one account and answer alike', async () => {
    const email = uniqueEmail('dup');
    const results = await Promise.all(
      [email, email.toUpperCase(), email].map((e) => call('POST', '/api/v1/auth/signup', { body: { email: e, password: PASSWORD, name: 'Dup' } })),
    );
    expect(results.map((r) => r.status)).toEqual([202, 202, 202]);
    const verified = await Promise.all(results.map((r) => call('POST', '/api/v1/auth/verify-email', { body: { token: r.body.data.verificationToken } })));
    expect(verified.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    expect(await outboxFor(email)).toEqual([{ kind: 'account-exists', payload: { to: email } }]);
  });

  it('validates e-mail format, password length ≥ 10 and unknown fields, naming each field', async () => {
    const res = await call('POST', '/api/v1/auth/signup', { body: { email: 'not-an-email', password: 'short', name: '', role: 'admin' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Validation failed');
    const fields = res.body.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['body.email', 'body.password', 'body.name', 'body.role']));
    expect(res.body.details.find((d: { field: string }) => d.field === 'body.role').message).toBe('is not allowed');
  });

  it('an unverified account can log in, verify its token and log out, but every other route answers 403 until verified', async () => {
    const email = uniqueEmail('unverified');
    const signup = await call('POST', '/api/v1/auth/signup', { body: { email, password: PASSWORD, name: 'U' } });
    const token = await login(email, PASSWORD);
    expect((await call('POST', '/api/v1/auth/verify-token', { token, body: {} })).status).toBe(200);
    const blocked = await call('GET', '/api/v1/admin/capabilities', { token });
    expect(blocked.status).toBe(403);
    expect(blocked.body).toEqual({ error: 'Account e-mail is not verified' });

    const bad = await call('POST', '/api/v1/auth/verify-email', { body: { token: 'x'.repeat(43) } });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe('body.token');

    const verified = await call('POST', '/api/v1/auth/verify-email', { body: { token: signup.body.data.verificationToken } });
    expect(verified.status).toBe(200);
    expect(verified.body.data.user.verified).toBe(true);
    // the token is single-use
    expect((await call('POST', '/api/v1/auth/verify-email', { body: { token: signup.body.data.verificationToken } })).status).toBe(400);
    // now past the verification gate (and stopped by the capability guard instead)
    expect((await call('GET', '/api/v1/admin/capabilities', { token })).body).toEqual({ error: 'Missing capability: manage_users' });
  });
});

describe('login', () => {
  it('answers {token, user} and the token works', async () => {
    await adminLogin();
    const res = await call('POST', '/api/v1/auth/login', { body: { email: ADMIN.email.toUpperCase(), password: ADMIN.password } });
    expect(res.status).toBe(200);
    expect(res.body.token.split('.')).toHaveLength(3);
    expect(res.body.user).toMatchObject({ email: ADMIN.email, role: 'admin' });
    expect(res.body.user.passwordHash).toBeUndefined();
    const check = await call('POST', '/api/v1/auth/verify-token', { token: res.body.token, body: {} });
    expect(check.body.data).toMatchObject({ valid: true, user: { email: ADMIN.email } });
  });

  it('gives the same 401 text for an unknown e-mail and a wrong password', async () => {
    const { email } = await userWith();
    const unknown = await call('POST', '/api/v1/auth/login', { body: { email: uniqueEmail('ghost'), password: PASSWORD } });
    const wrong = await call('POST', '/api/v1/auth/login', { body: { email, password: 'wrong-password-1' } });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.body).toEqual({ error: 'Invalid e-mail or password' });
  });
});

describe('sign-in throttling', () => {
  const attempt = (email: string, password: string, ip: string) => call('POST', '/api/v1/auth/login', { ip, body: { email, password } });
  const retryAfter = (res: Awaited<ReturnType<typeof call>>) => Number(res.headers['Retry-After']);
  /** As if the client had waited out its delay: its `openAt` moved to now. */
  const waitedOut = (email: string, ip: string) =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: loginClientKey(email, ip),
        UpdateExpression: 'SET openAt = :now',
        ExpressionAttributeValues: { ':now': Math.floor(Date.now() / 1000) },
      }),
    );

  it('delays the failing client, doubling from 1 minute; the owner signs in from another address; audited; an admin unlock clears it', async () => {
    const { email, id } = await userWith();
    const attacker = '192.0.2.2';
    for (let i = 0; i < 5; i++) expect((await attempt(email, `wrong-password-${i}`, attacker)).status).toBe(401);
    const first = await attempt(email, PASSWORD, attacker);
    expect(first.status).toBe(403);
    expect(first.body).toEqual({ error: `Too many failed sign-in attempts for this e-mail from your address; try again in ${retryAfter(first)} second(s)` });
    expect(retryAfter(first)).toBeGreaterThan(50);
    expect(retryAfter(first)).toBeLessThanOrEqual(60);
    // the owner, from another address, is not held back (the old policy answered 403 here for 15 minutes)
    expect((await attempt(email, PASSWORD, '192.0.2.3')).status).toBe(200);

    await waitedOut(email, attacker);
    expect((await attempt(email, 'wrong-password-6', attacker)).status).toBe(401);
    const second = await attempt(email, PASSWORD, attacker);
    expect(second.status).toBe(403);
    expect(second.body.error).toBe('Too many failed sign-in attempts for this e-mail from your address; try again in 2 minute(s)');
    expect(retryAfter(second)).toBeGreaterThan(110);
    expect(retryAfter(second)).toBeLessThanOrEqual(120);

    const admin = await adminLogin();
    const audit = await call('GET', '/api/v1/admin/audit', { token: admin, query: { targetId: id } });
    const throttle = audit.body.data.filter((e: { action: string }) => e.action === 'auth.throttle');
    expect(throttle).toHaveLength(1);
    expect(throttle[0].changes).toMatchObject({ client: attacker, failures: 5 });

    // an admin unlocking the account lifts every delay of its e-mail
    await call('PATCH', `/api/v1/admin/users/${id}`, { token: admin, body: { locked: true } });
    await call('PATCH', `/api/v1/admin/users/${id}`, { token: admin, body: { locked: false } });
    expect((await attempt(email, PASSWORD, attacker)).status).toBe(200);
  });

  it('100 failures of one e-mail from all clients in a window refuse it to everyone until the window ends, unknown e-mails alike', async () => {
    const { email, id } = await userWith();
    const ghost = uniqueEmail('ghost');
    // 99 failures from other clients in this window, as other containers would have counted them
    const now = Math.floor(Date.now() / 1000);
    if (now % 900 > 880) await new Promise((r) => setTimeout(r, (900 - (now % 900) + 1) * 1000)); // not across a window edge
    const windowStart = Math.floor(Date.now() / 1000 / 900) * 900;
    for (const e of [email, ghost])
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: loginAccountKey(e, windowStart),
          UpdateExpression: 'SET failures = :n',
          ExpressionAttributeValues: { ':n': 99 },
        }),
      );
    expect((await attempt(email, 'wrong-password-100', '192.0.2.10')).status).toBe(401);
    expect((await attempt(ghost, 'wrong-password-100', '192.0.2.10')).status).toBe(401);
    // now every client is refused, the right password and a client without failures included
    const refused = await attempt(email, PASSWORD, '192.0.2.11');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/^Too many failed sign-in attempts for this e-mail; try again in \d+ (second|minute)\(s\)$/);
    expect(retryAfter(refused)).toBeGreaterThan(0);
    expect(retryAfter(refused)).toBeLessThanOrEqual(windowStart + 900 - now);
    const ghostRefused = await attempt(ghost, PASSWORD, '192.0.2.12');
    expect([ghostRefused.status, ghostRefused.body.error.replace(/\d+/, 'N')]).toEqual([refused.status, refused.body.error.replace(/\d+/, 'N')]);
    const audit = await call('GET', '/api/v1/admin/audit', { token: await adminLogin(), query: { targetId: id } });
    expect(audit.body.data.map((e: { action: string }) => e.action)).toContain('auth.lockout');
  });

  it('the DynamoDB work of a sign-in is fixed, and does not grow with the clients that failed before', async () => {
    const { email } = await userWith();
    const ghost = uniqueEmail('ghost');
    const counted = async (e: string, password: string, ip: string) => {
      resetDbCalls();
      const res = await attempt(e, password, ip);
      return { status: res.status, calls: { ...dbCalls } };
    };
    // the limiter's one UpdateItem (general + auth) comes with every request
    const wrong = { status: 401, calls: { UpdateItem: 3, BatchGetItem: 1, GetItem: 1 } };
    const right = { status: 200, calls: { UpdateItem: 2, BatchGetItem: 1, GetItem: 1, DeleteItem: 1 } };
    const refused = { status: 403, calls: { UpdateItem: 1, BatchGetItem: 1 } };
    expect(await counted(email, 'wrong-password-1', '192.0.2.20')).toEqual(wrong);
    expect(await counted(ghost, 'wrong-password-1', '192.0.2.20')).toEqual(wrong);
    for (let i = 0; i < 12; i++) await attempt(email, `wrong-password-${i}`, `192.0.2.${30 + i}`);
    expect(await counted(email, 'wrong-password-2', '192.0.2.20')).toEqual(wrong);
    expect(await counted(email, PASSWORD, '192.0.2.21')).toEqual(right);
    for (let i = 0; i < 3; i++) await attempt(email, `wrong-password-${i}`, '192.0.2.20');
    expect(await counted(email, PASSWORD, '192.0.2.20')).toEqual(refused);
  }, 120_000);

  it('concurrent attempts of one client are checked one at a time: no more failures are counted than the free ones', async () => {
    const { email } = await userWith();
    const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => attempt(email, `nope-nope-${i}`, '192.0.2.50')));
    expect(burst.filter((r) => r.status === 401).length).toBeLessThanOrEqual(5);
    expect(burst.every((r) => r.status === 401 || r.status === 403)).toBe(true);
    expect((await attempt(email, PASSWORD, '192.0.2.51')).status).toBe(200);
  });
});

describe('token verification on every authenticated route', () => {
  const route = '/api/v1/auth/verify-token';

  it('401 without a token, with a malformed header and with garbage', async () => {
    expect((await call('POST', route, { body: {} })).body).toEqual({ error: 'Missing bearer token' });
    expect((await call('POST', route, { body: {}, headers: { Authorization: 'Basic abc' } })).status).toBe(401);
    const garbage = await call('POST', route, { body: {}, token: 'not.a.jwt' });
    expect(garbage.status).toBe(401);
    expect(garbage.headers['WWW-Authenticate']).toBe('Bearer');
  });

  it('401 for a forged signature, alg:none, expired, wrong issuer, wrong audience, missing exp or jti', async () => {
    const admin = await adminLogin();
    const sub = (await getUserIdByEmail(ADMIN.email))!;
    expect((await call('POST', route, { body: {}, token: await signed(sub) })).status).toBe(200);
    const forged = await signed(sub, (j) => j, new TextEncoder().encode('another-secret-another-secret-another-secret'));
    const none = new UnsecuredJWT({ ...(await claims(sub)), jti: 'x' }).setIssuedAt().setExpirationTime('1h').encode();
    const expired = await signed(sub, (j) => j.setIssuedAt(Math.floor(Date.now() / 1000) - 7200).setExpirationTime(Math.floor(Date.now() / 1000) - 3600));
    const wrongIssuer = await signed(sub, (j) => j.setIssuer('someone-else'));
    const wrongAudience = await signed(sub, (j) => j.setAudience('another-api'));
    const noExp = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('flockwise')
      .setAudience('flockwise-api')
      .setSubject(sub)
      .setJti('j')
      .setIssuedAt()
      .sign(secret);
    const noJti = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('flockwise')
      .setAudience('flockwise-api')
      .setSubject(sub)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(secret);
    const hs512 = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS512' })
      .setIssuer('flockwise')
      .setAudience('flockwise-api')
      .setSubject(sub)
      .setJti('j')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(process.env.JWT_SECRET!.repeat(2)));
    const tampered = admin
      .split('.')
      .map((p, i) =>
        i === 1 ? Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: 'someone' })).toString('base64url') : p,
      )
      .join('.');
    for (const [name, token] of Object.entries({ forged, none, expired, wrongIssuer, wrongAudience, noExp, noJti, hs512, tampered })) {
      const res = await call('POST', route, { body: {}, token });
      expect(res.status, name).toBe(401);
      expect(Object.keys(res.body), name).toEqual(['error']);
    }
    expect((await call('POST', route, { body: {}, token: expired })).body).toEqual({ error: 'Token has expired' });
  });

  it('logout revokes the token server-side: the same token is then refused, another session still works', async () => {
    const { email, token } = await userWith();
    const other = await login(email, PASSWORD);
    const out = await call('POST', '/api/v1/auth/logout', { token, body: {} });
    expect(out.status).toBe(200);
    expect(out.body.data.revoked).toBe(true);
    const again = await call('POST', route, { token, body: {} });
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ error: 'Token has been revoked' });
    expect((await call('POST', route, { token: other, body: {} })).status).toBe(200);
  });

  it('a locked account is refused with its old token on the very next request (well within 5 s)', async () => {
    const { id, token } = await userWith({ role: 'worker' });
    expect((await call('POST', route, { token, body: {} })).status).toBe(200);
    const lockedAt = Date.now();
    await call('PATCH', `/api/v1/admin/users/${id}`, { token: await adminLogin(), body: { locked: true } });
    const res = await call('POST', route, { token, body: {} });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Account is locked' });
    expect(Date.now() - lockedAt).toBeLessThan(5000);
    expect(
      (
        await call('POST', '/api/v1/auth/login', {
          body: { email: (await call('GET', `/api/v1/admin/users/${id}`, { token: await adminLogin() })).body.data.email, password: PASSWORD },
        })
      ).status,
    ).toBe(403);
  });

  it('a deleted account’s token stops working', async () => {
    const { id, token } = await userWith();
    await call('DELETE', `/api/v1/admin/users/${id}`, { token: await adminLogin() });
    expect((await call('POST', route, { token, body: {} })).status).toBe(401);
  });

  it('logout and verify-token take an empty object and refuse other fields', async () => {
    const { token } = await userWith();
    const res = await call('POST', route, { token, body: { extra: 1 } });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'body.extra', message: 'is not allowed' }]);
  });
});

import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { PASSWORD, adminLogin, uniqueEmail, userWith } from '../support/accounts.js';
import { ALL_CAPABILITIES } from '../../shared/domain/capabilities.js';
import { getDefaultFarmId } from '../../shared/db/farms.js';
import { getUserIdByEmail } from '../../shared/db/users.js';
import { ADMIN } from '../support/accounts.js';

describe('admin users', () => {
  it('creates a verified user in the default farm, readable and listable, never exposing the hash', async () => {
    const admin = await adminLogin();
    const email = uniqueEmail('Manager').toLowerCase();
    const sentEmail = email.replace('manager', 'Manager');
    const created = await call('POST', '/api/v1/admin/users', {
      token: admin,
      body: { email: sentEmail, password: PASSWORD, name: 'Mia Manager', role: 'manager' },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ email, role: 'manager', verified: true, locked: false, explicitCapabilities: null, version: 1 });
    expect(created.body.data.farmIds).toEqual([await getDefaultFarmId()]);
    expect(created.body.data.capabilities).toContain('manage_flocks');
    expect(created.body.data.capabilities).not.toContain('manage_users');

    const got = await call('GET', `/api/v1/admin/users/${created.body.data.id}`, { token: admin });
    expect(got.body.data).toEqual(created.body.data);
    expect(got.headers.ETag).toBe('"1"');

    const page = await call('GET', '/api/v1/admin/users', { token: admin, query: { limit: '100', role: 'manager' } });
    expect(page.status).toBe(200);
    expect(page.body.page.limit).toBe(100);
    expect(page.body.data.map((u: { email: string }) => u.email)).toContain(email);
    expect(page.raw).not.toMatch(/passwordHash|scrypt\$/);
  });

  it('a retried create with one Idempotency-Key creates the user once and answers the same', async () => {
    const admin = await adminLogin();
    const body = { email: uniqueEmail('retry'), password: PASSWORD, name: 'Retry' };
    const headers = { 'Idempotency-Key': `create-${body.email}` };
    const [a, b] = await Promise.all([
      call('POST', '/api/v1/admin/users', { token: admin, body, headers }),
      call('POST', '/api/v1/admin/users', { token: admin, body, headers }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.data.id).toBe(b.body.data.id);
    expect(a.raw + b.raw).not.toMatch(/passwordHash|scrypt\$/);
    expect((await call('POST', '/api/v1/admin/users', { token: admin, body: { ...body, password: 'another-password-1' }, headers })).status).toBe(422);
  });

  it('paginates with an opaque cursor and refuses a forged one', async () => {
    const admin = await adminLogin();
    await Promise.all([userWith(), userWith(), userWith()]);
    const first = await call('GET', '/api/v1/admin/users', { token: admin, query: { limit: '2' } });
    expect(first.body.data).toHaveLength(2);
    expect(first.body.page.nextCursor).toEqual(expect.any(String));
    const second = await call('GET', '/api/v1/admin/users', { token: admin, query: { limit: '2', cursor: first.body.page.nextCursor } });
    expect(second.body.data[0].id).not.toBe(first.body.data[0].id);
    const forged = Buffer.from(JSON.stringify({ GSI1PK: 'AUDIT#x', GSI1SK: 'a', PK: 'USER#1', SK: 'PROFILE' })).toString('base64url');
    const bad = await call('GET', '/api/v1/admin/users', { token: admin, query: { cursor: forged } });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe('query.cursor');
    const tooBig = await call('GET', '/api/v1/admin/users', { token: admin, query: { limit: '101' } });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.details[0].field).toBe('query.limit');
  });

  it('patches role, explicit capabilities, farmIds, locked and verified, audits who changed what', async () => {
    const admin = await adminLogin();
    const adminId = await getUserIdByEmail(ADMIN.email);
    const { id, token } = await userWith({ role: 'viewer' });
    expect((await call('GET', '/api/v1/admin/capabilities', { token })).status).toBe(403);
    const patched = await call('PATCH', `/api/v1/admin/users/${id}`, {
      token: admin,
      body: { role: 'worker', capabilities: ['view_analytics', 'manage_flocks'] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      role: 'worker',
      explicitCapabilities: ['view_analytics', 'manage_flocks'],
      capabilities: ['view_analytics', 'manage_flocks'],
      version: 2,
    });
    const restored = await call('PATCH', `/api/v1/admin/users/${id}`, { token: admin, body: { capabilities: null } });
    expect(restored.body.data.capabilities).toEqual(['view_analytics', 'create_movement', 'complete_tasks']);

    const audit = await call('GET', '/api/v1/admin/audit', { token: admin, query: { targetId: id } });
    const update = audit.body.data.find((e: { action: string }) => e.action === 'admin.user.update');
    expect(update).toMatchObject({ actorId: adminId, targetType: 'user', targetId: id });
    expect(update.changes).toEqual({ explicitCapabilities: { from: ['view_analytics', 'manage_flocks'], to: null } });
    expect(new Date(update.at).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('refuses unknown capabilities, admin-only capabilities for non-admins and unknown farms, changing nothing', async () => {
    const admin = await adminLogin();
    const { id } = await userWith({ role: 'manager' });
    const res = await call('PATCH', `/api/v1/admin/users/${id}`, { token: admin, body: { capabilities: ['manage_users', 'fly_to_moon'], farmIds: ['NOPE'] } });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { field: 'body.capabilities', message: '"manage_users" is reserved for admins' },
      { field: 'body.capabilities', message: 'unknown capability "fly_to_moon"' },
      { field: 'body.farmIds', message: 'unknown farm "NOPE"' },
    ]);
    const after = await call('GET', `/api/v1/admin/users/${id}`, { token: admin });
    expect(after.body.data.version).toBe(1);
    const create = await call('POST', '/api/v1/admin/users', {
      token: admin,
      body: { email: uniqueEmail(), password: PASSWORD, name: 'X', capabilities: ['update_analytics_config'] },
    });
    expect(create.status).toBe(400);
  });

  it('refuses mass assignment of fields outside the contract', async () => {
    const admin = await adminLogin();
    const { id } = await userWith();
    const res = await call('PATCH', `/api/v1/admin/users/${id}`, { token: admin, body: { passwordHash: 'x', email: 'a@b.c', id: 'X', createdAt: 'now' } });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['body.createdAt', 'body.email', 'body.id', 'body.passwordHash']);
  });

  it('uses optimistic concurrency: stale If-Match → 412, stale version → 409, concurrent patches → one wins', async () => {
    const admin = await adminLogin();
    const { id } = await userWith();
    expect((await call('PATCH', `/api/v1/admin/users/${id}`, { token: admin, headers: { 'If-Match': '"7"' }, body: { name: 'A' } })).status).toBe(412);
    expect((await call('PATCH', `/api/v1/admin/users/${id}`, { token: admin, body: { name: 'A', version: 7 } })).status).toBe(409);
    const ok = await call('PATCH', `/api/v1/admin/users/${id}`, { token: admin, headers: { 'If-Match': '"1"' }, body: { name: 'Renamed' } });
    expect(ok.status).toBe(200);
    const racers = await Promise.all(
      ['r1', 'r2', 'r3', 'r4'].map((name) => call('PATCH', `/api/v1/admin/users/${id}`, { token: admin, body: { name, version: 2 } })),
    );
    expect(racers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(racers.filter((r) => r.status === 409)).toHaveLength(3);
  });

  it('an admin cannot demote, lock or delete itself', async () => {
    const admin = await adminLogin();
    const self = (await getUserIdByEmail(ADMIN.email))!;
    expect((await call('PATCH', `/api/v1/admin/users/${self}`, { token: admin, body: { role: 'viewer' } })).status).toBe(409);
    expect((await call('PATCH', `/api/v1/admin/users/${self}`, { token: admin, body: { locked: true } })).status).toBe(409);
    expect((await call('DELETE', `/api/v1/admin/users/${self}`, { token: admin })).status).toBe(409);
  });

  it('deletes a user (204), frees the e-mail, 404 afterwards', async () => {
    const admin = await adminLogin();
    const { id, email } = await userWith();
    const del = await call('DELETE', `/api/v1/admin/users/${id}`, { token: admin });
    expect(del.status).toBe(204);
    expect(del.raw).toBe('');
    const gone = await call('GET', `/api/v1/admin/users/${id}`, { token: admin });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: `User ${id} not found` });
    expect((await call('POST', '/api/v1/auth/signup', { body: { email, password: PASSWORD, name: 'Again' } })).status).toBe(202);
    expect(await getUserIdByEmail(email)).toMatch(/^[0-9A-Z]{26}$/);
    expect(await getUserIdByEmail(email)).not.toBe(id);
  });

  it('only admins reach the admin group, whatever explicit capabilities a user holds', async () => {
    const manager = await userWith({ role: 'manager', capabilities: ['view_analytics', 'manage_system', 'manage_farms'] });
    for (const [method, path] of [
      ['GET', '/api/v1/admin/users'],
      ['POST', '/api/v1/admin/users'],
      ['GET', `/api/v1/admin/users/${manager.id}`],
      ['PATCH', `/api/v1/admin/users/${manager.id}`],
      ['DELETE', `/api/v1/admin/users/${manager.id}`],
      ['GET', '/api/v1/admin/capabilities'],
      ['GET', '/api/v1/admin/audit'],
    ] as const) {
      const res = await call(method, path, {
        token: manager.token,
        body: method === 'PATCH' ? { capabilities: ['manage_users'] } : method === 'POST' ? {} : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toEqual({ error: 'Missing capability: manage_users' });
    }
  });

  it('lists the full capability catalogue with descriptions', async () => {
    const res = await call('GET', '/api/v1/admin/capabilities', { token: await adminLogin() });
    expect(res.body.data.map((c: { name: string }) => c.name)).toEqual(ALL_CAPABILITIES);
    for (const name of ['edit_analytics', 'view_analytics', 'manage_flocks', 'create_movement', 'update_analytics_config', 'manage_system']) {
      expect(res.body.data.find((c: { name: string }) => c.name === name).description.length).toBeGreaterThan(10);
    }
    expect(res.body.data.find((c: { name: string }) => c.name === 'update_analytics_config')).toMatchObject({ adminOnly: true, roles: ['admin'] });
  });

  it('records auth-relevant changes in the audit log, newest first', async () => {
    const admin = await adminLogin();
    const email = uniqueEmail('audited');
    const signup = await call('POST', '/api/v1/auth/signup', { body: { email, password: PASSWORD, name: 'A' } });
    const id = (await call('POST', '/api/v1/auth/verify-email', { body: { token: signup.body.data.verificationToken } })).body.data.user.id;
    const entries = (await call('GET', '/api/v1/admin/audit', { token: admin, query: { targetId: id } })).body.data;
    expect(entries.map((e: { action: string }) => e.action)).toEqual(['auth.verify-email', 'auth.signup']);
    const all = await call('GET', '/api/v1/admin/audit', { token: admin, query: { limit: '5' } });
    expect(all.body.data).toHaveLength(5);
    const times = all.body.data.map((e: { id: string }) => e.id);
    expect([...times].sort().reverse()).toEqual(times);
  });
});

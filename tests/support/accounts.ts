/**
 * Account fixtures: the seeded admin and users of any role, created through the real API, with tokens.
 * A fixture's token is issued by the service's own token function (what a successful sign-in answers), not
 * by signing in: a sign-in checks the password with scrypt at production cost, and a fixture is not a test
 * of the sign-in (tests/integration/auth.test.ts and the security suites sign in through the API, `login`).
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { seed } from '../../scripts/lib/seed.js';
import { issueToken } from '../../shared/auth/tokens.js';
import { call } from './api.js';

export const ADMIN = { email: 'admin@test.local', password: 'admin-password-123' };
export const PASSWORD = 'correct-horse-battery';

export const uniqueEmail = (tag = 'user') => `${tag}-${randomBytes(5).toString('hex')}@example.com`;

let adminToken: string | undefined;
export async function adminLogin(): Promise<string> {
  if (adminToken) return adminToken;
  const { adminId } = await seed(ADMIN);
  adminToken = await tokenFor(adminId);
  return adminToken;
}

export async function login(email: string, password: string): Promise<string> {
  const res = await call('POST', '/api/v1/auth/login', { body: { email, password } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token as string;
}

/** A token of the user `userId`, as signing in issues it. */
export const tokenFor = async (userId: string): Promise<string> => (await issueToken(userId)).token;

/** A verified user created by the admin; returns its id, e-mail and a token. */
export async function userWith(fields: Record<string, unknown> = {}): Promise<{ id: string; email: string; token: string; version: number }> {
  const admin = await adminLogin();
  const email = uniqueEmail(String(fields.role ?? 'user'));
  const res = await call('POST', '/api/v1/admin/users', { token: admin, body: { email, password: PASSWORD, name: 'Test User', ...fields } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.data.id, email, token: await tokenFor(res.body.data.id), version: res.body.data.version };
}

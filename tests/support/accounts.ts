/** Account fixtures through the real API: the seeded admin, users of any role, tokens. */
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { seed } from '../../scripts/lib/seed.js';
import { call } from './api.js';

export const ADMIN = { email: 'admin@test.local', password: 'admin-password-123' };
export const PASSWORD = 'correct-horse-battery';

export const uniqueEmail = (tag = 'user') => `${tag}-${randomBytes(5).toString('hex')}@example.com`;

let adminToken: string | undefined;
export async function adminLogin(): Promise<string> {
  if (adminToken) return adminToken;
  await seed(ADMIN);
  adminToken = await login(ADMIN.email, ADMIN.password);
  return adminToken;
}

export async function login(email: string, password: string): Promise<string> {
  const res = await call('POST', '/api/v1/auth/login', { body: { email, password } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token as string;
}

/** A verified user created by the admin; returns its id, e-mail and a token. */
export async function userWith(fields: Record<string, unknown> = {}): Promise<{ id: string; email: string; token: string; version: number }> {
  const admin = await adminLogin();
  const email = uniqueEmail(String(fields.role ?? 'user'));
  const res = await call('POST', '/api/v1/admin/users', { token: admin, body: { email, password: PASSWORD, name: 'Test User', ...fields } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.data.id, email, token: await login(email, PASSWORD), version: res.body.data.version };
}

/**
 * Account fixtures: the seeded admin and users of any role, with tokens. A fixture user is decided by the
 * service's own decision of an admin's create (defaults, grant checks, audit entry), committed in the
 * admin's name, with one shared scrypt hash of PASSWORD (computed once per file); its token is issued by
 * the service's own token function, which is what a sign-in answers. Creating users and signing in are
 * tested through the API (tests/integration/admin.test.ts, auth.test.ts, the security suites, `login`);
 * fixtures need not pay a production-cost scrypt hash and check each.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { seed } from '../../scripts/lib/seed.js';
import { hashPassword } from '../../shared/auth/passwords.js';
import { issueToken } from '../../shared/auth/tokens.js';
import { commit } from '../../shared/db/commit.js';
import { existingFarmIds, getDefaultFarmId } from '../../shared/db/farms.js';
import { userCreate } from '../../shared/db/users.js';
import type { Capability, Role } from '../../shared/domain/capabilities.js';
import { commandContext } from '../../shared/domain/command.js';
import { decideUserCreate } from '../../shared/domain/users.js';
import { call } from './api.js';

export const ADMIN = { email: 'admin@test.local', password: 'admin-password-123' };
export const PASSWORD = 'correct-horse-battery';

export const uniqueEmail = (tag = 'user') => `${tag}-${randomBytes(5).toString('hex')}@example.com`;

let admin: { id: string; token: string } | undefined;
async function seededAdmin(): Promise<{ id: string; token: string }> {
  if (admin) return admin;
  const { adminId } = await seed(ADMIN);
  admin = { id: adminId, token: await tokenFor(adminId) };
  return admin;
}

export async function adminLogin(): Promise<string> {
  return (await seededAdmin()).token;
}

export async function login(email: string, password: string): Promise<string> {
  const res = await call('POST', '/api/v1/auth/login', { body: { email, password } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token as string;
}

/** A token of the user `userId`, as signing in issues it. */
export const tokenFor = async (userId: string): Promise<string> => (await issueToken(userId)).token;

let sharedHash: Promise<string> | undefined;
/** The scrypt hash of PASSWORD every fixture account of this file is stored with. */
export const passwordHash = (): Promise<string> => (sharedHash ??= hashPassword(PASSWORD));

/** A verified user created in the admin's name; returns its id, e-mail, a token and its version. */
export async function userWith(
  fields: { role?: Role; farmIds?: string[]; capabilities?: Capability[] } = {},
): Promise<{ id: string; email: string; token: string; version: number }> {
  const { id: adminId } = await seededAdmin();
  const body = { email: uniqueEmail(fields.role ?? 'user'), password: PASSWORD, name: 'Test User', ...fields };
  const [knownFarms, defaultFarm, hash] = await Promise.all([
    fields.farmIds?.length ? existingFarmIds(fields.farmIds) : new Set<string>(),
    fields.farmIds ? undefined : getDefaultFarmId(),
    passwordHash(),
  ]);
  const ctx = commandContext({ id: adminId, role: 'admin', capabilities: new Set(), farmIds: [], allFarms: true });
  const { user, audit, changes } = decideUserCreate(body, hash, { knownFarms, defaultFarm, now: ctx.now });
  await commit(ctx, { writes: userCreate(user), audit, changes });
  return { id: user.id, email: user.email, token: await tokenFor(user.id), version: user.version };
}

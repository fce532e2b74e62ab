/** Idempotent seed: the default farm with its default rules, and the first admin (never overwrites an existing account). */
import { ulid } from 'ulidx';
import { hashPassword } from '../../shared/auth/passwords.js';
import { normalizeEmail } from '../../shared/domain/accounts.js';
import { commit } from '../../shared/db/commit.js';
import { systemCaller } from '../../shared/domain/caller.js';
import { commandContext } from '../../shared/domain/command.js';
import { ensureDefaultFarm } from '../../shared/db/farms.js';
import { getUserIdByEmail, userCreate } from '../../shared/db/users.js';
import type { UserRecord } from '../../shared/domain/users.js';
import { ensureDefaultRules } from '../../shared/services/rules/defaults.js';
import { Conflict } from '../../shared/errors.js';

export async function seed(admin: { email: string; password: string; name?: string }): Promise<{ farmId: string; adminId: string; adminCreated: boolean }> {
  if (admin.password.length < 10) throw new Error('ADMIN_PASSWORD must be at least 10 characters');
  const farm = await ensureDefaultFarm('Default farm');
  await ensureDefaultRules(commandContext(systemCaller('seed', [], 'all')), farm.id);
  const email = normalizeEmail(admin.email);
  const existing = await getUserIdByEmail(email);
  if (existing) return { farmId: farm.id, adminId: existing, adminCreated: false };
  const at = new Date();
  const now = at.toISOString();
  const id = ulid();
  try {
    const user: UserRecord = {
      id,
      email,
      name: admin.name ?? 'Administrator',
      role: 'admin',
      explicitCapabilities: null,
      farmIds: [farm.id],
      verified: true,
      locked: false,
      passwordHash: await hashPassword(admin.password),
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    // nobody signed in creates the first admin: the audit entry names no actor
    const audit = [{ actorId: null, action: 'seed.admin.create', targetType: 'user', targetId: id, changes: { email, role: 'admin' } }];
    await commit(commandContext(systemCaller('seed', [], 'all'), { now: at }), { writes: userCreate(user), audit });
  } catch (err) {
    if (err instanceof Conflict) return { farmId: farm.id, adminId: (await getUserIdByEmail(email))!, adminCreated: false };
    throw err;
  }
  return { farmId: farm.id, adminId: id, adminCreated: true };
}

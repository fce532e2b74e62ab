/** Idempotent seed: the default farm with its default rules, and the first admin (never overwrites an existing account). */
import { ulid } from 'ulidx';
import { hashPassword } from '../../shared/auth/passwords.js';
import { normalizeEmail } from '../../shared/domain/accounts.js';
import { systemCaller } from '../../shared/domain/caller.js';
import { commandContext } from '../../shared/domain/command.js';
import { auditPut } from '../../shared/db/audit.js';
import { ensureDefaultFarm } from '../../shared/db/farms.js';
import { createUser, getUserIdByEmail } from '../../shared/db/users.js';
import { ensureDefaultRules } from '../../shared/services/rules/defaults.js';
import { Conflict } from '../../shared/errors.js';

export async function seed(admin: { email: string; password: string; name?: string }): Promise<{ farmId: string; adminId: string; adminCreated: boolean }> {
  if (admin.password.length < 10) throw new Error('ADMIN_PASSWORD must be at least 10 characters');
  const farm = await ensureDefaultFarm('Default farm');
  await ensureDefaultRules(commandContext(systemCaller('seed', [], 'all')), farm.id);
  const email = normalizeEmail(admin.email);
  const existing = await getUserIdByEmail(email);
  if (existing) return { farmId: farm.id, adminId: existing, adminCreated: false };
  const now = new Date().toISOString();
  const id = ulid();
  try {
    await createUser(
      {
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
      },
      [auditPut({ actorId: null, action: 'seed.admin.create', targetType: 'user', targetId: id, changes: { email, role: 'admin' }, requestId: null })],
    );
  } catch (err) {
    if (err instanceof Conflict) return { farmId: farm.id, adminId: (await getUserIdByEmail(email))!, adminCreated: false };
    throw err;
  }
  return { farmId: farm.id, adminId: id, adminCreated: true };
}

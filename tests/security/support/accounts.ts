/**
 * Fixture accounts without a scrypt hash each: written straight to the table with the service's own
 * repository (one shared hash of PASSWORD), signed in with the service's own issueToken, which is what
 * POST /auth/login returns. Sign-in itself is tested through the API; fixtures need not pay ~0.3 s each.
 */
import { ulid } from 'ulidx';
import { commit } from '../../../shared/db/commit.js';
import { userCreate } from '../../../shared/db/users.js';
import type { UserRecord } from '../../../shared/domain/users.js';
import { systemCaller } from '../../../shared/domain/caller.js';
import { commandContext } from '../../../shared/domain/command.js';
import { passwordHash, tokenFor, uniqueEmail } from '../../support/accounts.js';

export interface Account {
  id: string;
  email: string;
  token: string;
}

/** A new account (verified viewer unless `fields` say otherwise) whose password is PASSWORD, with a session. */
export async function account(fields: Partial<Omit<UserRecord, 'passwordHash'>> = {}): Promise<Account> {
  const now = new Date().toISOString();
  const user: UserRecord = {
    id: ulid(),
    email: uniqueEmail(fields.role ?? 'user'),
    name: 'Security Fixture',
    role: 'viewer',
    explicitCapabilities: null,
    farmIds: [],
    verified: true,
    locked: false,
    createdAt: now,
    updatedAt: now,
    version: 1,
    ...fields,
    passwordHash: await passwordHash(),
  };
  await commit(commandContext(systemCaller('security-fixture', [], 'all')), { writes: userCreate(user) });
  return { id: user.id, email: user.email, token: await session(user.id) };
}

/** Another session of an account, exactly as a sign-in would issue it. */
export async function session(userId: string): Promise<string> {
  return tokenFor(userId);
}

import { createHash } from 'node:crypto';
import { hashPassword } from '../../auth/passwords.js';
import { catalogue, type Role } from '../../domain/capabilities.js';
import { unchanged } from '../../domain/decision.js';
import { decideUserCreate, decideUserDelete, decideUserPatch, grantProblems, type UserRecord } from '../../domain/users.js';
import type { CommandContext } from '../../domain/command.js';
import { checkVersion, commit } from '../../db/commit.js';
import { existingFarmIds, getDefaultFarmId } from '../../db/farms.js';
import { clearLoginThrottles } from '../../db/login-throttle.js';
import { getUserOrThrow, listUsers, userChange, userCreate, userDelete } from '../../db/users.js';
import { toUserDto } from './accounts.js';
import { idempotentCommand } from '../idempotency.js';
import type { CreateUserBody, PatchUserBody } from '../../../schemas/admin.js';

/** The admin control plane for users: read, decide (shared/domain/users.ts), commit with the audit entry. */

/** The farms of a grant that exist (read only when the body names farms). */
const knownFarmsOf = async (farmIds: readonly string[] | undefined): Promise<ReadonlySet<string>> =>
  farmIds?.length ? existingFarmIds(farmIds) : new Set<string>();

export async function createUserAsAdmin(ctx: CommandContext, body: CreateUserBody) {
  // The password is part of the request's fingerprint only as a hash: the stored fingerprint never holds it.
  const fingerprint = { ...body, password: createHash('sha256').update(body.password).digest('base64url') };
  return idempotentCommand(ctx, 'user', fingerprint, async (ctx) => {
    const [knownFarms, defaultFarm] = await Promise.all([knownFarmsOf(body.farmIds), body.farmIds ? undefined : getDefaultFarmId()]);
    // the grant is judged before the (deliberately slow) password hash is computed
    grantProblems(body.role ?? 'viewer', body.capabilities, body.farmIds, knownFarms);
    const { user, audit, changes } = decideUserCreate(body, await hashPassword(body.password), { knownFarms, defaultFarm, now: ctx.now });
    const response = { created: true, message: 'User created', data: toUserDto(user) };
    await commit(ctx, { writes: userCreate(user), audit, changes, response });
    return response;
  });
}

export async function patchUserAsAdmin(ctx: CommandContext, userId: string, body: PatchUserBody): Promise<UserRecord> {
  const current = await getUserOrThrow(userId);
  // the version is compared before the request's other checks: a stale one answers first
  checkVersion(ctx, { read: current.version, what: `User ${userId}`, stated: body.version, subject: true });
  const decision = decideUserPatch(ctx.caller, current, body, { knownFarms: await knownFarmsOf(body.farmIds), now: ctx.now });
  if (unchanged(decision.change)) return current;
  await commit(ctx, { writes: [userChange(current, decision.change.next, body.version)], audit: decision.audit, changes: decision.changes });
  // after the commit: the throttle's counters are their own items, cleared only once the unlock holds
  if (decision.liftThrottle) await clearLoginThrottles(current.email);
  return decision.change.next;
}

export async function deleteUserAsAdmin(ctx: CommandContext, userId: string): Promise<void> {
  const decide = decideUserDelete(ctx.caller, userId);
  const user = await getUserOrThrow(userId);
  await commit(ctx, { writes: userDelete(user), ...decide(user) });
}

/** A page of users, optionally of one role. */
export async function listUsersFor(query: { limit?: number; cursor?: string; role?: Role }) {
  const limit = query.limit ?? 25;
  const { items, nextCursor } = await listUsers({ limit, cursor: query.cursor, role: query.role });
  return { items: items.map(toUserDto), nextCursor, limit };
}

export async function getUserFor(userId: string) {
  return toUserDto(await getUserOrThrow(userId));
}

/** Every capability with its description, whether it is admin-only and the roles that hold it by default. */
export const capabilityCatalogue = () => catalogue();

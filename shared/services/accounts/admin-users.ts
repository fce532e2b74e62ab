import { createHash } from 'node:crypto';
import { ulid } from 'ulidx';
import { hashPassword } from '../../auth/passwords.js';
import { capabilityGrantProblems, catalogue, type Role } from '../../domain/capabilities.js';
import { diff, normalizeEmail } from '../../domain/accounts.js';
import type { CommandContext } from '../../domain/command.js';
import { checkVersion, commit } from '../../db/commit.js';
import { existingFarmIds, getDefaultFarmId } from '../../db/farms.js';
import { clearLoginThrottles } from '../../db/login-throttle.js';
import { getUserOrThrow, listUsers, userChange, userCreate, userDelete, type UserRecord } from '../../db/users.js';
import { Conflict, ValidationFailed, type FieldError } from '../../errors.js';
import { toUserDto } from './accounts.js';
import { idempotentCommand } from '../idempotency.js';
import type { CreateUserBody, PatchUserBody } from '../../../schemas/admin.js';

/** The admin control plane for users. Every change commits with its audit entry. */

async function checkGrants(role: Role, capabilities: readonly string[] | null | undefined, farmIds: readonly string[] | undefined): Promise<void> {
  const details: FieldError[] = [];
  for (const message of capabilities ? capabilityGrantProblems(role, capabilities) : []) details.push({ field: 'capabilities', message });
  if (farmIds && farmIds.length > 0) {
    const known = await existingFarmIds(farmIds);
    for (const id of farmIds) if (!known.has(id)) details.push({ field: 'farmIds', message: `unknown farm "${id}"` });
  }
  if (details.length > 0) throw new ValidationFailed(details);
}

export async function createUserAsAdmin(ctx: CommandContext, body: CreateUserBody) {
  // The password is part of the request's fingerprint only as a hash: the stored fingerprint never holds it.
  const fingerprint = { ...body, password: createHash('sha256').update(body.password).digest('base64url') };
  return idempotentCommand(ctx, 'user', fingerprint, async (ctx) => {
    const role = body.role ?? 'viewer';
    await checkGrants(role, body.capabilities, body.farmIds);
    const defaultFarm = body.farmIds ? undefined : await getDefaultFarmId();
    const now = ctx.now.toISOString();
    const user: UserRecord = {
      id: ulid(),
      email: normalizeEmail(body.email),
      name: body.name.trim(),
      role,
      explicitCapabilities: body.capabilities ?? null,
      farmIds: body.farmIds ?? (defaultFarm ? [defaultFarm] : []),
      verified: body.verified ?? true,
      locked: false,
      passwordHash: await hashPassword(body.password),
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    const { passwordHash: _omit, ...visible } = user;
    const response = { created: true, message: 'User created', data: toUserDto(user) };
    await commit(ctx, {
      writes: userCreate(user),
      audit: [{ action: 'admin.user.create', targetType: 'user', targetId: user.id, changes: visible }],
      changes: [{ type: 'user', id: user.id, op: 'upsert', version: 1 }],
      response,
    });
    return response;
  });
}

const PATCHABLE = ['name', 'role', 'explicitCapabilities', 'locked', 'verified', 'farmIds'] as const;

export async function patchUserAsAdmin(ctx: CommandContext, userId: string, body: PatchUserBody): Promise<UserRecord> {
  const current = await getUserOrThrow(userId);
  const version = { read: current.version, what: `User ${userId}`, stated: body.version, subject: true };
  // the version is compared before the request's other checks: a stale one answers first
  checkVersion(ctx, version);
  const next: UserRecord = {
    ...current,
    ...(body.name !== undefined ? { name: body.name.trim() } : {}),
    ...(body.role !== undefined ? { role: body.role } : {}),
    ...(body.capabilities !== undefined ? { explicitCapabilities: body.capabilities } : {}),
    ...(body.locked !== undefined ? { locked: body.locked } : {}),
    ...(body.verified !== undefined ? { verified: body.verified } : {}),
    ...(body.farmIds !== undefined ? { farmIds: body.farmIds } : {}),
  };
  if (ctx.caller.id === userId && (next.role !== 'admin' || next.locked)) {
    throw new Conflict('You cannot remove your own admin role or lock your own account');
  }
  await checkGrants(next.role, body.capabilities === undefined ? null : body.capabilities, body.farmIds);
  const changes = diff(current, next, PATCHABLE);
  if (Object.keys(changes).length === 0) return current;
  await commit(ctx, {
    writes: [userChange(current, next, body.version)],
    audit: [{ action: 'admin.user.update', targetType: 'user', targetId: userId, changes }],
    changes: [{ type: 'user', id: userId, op: 'upsert', version: current.version + 1 }],
  });
  const saved: UserRecord = { ...next, updatedAt: ctx.now.toISOString(), version: current.version + 1 };
  // Unlocking also lifts the sign-in throttle: the account's ceiling and every client's delay.
  if (changes.locked && !saved.locked) await clearLoginThrottles(saved.email);
  return saved;
}

export async function deleteUserAsAdmin(ctx: CommandContext, userId: string): Promise<void> {
  if (ctx.caller.id === userId) throw new Conflict('You cannot delete your own account');
  const user = await getUserOrThrow(userId);
  await commit(ctx, {
    writes: userDelete(user),
    audit: [{ action: 'admin.user.delete', targetType: 'user', targetId: userId, changes: { email: user.email, role: user.role } }],
    changes: [{ type: 'user', id: userId, op: 'delete' }],
  });
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

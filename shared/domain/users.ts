import { ulid } from 'ulidx';
import { Conflict, ValidationFailed, type FieldError } from '../errors.js';
import { normalizeEmail } from './accounts.js';
import type { Caller } from './caller.js';
import { capabilityGrantProblems, type Role } from './capabilities.js';
import { recordChange, type AuditEvent, type ResourceChange } from './decision.js';
import type { CreateUserBody, PatchUserBody } from '../../schemas/admin.js';

/** Users and the admin's decisions about them, without I/O (the accounts' own rules: ./accounts.ts). */

/** A user as stored. `passwordHash` never leaves shared/ (see toUserDto in shared/services/accounts). */
export interface UserRecord {
  id: string;
  email: string;
  name: string;
  role: Role;
  explicitCapabilities: string[] | null;
  farmIds: string[];
  verified: boolean;
  locked: boolean;
  passwordHash: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** The user as it leaves the service's records for an audit entry: never its password hash. */
function visible(user: UserRecord): Omit<UserRecord, 'passwordHash'> {
  const { passwordHash: _omit, ...rest } = user;
  return rest;
}

/** A user is no farm's record: its changes go to no farm's feed. */
const userChange = (user: UserRecord, op: ResourceChange['op'] = 'upsert'): ResourceChange =>
  op === 'delete' ? { type: 'user', id: user.id, op, farmIds: [] } : { type: 'user', id: user.id, op, version: user.version, farmIds: [] };

/** What a grant may hold: capabilities the role may be given, farms that exist (`knownFarms`, as read). */
export function grantProblems(
  role: Role,
  capabilities: readonly string[] | null | undefined,
  farmIds: readonly string[] | undefined,
  knownFarms: ReadonlySet<string>,
) {
  const details: FieldError[] = [];
  for (const message of capabilities ? capabilityGrantProblems(role, capabilities) : []) details.push({ field: 'capabilities', message });
  for (const id of farmIds ?? []) if (!knownFarms.has(id)) details.push({ field: 'farmIds', message: `unknown farm "${id}"` });
  if (details.length > 0) throw new ValidationFailed(details);
}

/** A self-service sign-up: an unverified viewer of no farm. */
export function newAccount(body: { email: string; name: string }, passwordHash: string, now: Date): UserRecord {
  const at = now.toISOString();
  return {
    id: ulid(),
    email: normalizeEmail(body.email),
    name: body.name.trim(),
    role: 'viewer',
    explicitCapabilities: null,
    farmIds: [],
    verified: false,
    locked: false,
    passwordHash,
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
}

/** A user an admin creates: verified unless said otherwise, on the farms named (or the default farm). */
export function decideUserCreate(
  body: CreateUserBody,
  passwordHash: string,
  facts: { knownFarms: ReadonlySet<string>; defaultFarm: string | undefined; now: Date },
) {
  const role = body.role ?? 'viewer';
  grantProblems(role, body.capabilities, body.farmIds, facts.knownFarms);
  const at = facts.now.toISOString();
  const user: UserRecord = {
    id: ulid(),
    email: normalizeEmail(body.email),
    name: body.name.trim(),
    role,
    explicitCapabilities: body.capabilities ?? null,
    farmIds: body.farmIds ?? (facts.defaultFarm ? [facts.defaultFarm] : []),
    verified: body.verified ?? true,
    locked: false,
    passwordHash,
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
  const audit: AuditEvent[] = [{ action: 'admin.user.create', targetType: 'user', targetId: user.id, changes: visible(user) }];
  return { user, audit, changes: [userChange(user)] };
}

const PATCHABLE = ['name', 'role', 'explicitCapabilities', 'locked', 'verified', 'farmIds'] as const;

/** An admin's change of a user (its version already compared): nobody demotes or locks themself. */
export function decideUserPatch(caller: Pick<Caller, 'id'>, current: UserRecord, body: PatchUserBody, facts: { knownFarms: ReadonlySet<string>; now: Date }) {
  const edited: UserRecord = {
    ...current,
    ...(body.name !== undefined ? { name: body.name.trim() } : {}),
    ...(body.role !== undefined ? { role: body.role } : {}),
    ...(body.capabilities !== undefined ? { explicitCapabilities: body.capabilities } : {}),
    ...(body.locked !== undefined ? { locked: body.locked } : {}),
    ...(body.verified !== undefined ? { verified: body.verified } : {}),
    ...(body.farmIds !== undefined ? { farmIds: body.farmIds } : {}),
  };
  if (caller.id === current.id && (edited.role !== 'admin' || edited.locked))
    throw new Conflict('You cannot remove your own admin role or lock your own account');
  grantProblems(edited.role, body.capabilities === undefined ? null : body.capabilities, body.farmIds, facts.knownFarms);
  const change = recordChange(current, edited, PATCHABLE, facts.now);
  const { next, changes } = change;
  return {
    change,
    /** Unlocking also lifts the sign-in throttle: the account's ceiling and every client's delay. */
    liftThrottle: changes.locked !== undefined && !next.locked,
    audit: [{ action: 'admin.user.update', targetType: 'user', targetId: current.id, changes }] as AuditEvent[],
    changes: [userChange(next)],
  };
}

/** An admin deletes a user; never their own account. */
export function decideUserDelete(caller: Pick<Caller, 'id'>, userId: string) {
  if (caller.id === userId) throw new Conflict('You cannot delete your own account');
  return (user: UserRecord) => ({
    audit: [{ action: 'admin.user.delete', targetType: 'user', targetId: user.id, changes: { email: user.email, role: user.role } }] as AuditEvent[],
    changes: [userChange(user, 'delete')],
  });
}

/** E-mail verification: a token that is known, unexpired and names a user marks that user verified. */
export function decideVerification(token: { userId: string; expiresAt: number } | undefined, user: UserRecord | undefined, now: Date, invalid: () => Error) {
  if (!token || token.expiresAt <= Math.floor(now.getTime() / 1000) || !user) throw invalid();
  const next: UserRecord = { ...user, verified: true, updatedAt: now.toISOString(), version: user.version + 1 };
  return {
    next,
    audit: [{ action: 'auth.verify-email', targetType: 'user', targetId: user.id, changes: { verified: { from: user.verified, to: true } } }] as AuditEvent[],
  };
}

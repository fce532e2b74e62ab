/** Decisions of the account, supplier and continuity use cases (pure: what they refuse, the records and events they return). */
import { describe, expect, it } from 'vitest';
import { throttleEvents, LOGIN_THROTTLE } from '../../shared/domain/accounts.js';
import type { Caller } from '../../shared/domain/caller.js';
import { decideDrill, decideExportRequest, decideRestoreRequest, restoreOpening, type ExportRecord } from '../../shared/domain/continuity/jobs.js';
import { unchanged } from '../../shared/domain/decision.js';
import { decideSupplierRemoval, decideSupplierUpdate } from '../../shared/domain/procurement/suppliers.js';
import type { SupplierRecord } from '../../shared/domain/procurement/records.js';
import { decideUserCreate, decideUserDelete, decideUserPatch, decideVerification, type UserRecord } from '../../shared/domain/users.js';

const now = new Date('2026-11-27T10:00:00Z');
const caller = (id: string, farmIds: string[] = ['F1'], allFarms = false): Caller => ({ id, role: 'manager', capabilities: new Set(), farmIds, allFarms });
const user = (over: Partial<UserRecord> = {}): UserRecord => ({
  id: 'U1',
  email: 'a@b.c',
  name: 'A',
  role: 'admin',
  explicitCapabilities: null,
  farmIds: ['F1'],
  verified: false,
  locked: false,
  passwordHash: 'h',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  version: 3,
  ...over,
});

describe('admin decisions about users', () => {
  it('creates a verified user on the default farm; the audit never holds the password hash', () => {
    const d = decideUserCreate({ email: ' New@Farm.io ', name: ' N ', password: 'x' } as never, 'HASH', { knownFarms: new Set(), defaultFarm: 'F0', now });
    expect(d.user).toMatchObject({ email: 'new@farm.io', name: 'N', role: 'viewer', farmIds: ['F0'], verified: true, passwordHash: 'HASH', version: 1 });
    expect(JSON.stringify(d.audit)).not.toContain('HASH');
    expect(d.changes).toEqual([{ type: 'user', id: d.user.id, op: 'upsert', version: 1, farmIds: [] }]);
  });

  it('refuses unknown farms naming each, and an admin demoting or locking themself', () => {
    expect(() =>
      decideUserCreate({ email: 'a@b.c', name: 'n', password: 'x', farmIds: ['F1', 'F9'] } as never, 'H', {
        knownFarms: new Set(['F1']),
        defaultFarm: undefined,
        now,
      }),
    ).toThrow(expect.objectContaining({ details: [{ field: 'farmIds', message: 'unknown farm "F9"' }] }));
    expect(() => decideUserPatch(caller('U1'), user(), { locked: true } as never, { knownFarms: new Set(), now })).toThrow(
      'You cannot remove your own admin role',
    );
    expect(() => decideUserDelete(caller('U1'), 'U1')).toThrow('You cannot delete your own account');
  });

  it('a patch that changes nothing is unchanged; unlocking lifts the throttle and bumps the version', () => {
    expect(unchanged(decideUserPatch(caller('A'), user(), { name: 'A' } as never, { knownFarms: new Set(), now }).change)).toBe(true);
    const d = decideUserPatch(caller('A'), user({ locked: true }), { locked: false } as never, { knownFarms: new Set(), now });
    expect(d.liftThrottle).toBe(true);
    expect(d.change.next).toMatchObject({ locked: false, version: 4, updatedAt: now.toISOString() });
    expect(d.audit[0]!.changes).toEqual({ locked: { from: true, to: false } });
  });

  it('verifies only with a known, unexpired token naming a user', () => {
    const invalid = () => new Error('invalid');
    const future = Math.floor(now.getTime() / 1000) + 60;
    expect(() => decideVerification(undefined, user(), now, invalid)).toThrow('invalid');
    expect(() => decideVerification({ userId: 'U1', expiresAt: future - 120 }, user(), now, invalid)).toThrow('invalid');
    expect(() => decideVerification({ userId: 'U1', expiresAt: future }, undefined, now, invalid)).toThrow('invalid');
    expect(decideVerification({ userId: 'U1', expiresAt: future }, user(), now, invalid).next).toMatchObject({ verified: true, version: 4 });
  });

  it('audits a throttled client once, at its first delay, and the account once, at its ceiling, naming no actor', () => {
    const first = throttleEvents('U1', '192.0.2.1', { attempts: LOGIN_THROTTLE.freeFailures, openAt: 1_800_000_000 }, 1, 1_800_000_900);
    expect(first).toEqual([expect.objectContaining({ actorId: null, action: 'auth.throttle', targetId: 'U1' })]);
    expect(throttleEvents('U1', 'c', { attempts: LOGIN_THROTTLE.freeFailures + 1, openAt: 0 }, 2, 0)).toEqual([]);
    expect(throttleEvents('U1', 'c', { attempts: 1, openAt: 0 }, LOGIN_THROTTLE.accountMaxFailures, 0).map((e) => e.action)).toEqual(['auth.lockout']);
  });
});

describe('supplier decisions', () => {
  const supplier = (over: Partial<SupplierRecord> = {}): SupplierRecord => ({
    id: 'S1',
    name: 'Mill',
    kinds: ['feed'],
    contact: {},
    farmIds: ['F1', 'F2'],
    archived: false,
    orderCount: 0,
    createdAt: '',
    updatedAt: '',
    version: 2,
    ...over,
  });

  it("replaces only the caller's part of the farms; the other farms stay", () => {
    const d = decideSupplierUpdate(caller('U', ['F1', 'F3']), supplier(), { farmIds: ['F3'] } as never, now);
    expect(d.change.next.farmIds).toEqual(['F2', 'F3']);
    expect(d.newFarms).toEqual(['F3']);
  });

  it('deletes a supplier without orders, archives one with orders, refuses one serving farms the caller cannot see', () => {
    expect(decideSupplierRemoval(caller('U', ['F1', 'F2']), supplier(), now).remove).toBe('delete');
    expect(decideSupplierRemoval(caller('U', ['F1', 'F2']), supplier({ orderCount: 2 }), now)).toMatchObject({
      remove: 'archive',
      next: { archived: true, version: 3 },
    });
    expect(() => decideSupplierRemoval(caller('U', ['F1']), supplier(), now)).toThrow('also serves farms you cannot see');
  });
});

describe('continuity decisions', () => {
  const completed = { id: 'E1', farmId: 'F1', status: 'completed' } as ExportRecord;

  it('exports a farm that exists and is not being restored, to a file named by farm and job', () => {
    const notFound = () => new Error('Farm F1 not found');
    expect(() => decideExportRequest(caller('U'), { id: 'F1', name: 'n', restoring: true }, { storage: 'local', now, notFound })).toThrow('Farm F1 not found');
    const { job } = decideExportRequest(caller('U'), { id: 'F1', name: 'North' }, { storage: 'local', now, notFound });
    expect(job).toMatchObject({ farmId: 'F1', farmName: 'North', status: 'pending', objectKey: `exports/F1/${job.id}.jsonl` });
  });

  it('restores only a completed export, and not for a user holding the most farms', () => {
    expect(() => decideRestoreRequest(caller('U'), { ...completed, status: 'running' }, 'x', { maxFarms: 5, now })).toThrow('only a completed export');
    expect(() => decideRestoreRequest(caller('U', ['a', 'b']), completed, 'x', { maxFarms: 2, now })).toThrow('You already hold 2 farms');
    const { job } = decideRestoreRequest(caller('U'), completed, ' Copy ', { maxFarms: 5, now });
    expect(job).toMatchObject({ farmName: 'Copy', assignTo: 'U', sourceFarmId: 'F1' });
    expect(job.farmId).not.toBe('F1');
  });

  it("opens a restored farm in the requester's name", () => {
    const job = decideRestoreRequest(caller('U'), completed, 'c', { maxFarms: 5, now }).job;
    expect(restoreOpening(job, { records: 3, counts: {}, compared: 3, durationMs: 1 }, now).audit[0]).toMatchObject({ actorId: 'U', action: 'farm.restore' });
  });

  it('refuses a drill dated after today', () => {
    expect(() => decideDrill(caller('U'), 'F1', { kind: 'fire', date: '2026-11-28', durationMinutes: 5, result: 'passed' } as never, now)).toThrow();
    expect(decideDrill(caller('U'), 'F1', { kind: 'fire', date: '2026-11-27', durationMinutes: 5, result: 'passed' } as never, now).drill.recordedBy).toBe('U');
  });
});

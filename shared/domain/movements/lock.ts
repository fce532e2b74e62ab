import { Conflict, Forbidden } from '../../errors.js';
import type { Caller } from '../caller.js';
import { type AuditEvent, type RecordChange, type ResourceChange, upsertOf } from '../decision.js';
import { effectiveLock, REVIEW_CAPABILITY, unlockRefusal, type StoredLock } from '../ledger.js';
import type { MovementRecord } from './record.js';

/** Locking and unlocking a movement, decided without I/O: the lock binds the locker's role; automatic locks never lift. */

type LockCycle = { status: string; closedAt: string | null };

function lockChange(m: MovementRecord, lock: StoredLock | null, action: string, audited: Record<string, unknown>, now: Date) {
  const next: MovementRecord = { ...m, lock, version: m.version + 1, updatedAt: now.toISOString() };
  const change: RecordChange<MovementRecord> = { current: m, next, fields: { lock }, changes: { lock: { from: m.lock, to: lock } } };
  const audit: AuditEvent[] = [{ action, targetType: 'movement', targetId: m.id, changes: audited }];
  const changes: ResourceChange[] = [upsertOf('movement', next)];
  return { change, audit, changes };
}

/** A manual lock by the caller (its role recorded: unlocking needs that role or review); refused when a lock already applies. */
export function decideMovementLock(caller: Pick<Caller, 'id' | 'role'>, m: MovementRecord, cycle: LockCycle, reason: string, now: Date, autoLockHours: number) {
  const current = effectiveLock(m, cycle, now, autoLockHours);
  if (current) throw new Conflict(`Movement ${m.id} is already locked (${current.type}: ${current.reason})`);
  const lock = { type: 'manual' as const, reason, at: now.toISOString(), by: caller.id, byRole: caller.role };
  return lockChange(m, lock, 'movement.lock', { lock: { from: null, to: lock } }, now);
}

/** Lifts a manual lock: refused when none applies, when it is automatic (409), or when the caller ranks below its locker without review (403). */
export function decideMovementUnlock(
  caller: Pick<Caller, 'role' | 'capabilities'>,
  m: MovementRecord,
  cycle: LockCycle,
  reason: string,
  now: Date,
  autoLockHours: number,
) {
  const current = effectiveLock(m, cycle, now, autoLockHours);
  if (!current) throw new Conflict(`Movement ${m.id} is not locked`);
  const refusal = unlockRefusal(caller, current);
  if (refusal === 'automatic') throw new Conflict(`Movement ${m.id} is locked automatically (${current.reason}); automatic locks cannot be unlocked`);
  if (refusal === 'higher-level')
    throw new Forbidden(
      current.byRole
        ? `Movement ${m.id} was locked by the role ${current.byRole}: unlocking it needs ${REVIEW_CAPABILITY} or the role ${current.byRole} or above`
        : `Movement ${m.id} is locked for review: unlocking it needs ${REVIEW_CAPABILITY}`,
    );
  return lockChange(m, null, 'movement.unlock', { lock: { from: current, to: null }, reason }, now);
}

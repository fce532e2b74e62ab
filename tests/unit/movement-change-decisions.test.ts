/** Editing, deleting, locking and unlocking a movement decided without a database: the refusals in the order a client meets them, and the records they return. */
import { describe, expect, it } from 'vitest';
import { decideMovementDeletion, decideMovementUpdate, judgeMovementEdit, judgeMovementRemoval } from '../../shared/domain/movements/change.js';
import { decideMovementLock, decideMovementUnlock } from '../../shared/domain/movements/lock.js';
import type { MovementRecord } from '../../shared/domain/movements/record.js';
import { Conflict, Forbidden, NotFound, ValidationFailed } from '../../shared/errors.js';
import { createMovementBody } from '../../schemas/compiled/movements.js';

const now = new Date('2026-03-10T09:00:00.000Z');
const HOURS = 48;
const cycle = { id: 'C1', flockId: 'F1', farmId: 'A', status: 'active', closedAt: null, startDate: '2026-02-01', endDate: null };
const movement = (over: Partial<MovementRecord> = {}): MovementRecord => ({
  id: 'M1',
  cycleId: 'C1',
  flockId: 'F1',
  farmId: 'A',
  type: 'bird_mortality',
  date: '2026-03-09',
  fields: { quantity: 5 },
  lock: null,
  createdAt: '2026-03-09T10:00:00.000Z',
  createdBy: 'u1',
  updatedAt: '2026-03-09T10:00:00.000Z',
  version: 1,
  ...over,
});
const capabilities = new Set<never>();

describe('movement edit decisions', () => {
  it('refuses read-only metadata, a changed service field, a lock, another record’s movement and a transfer, in that order', () => {
    expect(() => judgeMovementEdit(movement(), cycle, { createdBy: 'x' } as never, now, HOURS, createMovementBody)).toThrow(ValidationFailed);
    expect(() =>
      judgeMovementEdit(movement({ fields: { quantity: 5, receiptId: 'R1' } }), cycle, { receiptId: 'R2' } as never, now, HOURS, createMovementBody),
    ).toThrow(expect.objectContaining({ details: [{ field: 'receiptId', message: 'cannot be changed' }] }));
    const locked = movement({ lock: { type: 'manual', reason: 'audit', at: now.toISOString(), by: 'u2' } });
    expect(() => judgeMovementEdit(locked, cycle, { quantity: 6 } as never, now, HOURS, createMovementBody)).toThrow(
      /is locked \(manual: audit\); unlock it first/,
    );
    expect(() =>
      judgeMovementEdit(movement({ fields: { quantity: 5, dailyRecordDate: '2026-03-09' } }), cycle, { quantity: 6 } as never, now, HOURS, createMovementBody),
    ).toThrow(/belongs to the daily record/);
    expect(() =>
      judgeMovementEdit(
        movement({ type: 'bird_transfer_out', fields: { quantity: 5, counterpartFlockId: 'F2' } }),
        cycle,
        { quantity: 6 } as never,
        now,
        HOURS,
        createMovementBody,
      ),
    ).toThrow(/delete it \(both sides go\)/);
    expect(() => judgeMovementEdit(movement(), cycle, { date: '2026-01-01' } as never, now, HOURS, createMovementBody)).toThrow(ValidationFailed);
  });

  it('reads a sale’s withdrawal windows and a delivery’s named references, only those', () => {
    expect(judgeMovementEdit(movement(), cycle, { quantity: 6 } as never, now, HOURS, createMovementBody).reads).toEqual({
      references: undefined,
      saleFrom: undefined,
    });
    expect(judgeMovementEdit(movement({ type: 'bird_sale' }), cycle, { quantity: 6 } as never, now, HOURS, createMovementBody).reads.saleFrom).toBe(
      '2026-03-09',
    );
    const delivery = movement({ type: 'bird_inflow', fields: { quantity: 100 } });
    expect(judgeMovementEdit(delivery, cycle, { supplierId: 'S1' } as never, now, HOURS, createMovementBody).reads.references).toEqual({
      supplierId: 'S1',
      orderId: undefined,
    });
  });

  it('decides the edited movement, its ledger changes and the audited diff; a supplier of another farm is a 404', () => {
    const edit = judgeMovementEdit(movement(), cycle, { quantity: 7, version: 1 } as never, now, HOURS, createMovementBody);
    const d = decideMovementUpdate({ capabilities }, movement(), cycle, edit, {}, now);
    expect(d.updated).toMatchObject({ fields: { quantity: 7 }, version: 2, updatedAt: now.toISOString() });
    expect(d.audit).toEqual([{ action: 'movement.update', targetType: 'movement', targetId: 'M1', changes: { quantity: { from: 5, to: 7 } } }]);
    expect(d.groups[0]!.changes.length).toBeGreaterThan(0);
    expect(d.changes).toEqual([{ type: 'movement', id: 'M1', op: 'upsert', version: 2, farmIds: ['A'] }]);
    const delivery = movement({ type: 'bird_inflow', fields: { quantity: 100 } });
    const named = judgeMovementEdit(delivery, cycle, { supplierId: 'S1' } as never, now, HOURS, createMovementBody);
    expect(() => decideMovementUpdate({ capabilities }, delivery, cycle, named, { references: { supplier: { farmIds: ['B'] } } }, now)).toThrow(NotFound);
  });
});

describe('movement deletion decisions', () => {
  it('names the other side of a transfer to read, and deletes both; the other side on another farm stays', () => {
    const out = movement({
      type: 'bird_transfer_out',
      fields: { quantity: 5, counterpartFlockId: 'F2', counterpartCycleId: 'C2', counterpartMovementId: 'M2' },
    });
    expect(judgeMovementRemoval(movement(), cycle, now, HOURS)).toBeUndefined();
    expect(judgeMovementRemoval(out, cycle, now, HOURS)).toEqual({ flockId: 'F2', cycleId: 'C2', movementId: 'M2' });
    const other = { cycle: { ...cycle, id: 'C2', flockId: 'F2' }, movement: movement({ id: 'M2', cycleId: 'C2', flockId: 'F2', type: 'bird_transfer_in' }) };
    const d = decideMovementDeletion(out, cycle, now, HOURS, other);
    expect(d.deletes.map((m) => m.id)).toEqual(['M1', 'M2']);
    expect(d.groups).toHaveLength(2);
    expect(d.changes).toEqual([
      { type: 'movement', id: 'M1', op: 'delete', farmIds: ['A'] },
      { type: 'movement', id: 'M2', op: 'delete', farmIds: ['A'] },
    ]);
    expect(() => decideMovementDeletion(out, cycle, now, HOURS, { ...other, cycle: { ...other.cycle, farmId: 'B' } })).toThrow(Conflict);
  });
});

describe('movement lock decisions', () => {
  const manager = { id: 'u2', role: 'manager' as const, capabilities };
  it('locks with the locker’s role; a lock that applies already is a 409', () => {
    const d = decideMovementLock(manager, movement(), cycle, 'audit', now, HOURS);
    expect(d.change.fields).toEqual({ lock: { type: 'manual', reason: 'audit', at: now.toISOString(), by: 'u2', byRole: 'manager' } });
    expect(d.change.next.version).toBe(2);
    expect(d.audit[0]).toMatchObject({ action: 'movement.lock', changes: { lock: { from: null } } });
    expect(() => decideMovementLock(manager, movement({ createdAt: '2026-03-01T00:00:00.000Z' }), cycle, 'x', now, HOURS)).toThrow(
      /already locked \(automatic/,
    );
  });

  it('unlocks a manual lock; an automatic one never lifts, a higher role’s lock needs review', () => {
    expect(() => decideMovementUnlock(manager, movement(), cycle, 'r', now, HOURS)).toThrow(/is not locked/);
    expect(() => decideMovementUnlock(manager, movement(), { ...cycle, status: 'closed', closedAt: now.toISOString() }, 'r', now, HOURS)).toThrow(
      /automatic locks cannot be unlocked/,
    );
    const byAdmin = movement({ lock: { type: 'manual', reason: 'a', at: now.toISOString(), by: 'u9', byRole: 'admin' } });
    expect(() => decideMovementUnlock(manager, byAdmin, cycle, 'r', now, HOURS)).toThrow(Forbidden);
    const byManager = movement({ lock: { type: 'manual', reason: 'a', at: now.toISOString(), by: 'u9', byRole: 'manager' } });
    const d = decideMovementUnlock(manager, byManager, cycle, 'done', now, HOURS);
    expect(d.change.fields).toEqual({ lock: null });
    expect(d.audit[0]!.changes).toEqual({ lock: { from: byManager.lock, to: null }, reason: 'done' });
  });
});

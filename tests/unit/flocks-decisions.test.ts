import { describe, expect, it } from 'vitest';
import { unchanged } from '../../shared/domain/decision.js';
import { decideCycleClose, decideCycleStart, decideCycleUpdate } from '../../shared/domain/flocks/cycles.js';
import { decideFlockArchive, decideFlockCreate, decideFlockUpdate } from '../../shared/domain/flocks/flocks.js';
import type { FlockRecord } from '../../shared/domain/flocks/records.js';
import { Conflict, NotFound, ValidationFailed } from '../../shared/errors.js';
import { aCycle, detailsOf } from '../support/decisions.js';

/** Flocks and cycles decided without a database: the refusals in the order a client meets them, the records and the audit. */

const now = new Date('2026-03-10T08:00:00.000Z');
const caller = { id: 'u1', allFarms: false, farmIds: ['f1'] };
const found = { farm: true, house: true };

const flock: FlockRecord = {
  id: 'fl1',
  farmId: 'f1',
  houseId: 'h1',
  name: 'Batch 12',
  birdType: 'broiler',
  breed: 'Ross 308',
  hatchDate: '2026-03-01',
  source: null,
  notes: null,
  status: 'active',
  activeCycleId: null,
  createdAt: '2026-03-01T00:00:00.000Z',
  updatedAt: '2026-03-01T00:00:00.000Z',
  version: 4,
};

const cycle = aCycle({ targetAgeDays: 42, version: 7 });

describe('creating a flock', () => {
  it('needs a farm: the body’s or the default one', () => {
    expect(() => decideFlockCreate(caller, { name: 'A', birdType: 'broiler' }, undefined, undefined, now)).toThrow(ValidationFailed);
  });

  it('another farm, a missing farm and a missing house are 404s naming them, in that order', () => {
    const body = { name: 'A', birdType: 'broiler' as const, houseId: 'h9' };
    expect(() => decideFlockCreate(caller, body, 'f2', found, now)).toThrow(/Farm f2 not found/);
    expect(() => decideFlockCreate(caller, body, 'f1', { farm: false, house: false }, now)).toThrow(/Farm f1 not found/);
    expect(() => decideFlockCreate(caller, body, 'f1', { farm: true, house: false }, now)).toThrow(/House h9 not found/);
  });

  it('a new active flock, trimmed, audited', () => {
    const {
      flock: created,
      audit,
      changes,
    } = decideFlockCreate(caller, { name: ' B ', birdType: 'layer', breed: '  ' }, 'f1', { farm: true, house: true }, now);
    expect(created).toMatchObject({ farmId: 'f1', houseId: null, name: 'B', breed: null, status: 'active', activeCycleId: null, version: 1 });
    expect(audit).toEqual([{ action: 'flock.create', targetType: 'flock', targetId: created.id, changes: { name: 'B', farmId: 'f1', birdType: 'layer' } }]);
    expect(changes).toEqual([{ type: 'flock', id: created.id, op: 'upsert', version: 1, farmIds: ['f1'] }]);
  });
});

describe('editing and archiving a flock', () => {
  it('judges a new house; changes only what differs', () => {
    expect(() => decideFlockUpdate(caller, flock, { houseId: 'h9' }, { farm: true, house: false }, now)).toThrow(NotFound);
    const { change, audit } = decideFlockUpdate(caller, flock, { name: ' Batch 12 ', notes: ' ok ', houseId: 'h2' }, found, now);
    expect(change.fields).toEqual({ houseId: 'h2', notes: 'ok' });
    expect(change.next).toMatchObject({ version: 5, updatedAt: now.toISOString() });
    expect(audit[0]!.changes).toEqual({ houseId: { from: 'h1', to: 'h2' }, notes: { from: null, to: 'ok' } });
    expect(unchanged(decideFlockUpdate(caller, flock, { name: 'Batch 12' }, undefined, now).change)).toBe(true);
  });

  it('an archive: nothing when archived, refused with an active cycle, else the archived flock', () => {
    expect(decideFlockArchive({ ...flock, status: 'archived' }, now)).toBeUndefined();
    expect(() => decideFlockArchive({ ...flock, activeCycleId: 'c1' }, now)).toThrow(/active cycle \(c1\)/);
    const decision = decideFlockArchive(flock, now)!;
    expect(decision.next).toMatchObject({ status: 'archived', version: 5 });
    expect(decision.audit[0]!.changes).toEqual({ status: { from: 'active', to: 'archived' } });
  });
});

describe('cycles', () => {
  it('a start is refused for an archived or busy flock, and before the hatch date', () => {
    expect(() => decideCycleStart({ ...flock, status: 'archived' }, { startDate: '2026-03-02' }, now)).toThrow(/is archived/);
    expect(() => decideCycleStart({ ...flock, activeCycleId: 'c0' }, { startDate: '2026-03-02' }, now)).toThrow(Conflict);
    expect(() => decideCycleStart(flock, { startDate: '2026-02-20' }, now)).toThrow(ValidationFailed);
  });

  it('a started cycle takes the flock’s farm, type and hatch date; the flock’s change is its next version', () => {
    const { cycle: started, changes } = decideCycleStart(flock, { startDate: '2026-03-02', name: ' Spring ' }, now);
    expect(started).toMatchObject({ flockId: 'fl1', farmId: 'f1', birdType: 'broiler', hatchDate: '2026-03-01', name: 'Spring', alive: 0, version: 1 });
    expect(changes).toEqual([
      { type: 'cycle', id: started.id, op: 'upsert', version: 1, farmIds: ['f1'] },
      { type: 'flock', id: 'fl1', op: 'upsert', version: 5, farmIds: ['f1'] },
    ]);
  });

  it('an edit of its own fields', () => {
    const { change } = decideCycleUpdate(cycle, { targetAgeDays: 42, targetWeightGrams: 2500 }, now);
    expect(change.fields).toEqual({ targetWeightGrams: 2500 });
    expect(change.next.version).toBe(8);
    expect(unchanged(decideCycleUpdate(cycle, { targetAgeDays: 42 }, now).change)).toBe(true);
  });

  it('a close: refused when closed, before its start, or in the future; defaults to today', () => {
    expect(() => decideCycleClose({ ...cycle, status: 'closed' }, { endDate: '2026-02-01' }, now)).toThrow(/already closed/);
    expect(() => decideCycleClose(cycle, { endDate: '2026-03-01' }, now)).toThrow(ValidationFailed);
    expect(detailsOf(() => decideCycleClose(cycle, { endDate: '2026-03-12' }, now))).toEqual([{ field: 'endDate', message: 'must not be in the future' }]);
    const closed = decideCycleClose(cycle, { reason: 'sold' }, now);
    expect(closed).toMatchObject({ endDate: '2026-03-10', closedAt: now.toISOString() });
    expect(closed.audit[0]!.changes).toMatchObject({ endDate: '2026-03-10', reason: 'sold', movementsLocked: 'automatic' });
  });
});

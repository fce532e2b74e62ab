import { describe, expect, it } from 'vitest';
import { decideSampleCreate } from '../../shared/domain/compliance/samples.js';
import { ValidationFailed } from '../../shared/errors.js';
import type { CreateSampleBody } from '../../schemas/compliance.js';

/** Salmonella samples decided without a database: the date refusals and the record returned. */

const caller = { id: 'U1' };
const flock = { id: 'K1', farmId: 'F1' };
const cycle = { id: 'C1', startDate: '2026-03-01' };
const now = new Date('2026-03-10T10:00:00.000Z');
const body = (patch: Partial<CreateSampleBody> = {}): CreateSampleBody => ({ flockId: 'K1', date: '2026-03-09', kind: 'boot_swabs', ...patch });
const fieldsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationFailed) return (err.details ?? []).map((d) => d.message);
    throw err;
  }
  return [];
};

describe('sample decisions', () => {
  it('refuses a date in the future and one before the cycle started', () => {
    expect(fieldsOf(() => decideSampleCreate(caller, flock, cycle, body({ date: '2026-03-12' }), now))).toEqual(['must not be in the future']);
    expect(fieldsOf(() => decideSampleCreate(caller, flock, cycle, body({ date: '2026-02-28' }), now))).toEqual([
      "must not be before the cycle's start date 2026-03-01",
    ]);
    expect(fieldsOf(() => decideSampleCreate(caller, flock, undefined, body({ date: '2026-02-28' }), now))).toEqual([]);
  });

  it('records a pending sample of the flock’s farm and cycle, audited', () => {
    const { sample, audit, changes } = decideSampleCreate(caller, flock, cycle, body(), now);
    expect(sample).toMatchObject({
      farmId: 'F1',
      flockId: 'K1',
      cycleId: 'C1',
      date: '2026-03-09',
      kind: 'boot_swabs',
      laboratory: null,
      result: 'pending',
      notes: null,
      createdAt: now.toISOString(),
      createdBy: 'U1',
      version: 1,
    });
    expect(audit).toEqual([{ action: 'compliance.sample.create', targetType: 'sample', targetId: sample.id, changes: { ...sample } }]);
    expect(changes).toEqual([{ type: 'sample', id: sample.id, op: 'upsert', version: 1, farmIds: ['F1'] }]);
    expect(decideSampleCreate(caller, flock, undefined, body(), now).sample.cycleId).toBeNull();
  });
});

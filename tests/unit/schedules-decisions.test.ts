import { describe, expect, it } from 'vitest';
import { systemCaller } from '../../shared/domain/caller.js';
import { unchanged } from '../../shared/domain/decision.js';
import {
  decideScheduleCreate,
  decideScheduleRemoval,
  decideScheduleUpdate,
  MAX_SCHEDULES_PER_FARM,
  scheduleEdit,
  withinCapOrThrow,
} from '../../shared/domain/schedules/decisions.js';
import { decideOccurrenceCompletion, decideOccurrenceSkip } from '../../shared/domain/schedules/outcomes.js';
import { decideProgramme, PROGRAMMES } from '../../shared/domain/schedules/programmes.js';
import type { ScheduleRecord } from '../../shared/domain/schedules/records.js';
import { Conflict, NotFound, type ValidationFailed } from '../../shared/errors.js';

/** The schedule and occurrence decisions without a database: refusals in the order a client meets them, and what they write. */

const now = new Date('2026-05-10T09:00:00.000Z');
const caller = systemCaller('test', ['manage_schedules'], ['f1']);
const cycle = { id: 'c1', flockId: 'k1', farmId: 'f1', startDate: '2026-05-01', endDate: null };
const placed = { flock: { farmId: 'f1' }, cycle };

const schedule = (fields: Partial<ScheduleRecord> = {}): ScheduleRecord => ({
  id: 's1',
  farmId: 'f1',
  houseId: null,
  flockId: 'k1',
  cycleId: 'c1',
  kind: 'inspection',
  title: 'Check drinkers',
  details: {},
  timing: { once: '2026-05-08' },
  assignee: null,
  placementDate: '2026-05-01',
  lastOccurrence: null,
  programme: null,
  createdBy: 'u0',
  createdAt: '2026-05-01T00:00:00.000Z',
  updatedAt: '2026-05-01T00:00:00.000Z',
  version: 2,
  ...fields,
});

const details = (err: unknown) => (err as ValidationFailed).details;
const thrown = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return err;
  }
  throw new Error('nothing thrown');
};

describe('a schedule', () => {
  const body = { farmId: 'f1', kind: 'inspection' as const, title: ' Check drinkers ', timing: { once: '2026-05-12' }, flockId: 'k1', cycleId: 'c1' };

  it('is created with its cycle’s placement date, its audit and its change', () => {
    const d = decideScheduleCreate(caller, 'f1', body, placed, now);
    expect(d.schedule).toMatchObject({ farmId: 'f1', title: 'Check drinkers', placementDate: '2026-05-01', createdBy: caller.id, version: 1, details: {} });
    expect(d.audit).toEqual([
      { action: 'schedule.create', targetType: 'schedule', targetId: d.schedule.id, changes: expect.objectContaining({ title: 'Check drinkers' }) },
    ]);
    expect(d.changes).toEqual([{ type: 'schedule', id: d.schedule.id, op: 'upsert', version: 1, farmIds: ['f1'] }]);
  });

  it('refuses, in order: its own problems, a cycle without its flock, then the records of another farm (404 naming them)', () => {
    expect(
      details(thrown(() => decideScheduleCreate(caller, 'f1', { ...body, kind: 'vaccination', cycleId: undefined, houseId: 'h9' }, {}, now))),
    ).toContainEqual(expect.objectContaining({ field: 'cycleId' }));
    expect(details(thrown(() => decideScheduleCreate(caller, 'f1', { ...body, flockId: undefined }, placed, now)))).toEqual([
      { field: 'flockId', message: expect.any(String) },
    ]);
    expect(thrown(() => decideScheduleCreate(caller, 'f1', { ...body, houseId: 'h9' }, placed, now))).toEqual(new NotFound('House h9 not found'));
    expect(thrown(() => decideScheduleCreate(caller, 'f1', body, { flock: { farmId: 'f2' }, cycle }, now))).toEqual(new NotFound('Flock k1 not found'));
    expect(thrown(() => decideScheduleCreate(caller, 'f1', body, { flock: { farmId: 'f1' } }, now))).toEqual(new NotFound('Cycle c1 of flock k1 not found'));
    expect(thrown(() => decideScheduleCreate(caller, 'f1', { ...body, assignee: 'u9' }, placed, now))).toEqual(new NotFound('User u9 not found'));
  });

  it('is edited field by field; an edit that changes nothing writes nothing', () => {
    expect(unchanged(scheduleEdit(schedule(), { title: ' Check drinkers ' }))).toBe(true);
    const d = decideScheduleUpdate(schedule(), { title: 'Flush drinkers', timing: { every: 2, unit: 'day', from: '2026-05-10' } }, placed, now);
    expect(d.change.changes).toEqual({
      title: { from: 'Check drinkers', to: 'Flush drinkers' },
      timing: { from: { once: '2026-05-08' }, to: { every: 2, unit: 'day', from: '2026-05-10' } },
    });
    expect(d.change.fields).toMatchObject({ title: 'Flush drinkers', placementDate: '2026-05-01', lastOccurrence: null });
    expect(d.change.next).toMatchObject({ version: 3, updatedAt: now.toISOString() });
    expect(d.audit[0]).toMatchObject({ action: 'schedule.update', targetId: 's1' });
  });

  it('is deleted with its audit; the farm’s cap is refused naming the count', () => {
    expect(decideScheduleRemoval(schedule())).toMatchObject({
      changes: [{ type: 'schedule', id: 's1', op: 'delete', farmIds: ['f1'] }],
      audit: [{ action: 'schedule.delete' }],
    });
    expect(() => withinCapOrThrow('f1', MAX_SCHEDULES_PER_FARM - 1, 1)).not.toThrow();
    expect(() => withinCapOrThrow('f1', MAX_SCHEDULES_PER_FARM - 1, 2)).toThrow(`Farm f1 has ${MAX_SCHEDULES_PER_FARM - 1} schedules`);
  });
});

describe('an occurrence', () => {
  const facts = { today: '2026-05-10', outcome: undefined };

  it('refuses, in order: no occurrence, after today, foreign data, a date already done, a weighing of nothing', () => {
    expect(details(thrown(() => decideOccurrenceCompletion(caller, schedule(), '2026-05-09', {}, facts, now)))).toEqual([
      { field: 'date', message: expect.stringContaining('no occurrence') },
    ]);
    const later = schedule({ timing: { once: '2026-05-11' } });
    expect(details(thrown(() => decideOccurrenceCompletion(caller, later, '2026-05-11', {}, facts, now)))).toEqual([
      { field: 'date', message: expect.stringContaining("after the farm's today (2026-05-10)") },
    ]);
    expect(details(thrown(() => decideOccurrenceCompletion(caller, schedule(), '2026-05-08', { data: { vaccine: 'x' } }, facts, now)))).toEqual([
      { field: 'data.vaccine', message: 'is not a field of a inspection completion' },
    ]);
    expect(thrown(() => decideOccurrenceCompletion(caller, schedule(), '2026-05-08', {}, { ...facts, outcome: { status: 'skipped' } }, now))).toBeInstanceOf(
      Conflict,
    );
    const weighing = schedule({ kind: 'weighing' });
    expect(
      thrown(() => decideOccurrenceCompletion(caller, weighing, '2026-05-08', { data: { weighingId: 'w1' } }, { ...facts, weighingFound: false }, now)),
    ).toBeInstanceOf(NotFound);
    expect(
      details(
        thrown(() =>
          decideOccurrenceCompletion(caller, schedule({ kind: 'weighing', cycleId: null }), '2026-05-08', { data: { weighingId: 'w1' } }, facts, now),
        ),
      ),
    ).toEqual([{ field: 'data.weighingId', message: expect.any(String) }]);
  });

  it('completes a vaccination with its movement and ledger changes in the cycle, or refuses when the cycle is gone', () => {
    const vaccination = schedule({ kind: 'vaccination', details: { vaccine: 'ND-IB', method: 'water' } });
    const d = decideOccurrenceCompletion(caller, vaccination, '2026-05-08', { notes: 'done' }, { ...facts, cycle }, now);
    expect(d.movement?.record).toMatchObject({ type: 'vaccination', date: '2026-05-08', cycleId: 'c1', fields: { vaccine: 'ND-IB', notes: 'done' } });
    expect(d.movement?.ledger.ref).toEqual({ flockId: 'k1', cycleId: 'c1', farmId: 'f1' });
    expect(d.outcome).toMatchObject({ status: 'done', movementId: d.movement?.record.id, by: caller.id, at: now.toISOString() });
    expect(d.audit[0]).toMatchObject({ action: 'schedule.complete', changes: { date: '2026-05-08', movementId: d.movement?.record.id } });
    expect(() => decideOccurrenceCompletion(caller, vaccination, '2026-05-08', {}, facts, now)).toThrow('no longer exists');
  });

  it('is skipped with its reason, once', () => {
    expect(decideOccurrenceSkip(caller, schedule(), '2026-05-08', { reason: ' rain ' }, undefined, now).outcome).toMatchObject({
      status: 'skipped',
      reason: 'rain',
    });
    expect(() => decideOccurrenceSkip(caller, schedule(), '2026-05-08', { reason: 'x' }, { status: 'done' }, now)).toThrow(Conflict);
  });
});

describe('applying a programme', () => {
  const broiler = PROGRAMMES.find((p) => p.id === 'broiler-typical')!;
  const placement = { houseId: null, flockId: 'k1', cycleId: 'c1', assignee: null };
  const target = (c: { status: string; birdType: string }) => ({ farmId: 'f1', placement, placementDate: '2026-05-01', cycle: c });

  it('writes one ageDays schedule per step, audited once against the cycle', () => {
    const d = decideProgramme(caller, broiler, target({ status: 'active', birdType: 'broiler' }), now);
    expect(d.schedules).toHaveLength(broiler.steps.length);
    expect(d.schedules.map((s) => s.timing)).toEqual(broiler.steps.map((s) => ({ ageDays: s.ageDays })));
    expect(d.schedules.every((s) => s.programme?.id === 'broiler-typical' && s.placementDate === '2026-05-01')).toBe(true);
    expect(d.audit).toEqual([expect.objectContaining({ action: 'schedule.apply_programme', targetId: 'c1' })]);
    expect(d.changes).toHaveLength(broiler.steps.length);
  });

  it('refuses a closed cycle (409) and another bird type (400 naming cycleId)', () => {
    expect(() => decideProgramme(caller, broiler, target({ status: 'closed', birdType: 'broiler' }), now)).toThrow(Conflict);
    expect(() => decideProgramme(caller, broiler, target({ status: 'active', birdType: 'layer' }), now)).toThrow(
      expect.objectContaining({ details: [{ field: 'cycleId', message: 'is a layer cycle; programme broiler-typical is for broilers' }] }),
    );
  });
});

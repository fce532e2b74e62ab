import { describe, expect, it } from 'vitest';
import type { DailyRecordBody } from '../../schemas/daily-records.js';
import { decideDailyRecord, judgeDailyForm, judgeReplaced } from '../../shared/domain/flocks/daily-records.js';
import type { DailyRecord } from '../../shared/domain/flocks/records.js';
import type { LedgerGroup, MovementRecord } from '../../shared/domain/movements/record.js';
import { Conflict, ValidationFailed } from '../../shared/errors.js';
import { aCycle, detailsOf } from '../support/decisions.js';

/** A day's form decided without a database: the refusals in the order a client meets them, the record, its movements, the ledger changes. */

const now = new Date('2026-03-10T08:00:00.000Z');
const cycle = aCycle();
/** A brooding day (age 8): the climate is required besides mortality, feed and water. */
const form: DailyRecordBody = { date: '2026-03-09', deaths: 2, feedKg: 40, waterLiters: 90, temperatureMinC: 30, temperatureMaxC: 33, humidityPct: 60 };

const movement = (id: string, createdAt: string): MovementRecord => ({
  id,
  cycleId: 'c1',
  flockId: 'fl1',
  farmId: 'f1',
  type: 'bird_mortality',
  date: '2026-03-09',
  fields: { quantity: 1, cause: 'unknown', dailyRecordDate: '2026-03-09' },
  lock: null,
  createdAt,
  createdBy: 'u0',
  updatedAt: createdAt,
  version: 1,
});

/** The net change of the cycle's own counters. */
const cycleAmounts = (groups: LedgerGroup[]) => groups[0]!.changes.find((c) => c.target.kind === 'cycle')?.amounts;

describe('judging a day’s form', () => {
  it('a closed cycle takes no form, whatever the form says', () => {
    expect(() => judgeDailyForm({ ...cycle, status: 'closed' }, { date: '2026-01-01' }, now)).toThrow(Conflict);
  });

  it('names the date, the stage’s missing fields and the cross-field rules together', () => {
    const { temperatureMinC: _t, ...withoutMin } = form;
    expect(detailsOf(() => judgeDailyForm(cycle, { ...withoutMin, date: '2026-03-01', eggsCracked: 3 }, now))).toEqual([
      { field: 'date', message: 'must not be before the cycle start 2026-03-02' },
      { field: 'temperatureMinC', message: 'is required in the brooding stage' },
      { field: 'eggsCracked', message: 'must not exceed eggsCollected' },
    ]);
    expect(() => judgeDailyForm(cycle, { ...form, date: '2026-03-12' }, now)).toThrow(ValidationFailed);
  });

  it('a complete form: its stage and the movements it stands for', () => {
    const judged = judgeDailyForm(cycle, form, now);
    expect(judged.stage).toBe('brooding');
    expect(judged.inputs.map((i) => i.type)).toEqual(['bird_mortality', 'feed_consumption', 'water_consumption']);
  });
});

describe('deciding the day', () => {
  it('a movement of the replaced form that is locked refuses the submission', () => {
    expect(() => judgeReplaced([movement('m1', '2026-03-09T10:00:00.000Z')], cycle, now, 72)).not.toThrow();
    expect(() => judgeReplaced([movement('m1', '2026-03-01T10:00:00.000Z')], cycle, now, 72)).toThrow(/Movement m1 is locked \(automatic/);
  });

  it('a consumption without a feed type needs exactly one feed in stock', () => {
    const judged = judgeDailyForm(cycle, form, now);
    const facts = { callerId: 'u1', existing: undefined, previous: [], now };
    expect(() => decideDailyRecord(cycle, form, judged, { ...facts, feedInStock: [] })).toThrow(/No feed in stock on farm f1/);
    expect(() => decideDailyRecord(cycle, form, judged, { ...facts, feedInStock: ['starter', 'grower'] })).toThrow(ValidationFailed);
  });

  it('a first submission: the record, its movements (feed from the only stock) and the ledger’s net changes', () => {
    const judged = judgeDailyForm(cycle, form, now);
    const d = decideDailyRecord(cycle, form, judged, { callerId: 'u1', existing: undefined, previous: [], feedInStock: ['starter'], now });
    expect(d.replaced).toBe(false);
    expect(d.daily).toMatchObject({ cycleId: 'c1', flockId: 'fl1', date: '2026-03-09', stage: 'brooding', createdBy: 'u1', version: 1 });
    expect(d.daily.fields).not.toHaveProperty('date');
    expect(d.daily.movementIds).toEqual(d.movements.map((m) => m.id));
    expect(d.movements.find((m) => m.type === 'feed_consumption')!.fields).toMatchObject({ feedType: 'starter', dailyRecordDate: '2026-03-09' });
    expect(cycleAmounts(d.groups)).toMatchObject({ alive: -2, deaths: 2 });
    expect(d.changes.every((c) => c.op === 'upsert')).toBe(true);
  });

  it('a second submission replaces the first: its movements deleted, the counters moving by the difference', () => {
    const existing: DailyRecord = {
      cycleId: 'c1',
      flockId: 'fl1',
      date: '2026-03-09',
      stage: 'brooding',
      fields: {},
      movementIds: ['m1'],
      warnings: [],
      createdAt: '2026-03-09T10:00:00.000Z',
      createdBy: 'u0',
      updatedAt: '2026-03-09T10:00:00.000Z',
      version: 2,
    };
    const previous = [movement('m1', '2026-03-09T10:00:00.000Z')];
    const judged = judgeDailyForm(cycle, form, now);
    const d = decideDailyRecord(cycle, form, judged, { callerId: 'u1', existing, previous, feedInStock: ['starter'], now });
    expect(d.replaced).toBe(true);
    expect(d.daily).toMatchObject({ createdBy: 'u0', createdAt: existing.createdAt, updatedAt: now.toISOString(), version: 3 });
    expect(d.changes[0]).toEqual({ type: 'movement', id: 'm1', op: 'delete', farmIds: ['f1'] });
    expect(cycleAmounts(d.groups)).toMatchObject({ alive: -1, deaths: 1 });
  });
});

/** Depletion and back-filled work decided without a database: which flocks the dashboard lists, a completion's `doneOn` (a transfer's own date: transfer-decisions.test.ts). */
import { describe, expect, it } from 'vitest';
import { systemCaller } from '../../shared/domain/caller.js';
import { adherenceOf } from '../../shared/domain/compliance/vaccination.js';
import { ZERO_COUNTERS } from '../../shared/domain/cycle-summary.js';
import { emptiedFlock, isEmptied, isListed, type FlockToday } from '../../shared/domain/dashboard.js';
import { decideOccurrenceCompletion } from '../../shared/domain/schedules/outcomes.js';
import type { ScheduleRecord } from '../../shared/domain/schedules/records.js';
import { ValidationFailed } from '../../shared/errors.js';

const flockWith = (counters: Partial<typeof ZERO_COUNTERS> | null): FlockToday => ({
  flock: { id: 'K1', name: 'Pullets 1', birdType: 'layer', breed: null },
  cycle: counters && {
    ...ZERO_COUNTERS,
    ...counters,
    id: 'C1',
    startDate: '2026-01-01',
    hatchDate: null,
    endDate: null,
    latestWeight: null,
  },
  today: null,
  yesterday: null,
  dailyRecordToday: false,
});

describe('the flocks a dashboard lists', () => {
  it('an emptied cycle (birds in, none alive) is listed apart; one awaiting its birds and one with birds are cards; no cycle, no card', () => {
    const emptied = flockWith({ placed: 1000, deaths: 10, transferredOut: 990, alive: 0 });
    expect([isEmptied(emptied), isListed(emptied)]).toEqual([true, false]);
    expect(emptiedFlock(emptied, '2026-05-01')).toMatchObject({
      flockId: 'K1',
      cycleId: 'C1',
      emptiedOn: '2026-05-01',
      message: expect.stringContaining('close its cycle'),
    });
    const awaiting = flockWith({});
    expect([isEmptied(awaiting), isListed(awaiting)]).toEqual([false, true]);
    const laying = flockWith({ transferredIn: 990, alive: 990 });
    expect([isEmptied(laying), isListed(laying)]).toEqual([false, true]);
    expect(isListed(flockWith(null))).toBe(false);
  });
});

const now = new Date('2026-05-10T09:00:00.000Z');
const caller = systemCaller('test', ['complete_tasks'], ['f1']);
const cycle = { id: 'c1', flockId: 'k1', farmId: 'f1', startDate: '2024-10-01', endDate: null };
const vaccination: ScheduleRecord = {
  id: 's1',
  farmId: 'f1',
  houseId: null,
  flockId: 'k1',
  cycleId: 'c1',
  kind: 'vaccination',
  title: 'ND',
  details: { vaccine: 'ND LaSota', method: 'water' },
  timing: { once: '2024-11-05' },
  assignee: null,
  placementDate: '2024-10-01',
  lastOccurrence: null,
  programme: null,
  createdBy: 'u0',
  createdAt: '2024-10-01T00:00:00.000Z',
  updatedAt: '2024-10-01T00:00:00.000Z',
  version: 1,
};
const facts = { today: '2026-05-10', outcome: undefined, cycle };

describe('a completion’s doneOn', () => {
  it('keeps the day done, dates the movement on it, audits it back-filled; adherence judges it', () => {
    const d = decideOccurrenceCompletion(caller, vaccination, '2024-11-05', { doneOn: '2024-11-05' }, facts, now);
    expect(d.outcome.doneOn).toBe('2024-11-05');
    expect(d.movement!.record.date).toBe('2024-11-05');
    expect(d.audit[0]!.changes).toMatchObject({ date: '2024-11-05', doneOn: '2024-11-05', backFilled: true });
    const adherence = adherenceOf(
      { ...vaccination, scheduleId: 's1', vaccine: null, method: null, date: '2024-11-05', outcome: { ...d.outcome } },
      facts.today,
      () => facts.today,
    );
    expect(adherence).toEqual({ status: 'on_time', doneOn: '2024-11-05', daysLate: 0 });
  });

  it('defaults to the farm’s today (the movement keeps the occurrence’s date); refuses a day after today or before the cycle', () => {
    const d = decideOccurrenceCompletion(caller, vaccination, '2024-11-05', {}, facts, now);
    expect([d.outcome.doneOn, d.movement!.record.date]).toEqual(['2026-05-10', '2024-11-05']);
    expect(d.audit[0]!.changes).not.toHaveProperty('backFilled');
    for (const doneOn of ['2026-05-11', '2024-09-30'])
      expect(() => decideOccurrenceCompletion(caller, vaccination, '2024-11-05', { doneOn }, facts, now)).toThrow(ValidationFailed);
  });
});

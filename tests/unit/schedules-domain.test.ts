/** Schedules: the pure occurrence computation (every timing, the RRULE subset, ages), the farm's today, details per kind, the programmes. */
import { describe, expect, it } from 'vitest';
import {
  detailsProblems,
  expansionCounter,
  isOccurrence,
  lastOccurrenceOf,
  occurrencesBetween,
  occurrenceStatus,
  parseRrule,
  timingProblems,
  timingStartProblems,
} from '../../shared/domain/schedules/occurrences.js';
import type { ScheduleTiming } from '../../schemas/schedules.js';
import { PROGRAMMES } from '../../shared/domain/schedules/programmes.js';
import { addDays, localToday } from '../../shared/platform/calendar.js';

const none = { placementDate: null };

describe('occurrences', () => {
  it('once: only its date, inside the range', () => {
    expect(occurrencesBetween({ once: '2026-03-10' }, '2026-03-01', '2026-03-31', none)).toEqual(['2026-03-10']);
    expect(occurrencesBetween({ once: '2026-03-10' }, '2026-03-11', '2026-03-31', none)).toEqual([]);
    expect(isOccurrence({ once: '2026-03-10' }, '2026-03-10', none)).toBe(true);
    expect(isOccurrence({ once: '2026-03-10' }, '2026-03-11', none)).toBe(false);
  });

  it('every n days or weeks from a date, until a date, whatever the range starts with', () => {
    const t = { every: 3, unit: 'day' as const, from: '2026-01-30' };
    expect(occurrencesBetween(t, '2026-01-01', '2026-02-10', none)).toEqual(['2026-01-30', '2026-02-02', '2026-02-05', '2026-02-08']);
    expect(occurrencesBetween(t, '2026-02-03', '2026-02-08', none)).toEqual(['2026-02-05', '2026-02-08']);
    const weekly = { every: 2, unit: 'week' as const, from: '2026-03-01', until: '2026-04-01' };
    expect(occurrencesBetween(weekly, '2026-01-01', '2026-12-31', none)).toEqual(['2026-03-01', '2026-03-15', '2026-03-29']);
    expect(isOccurrence(weekly, '2026-03-15', none)).toBe(true);
    expect(isOccurrence(weekly, '2026-03-08', none)).toBe(false);
    expect(isOccurrence(weekly, '2026-04-12', none)).toBe(false);
  });

  it('crosses month ends, leap days and daylight-saving changes without shifting a date', () => {
    const t = { every: 1, unit: 'day' as const, from: '2028-02-27' };
    expect(occurrencesBetween(t, '2028-02-27', '2028-03-01', none)).toEqual(['2028-02-27', '2028-02-28', '2028-02-29', '2028-03-01']);
    // 2026-03-29: clocks go forward in Europe; a calendar date stays a calendar date
    expect(occurrencesBetween({ every: 1, unit: 'week', from: '2026-03-22' }, '2026-03-22', '2026-04-05', none)).toEqual([
      '2026-03-22',
      '2026-03-29',
      '2026-04-05',
    ]);
  });

  it('rrule: FREQ DAILY/WEEKLY/MONTHLY with INTERVAL, BYDAY, BYMONTHDAY, COUNT and UNTIL', () => {
    // 2026-01-01 is a Thursday
    expect(occurrencesBetween({ rrule: 'FREQ=WEEKLY;BYDAY=MO,TH;COUNT=5', from: '2026-01-01' }, '2026-01-01', '2026-12-31', none)).toEqual([
      '2026-01-01',
      '2026-01-05',
      '2026-01-08',
      '2026-01-12',
      '2026-01-15',
    ]);
    expect(occurrencesBetween({ rrule: 'FREQ=DAILY;INTERVAL=10;UNTIL=20260201', from: '2026-01-01' }, '2026-01-01', '2026-12-31', none)).toEqual([
      '2026-01-01',
      '2026-01-11',
      '2026-01-21',
      '2026-01-31',
    ]);
    expect(occurrencesBetween({ rrule: 'FREQ=MONTHLY;BYMONTHDAY=1,-1', from: '2026-01-01' }, '2026-02-01', '2026-03-31', none)).toEqual([
      '2026-02-01',
      '2026-02-28',
      '2026-03-01',
      '2026-03-31',
    ]);
    expect(isOccurrence({ rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU', from: '2026-01-06' }, '2026-01-20', none)).toBe(true);
    expect(isOccurrence({ rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU', from: '2026-01-06' }, '2026-01-13', none)).toBe(false);
  });

  it('rrule: BYDAY limits a daily rule and expands a monthly one; a month without the start’s day has no occurrence', () => {
    // 2026-01-01 is a Thursday
    expect(occurrencesBetween({ rrule: 'FREQ=DAILY;BYDAY=MO,WE', from: '2026-01-01' }, '2026-01-01', '2026-01-14', none)).toEqual([
      '2026-01-05',
      '2026-01-07',
      '2026-01-12',
      '2026-01-14',
    ]);
    expect(occurrencesBetween({ rrule: 'FREQ=MONTHLY;BYDAY=FR;COUNT=3', from: '2026-01-01' }, '2026-01-01', '2026-12-31', none)).toEqual([
      '2026-01-02',
      '2026-01-09',
      '2026-01-16',
    ]);
    expect(occurrencesBetween({ rrule: 'FREQ=MONTHLY', from: '2026-01-31' }, '2026-01-01', '2026-05-31', none)).toEqual([
      '2026-01-31',
      '2026-03-31',
      '2026-05-31',
    ]);
    // COUNT counts from the start, also before the period asked
    expect(occurrencesBetween({ rrule: 'FREQ=DAILY;COUNT=3', from: '2026-01-01' }, '2026-01-02', '2026-01-31', none)).toEqual(['2026-01-02', '2026-01-03']);
  });

  it('rrule: parts outside the subset are refused, naming them', () => {
    expect(parseRrule('FREQ=HOURLY')).toEqual({ problems: ['FREQ=HOURLY is not supported (DAILY, WEEKLY or MONTHLY)'] });
    expect(parseRrule('FREQ=WEEKLY;BYSETPOS=1')).toEqual({ problems: ['BYSETPOS is not supported'] });
    expect(parseRrule('INTERVAL=2')).toEqual({ problems: ['FREQ is required'] });
    expect(parseRrule('FREQ=DAILY;COUNT=3;UNTIL=20260101')).toEqual({ problems: ['COUNT and UNTIL may not both be given'] });
    expect(parseRrule('FREQ=WEEKLY;BYDAY=1MO')).toEqual({ problems: ['BYDAY 1MO is not one of MO, TU, WE, TH, FR, SA, SU'] });
    expect(parseRrule('FREQ=DAILY;UNTIL=20260231')).toEqual({ problems: ['UNTIL must be a date YYYYMMDD'] });
    // a month 13 parses to no instant at all: a named problem, not a RangeError (a 500)
    expect(parseRrule('FREQ=DAILY;UNTIL=20241301')).toEqual({ problems: ['UNTIL must be a date YYYYMMDD'] });
    expect(timingProblems({ rrule: 'FREQ=YEARLY', from: '2026-01-01' }, false)).toEqual([
      { field: 'timing.rrule', message: 'FREQ=YEARLY is not supported (DAILY, WEEKLY or MONTHLY)' },
    ]);
  });

  it('ageDays: days of age from the cycle’s placement (age 0 = placement day); nothing without a cycle', () => {
    const t = { ageDays: [14, 1, 21] };
    expect(occurrencesBetween(t, '2026-01-01', '2026-12-31', { placementDate: '2026-05-30' })).toEqual(['2026-05-31', '2026-06-13', '2026-06-20']);
    expect(occurrencesBetween(t, '2026-01-01', '2026-12-31', none)).toEqual([]);
    expect(timingProblems(t, false)).toEqual([{ field: 'cycleId', message: 'is required by an ageDays timing (ages count from the cycle’s placement)' }]);
    expect(timingProblems({ every: 1, unit: 'day', from: '2026-02-01', until: '2026-01-01' }, false)[0]!.field).toBe('timing.until');
  });
});

describe('expansion from the window', () => {
  const RULES = [
    'FREQ=DAILY',
    'FREQ=DAILY;INTERVAL=3',
    'FREQ=DAILY;BYDAY=MO,WE',
    'FREQ=DAILY;BYDAY=FR;BYMONTHDAY=13',
    'FREQ=DAILY;UNTIL=20270101',
    'FREQ=WEEKLY',
    'FREQ=WEEKLY;BYDAY=MO,TH',
    'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU',
    'FREQ=MONTHLY',
    'FREQ=MONTHLY;INTERVAL=5;BYMONTHDAY=31',
    'FREQ=MONTHLY;BYMONTHDAY=1,-1',
    'FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13',
    'FREQ=WEEKLY;BYDAY=MO,FR;COUNT=300',
    'FREQ=MONTHLY;INTERVAL=2;COUNT=40',
  ];
  const WINDOWS = [
    ['2024-01-01', '2024-03-01'],
    ['2025-02-27', '2025-03-05'],
    ['2026-11-27', '2026-11-27'],
    ['2030-06-01', '2030-09-01'],
  ] as const;

  it('jumps to the window: the same occurrences as expanding from the start, for every kind of timing', () => {
    const timings: ScheduleTiming[] = [
      ...RULES.map((rrule) => ({ rrule, from: '2024-01-31' })),
      { every: 3, unit: 'day', from: '2024-01-31' },
      { every: 2, unit: 'week', from: '2024-01-31', until: '2029-01-01' },
      { ageDays: [0, 7, 400, 1000] },
      { once: '2025-03-01' },
    ];
    for (const t of timings) {
      const basis = { placementDate: '2024-01-31', lastOccurrence: lastOccurrenceOf(t) ?? null };
      for (const [lo, hi] of WINDOWS) {
        const fromStart = occurrencesBetween(t, '2024-01-31', hi, { placementDate: '2024-01-31' }).filter((d) => d >= lo);
        expect(occurrencesBetween(t, lo, hi, basis), `${JSON.stringify(t)} ${lo}…${hi}`).toEqual(fromStart);
      }
    }
  });

  it('counts the dates it expands: a daily rule from decades ago costs a one-day window a few dates', () => {
    for (const t of [
      { rrule: 'FREQ=DAILY', from: '1000-01-01' },
      { rrule: 'FREQ=WEEKLY;BYDAY=MO,TH', from: '1000-01-01' },
      { rrule: 'FREQ=MONTHLY;BYMONTHDAY=-1', from: '1000-01-01' },
      { every: 1, unit: 'day', from: '1000-01-01' },
    ] as ScheduleTiming[]) {
      expansionCounter.dates = 0;
      expect(occurrencesBetween(t, '2026-11-30', '2026-11-30', none), JSON.stringify(t)).toEqual(['2026-11-30']);
      expect(expansionCounter.dates, JSON.stringify(t)).toBeLessThanOrEqual(14);
    }
  });

  it('a COUNT rule’s last date is worked out once; one that runs past 10 years is refused', () => {
    expect(lastOccurrenceOf({ rrule: 'FREQ=DAILY;COUNT=3', from: '2026-01-30' })).toBe('2026-02-01');
    expect(lastOccurrenceOf({ rrule: 'FREQ=DAILY', from: '2026-01-30' })).toBeNull();
    expect(lastOccurrenceOf({ every: 1, unit: 'day', from: '2026-01-30' })).toBeNull();
    expect(timingProblems({ rrule: 'FREQ=MONTHLY;COUNT=122', from: '2026-01-01' }, false)).toEqual([
      { field: 'timing.rrule', message: 'COUNT=122 is not reached within 10 years of timing.from: give a smaller COUNT or an UNTIL' },
    ]);
    expect(timingProblems({ rrule: 'FREQ=MONTHLY;COUNT=121', from: '2026-01-01' }, false)).toEqual([]);
  });

  it('a timing written may start at most 1096 days before today', () => {
    expect(timingStartProblems({ every: 1, unit: 'day', from: '2023-11-27' }, '2026-11-27')).toEqual([]);
    expect(timingStartProblems({ rrule: 'FREQ=DAILY', from: '2023-11-26' }, '2026-11-27')).toEqual([
      { field: 'timing.from', message: 'must be on or after 2023-11-27 (at most 1096 days, 3 years, before today)' },
    ]);
    expect(timingStartProblems({ once: '1000-01-01' }, '2026-11-27')).toEqual([]);
  });
});

describe('the farm’s today', () => {
  it('follows the farm’s time zone: at 12:30 UTC it is already tomorrow at UTC+13 and still today in UTC', () => {
    const now = new Date('2026-06-10T12:30:00Z');
    expect(localToday(now, 'UTC')).toBe('2026-06-10');
    expect(localToday(now, 'Pacific/Tongatapu')).toBe('2026-06-11');
    expect(localToday(now, 'Pacific/Pago_Pago')).toBe('2026-06-10');
    expect(localToday(new Date('2026-06-10T11:30:00Z'), 'Pacific/Pago_Pago')).toBe('2026-06-10');
    expect(localToday(new Date('2026-06-10T10:30:00Z'), 'Pacific/Pago_Pago')).toBe('2026-06-09');
  });

  it('an occurrence without outcome is overdue only once its date is before today', () => {
    expect(occurrenceStatus('2026-06-10', '2026-06-10', undefined)).toBe('due');
    expect(occurrenceStatus('2026-06-09', '2026-06-10', undefined)).toBe('overdue');
    expect(occurrenceStatus('2026-06-09', '2026-06-10', { status: 'skipped' })).toBe('skipped');
    expect(occurrenceStatus('2026-06-11', '2026-06-10', { status: 'done' })).toBe('done');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});

describe('details per kind', () => {
  it('vaccination takes vaccine, method and dose; feeding feedType and amountKg; a field of another kind is refused', () => {
    expect(detailsProblems('vaccination', { vaccine: 'ND', method: 'water', dose: '1 dose' })).toEqual([]);
    expect(detailsProblems('vaccination', { vaccine: 'ND' }).map((p) => p.field)).toEqual(['details.method', 'details.dose']);
    expect(detailsProblems('feeding', { feedType: 'starter', amountKg: 50 })).toEqual([]);
    expect(detailsProblems('feeding', { feedType: 'starter', vaccine: 'ND' }).map((p) => p.field)).toEqual(['details.amountKg', 'details.vaccine']);
    expect(detailsProblems('cleaning', { instructions: 'Wash drinkers' })).toEqual([]);
  });
});

describe('programmes', () => {
  it('ship a broiler and a layer rearing programme with public sources, every vaccination step complete', () => {
    expect(PROGRAMMES.map((p) => p.birdType).sort()).toEqual(['broiler', 'layer']);
    for (const p of PROGRAMMES) {
      expect(p.sources.length).toBeGreaterThan(0);
      for (const s of p.sources) expect(s.url).toMatch(/^https?:\/\//);
      expect(p.description).toMatch(/[Tt]ypical/);
      expect(new Set(p.steps.map((s) => s.id)).size).toBe(p.steps.length);
      for (const step of p.steps) expect(detailsProblems(step.kind, step.details)).toEqual([]);
    }
    const broiler = PROGRAMMES.find((p) => p.birdType === 'broiler')!;
    const ages = broiler.steps.filter((s) => s.kind === 'vaccination').flatMap((s) => s.ageDays);
    expect(ages).toEqual(expect.arrayContaining([1, 14]));
  });
});

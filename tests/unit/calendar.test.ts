/** shared/platform/calendar.ts: the one definition of calendar dates, their arithmetic, farm-local days and ages. */
import { describe, expect, it } from 'vitest';
import {
  addDays,
  ageDays,
  DAY_MS,
  dateRange,
  datesCovering,
  dayStartMs,
  daysBetween,
  isoDate,
  isoHour,
  localDateOf,
  localToday,
} from '../../shared/platform/calendar.js';

const at = (iso: string) => Date.parse(iso);

describe('instants as UTC dates and hours', () => {
  it('isoDate takes a Date or ms and gives the UTC date, whatever the time of day', () => {
    expect(isoDate(new Date('2026-11-24T23:59:59.999Z'))).toBe('2026-11-24');
    expect(isoDate(at('2026-11-25T00:00:00Z'))).toBe('2026-11-25');
    expect(isoDate(at('2026-11-24T22:30:00-05:00'))).toBe('2026-11-25');
    expect(isoDate(0)).toBe('1970-01-01');
  });

  it('isoHour gives the UTC hour bucket', () => {
    expect(isoHour(at('2026-11-24T13:59:59Z'))).toBe('2026-11-24T13');
    expect(isoHour(new Date('2026-11-24T00:00:00Z'))).toBe('2026-11-24T00');
  });

  it('dayStartMs is the UTC midnight of a date (a timestamp counts as its date)', () => {
    expect(dayStartMs('2026-03-29')).toBe(at('2026-03-29T00:00:00Z'));
    expect(dayStartMs('2026-03-29T18:45:00Z')).toBe(at('2026-03-29T00:00:00Z'));
    expect(Number.isNaN(dayStartMs('2026-13-01'))).toBe(true);
  });
});

describe('calendar arithmetic', () => {
  it('addDays crosses months, years and leap days, backwards too, and never shifts on a DST change', () => {
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2025-02-28', 1)).toBe('2025-03-01');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
    expect(addDays('2026-10-24', 7)).toBe('2026-10-31');
    expect(addDays('2026-05-10', 0)).toBe('2026-05-10');
    expect(addDays('2026-05-10T23:30:00Z', 1)).toBe('2026-05-11');
  });

  it('daysBetween counts whole days, negative when `to` is earlier, timestamps as their dates', () => {
    expect(daysBetween('2026-01-01', '2026-01-01')).toBe(0);
    expect(daysBetween('2026-01-01', '2026-03-01')).toBe(59);
    expect(daysBetween('2024-01-01', '2024-03-01')).toBe(60);
    expect(daysBetween('2026-03-01', '2026-01-01')).toBe(-59);
    expect(daysBetween('2026-01-01T23:59:00Z', '2026-01-02T00:01:00Z')).toBe(1);
    for (const n of [-400, -1, 0, 1, 35, 366, 3653]) expect(daysBetween('2026-06-15', addDays('2026-06-15', n))).toBe(n);
  });

  it('dateRange lists every date from `from` to `to`, both included; nothing when `to` is before', () => {
    expect(dateRange('2024-02-27', '2024-03-01')).toEqual(['2024-02-27', '2024-02-28', '2024-02-29', '2024-03-01']);
    expect(dateRange('2026-05-01', '2026-05-01')).toEqual(['2026-05-01']);
    expect(dateRange('2026-05-02', '2026-05-01')).toEqual([]);
  });

  it('datesCovering lists the UTC dates of the instants [from, to): an end at midnight leaves that date out', () => {
    expect(datesCovering(at('2026-05-01T10:00:00Z'), at('2026-05-03T00:00:00Z'))).toEqual(['2026-05-01', '2026-05-02']);
    expect(datesCovering(at('2026-05-01T10:00:00Z'), at('2026-05-03T00:00:00.001Z'))).toEqual(['2026-05-01', '2026-05-02', '2026-05-03']);
    expect(datesCovering(at('2026-05-01T10:00:00Z'), at('2026-05-01T11:00:00Z'))).toEqual(['2026-05-01']);
    expect(datesCovering(at('2026-05-01T00:00:00Z'), at('2026-05-01T00:00:00Z'))).toEqual([]);
    expect(datesCovering(0, 3 * DAY_MS)).toEqual(['1970-01-01', '1970-01-02', '1970-01-03']);
  });
});

describe('farm-local days', () => {
  it('localDateOf is the date on the farm’s clock, from ms or an ISO timestamp', () => {
    const instant = at('2026-11-24T11:30:00Z');
    expect(localDateOf(instant, 'UTC')).toBe('2026-11-24');
    expect(localDateOf(instant, 'Pacific/Auckland')).toBe('2026-11-25');
    expect(localDateOf('2026-11-24T03:00:00Z', 'America/Los_Angeles')).toBe('2026-11-23');
    // the night the clocks go forward in Europe: 00:30 UTC is 01:30 in London, still the 29th
    expect(localDateOf(at('2026-03-29T00:30:00Z'), 'Europe/London')).toBe('2026-03-29');
    expect(localDateOf(at('2026-03-28T23:30:00Z'), 'Europe/Berlin')).toBe('2026-03-29');
  });

  it('localToday is the farm’s date at `now`', () => {
    const now = new Date('2026-07-01T22:00:00Z');
    expect(localToday(now, 'Asia/Tokyo')).toBe('2026-07-02');
    expect(localToday(now, 'Europe/Lisbon')).toBe('2026-07-01');
  });
});

describe('ages', () => {
  const today = new Date('2026-05-20T15:00:00Z');

  it('counts from the hatch date, else the placement, to the end date or today', () => {
    expect(ageDays('2026-05-01', '2026-05-03', null, today)).toBe(19);
    expect(ageDays(null, '2026-05-03', null, today)).toBe(17);
    expect(ageDays('2026-05-01', '2026-05-03', '2026-05-10', today)).toBe(9);
  });

  it('is never negative (a placement after today, an end before the hatch)', () => {
    expect(ageDays(null, '2026-06-01', null, today)).toBe(0);
    expect(ageDays('2026-05-10', '2026-05-10', '2026-05-01', today)).toBe(0);
  });
});

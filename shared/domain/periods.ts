import { ValidationFailed } from '../errors.js';
import { addDays, dayStartMs, localDateOf } from '../platform/calendar.js';

/**
 * The one meaning of a period a client sends (`from`, `to`: the schemas `PeriodFrom`, `PeriodTo`): each end is a
 * calendar date, read as the farm's day in its time zone, or a timestamp.
 *
 * - `from` date: from the first instant of that farm-local day; `from` timestamp: from that instant.
 * - `to` date: up to the end of that farm-local day (the whole day included); `to` timestamp: up to that
 *   instant, excluded.
 *
 * Records stamped with an instant (anomalies, readings, a backtest) are in the period when `from ≤ t <
 * end`. Records dated by a day (movements, weighings, the agenda, daily analytics) are in it when their
 * day overlaps it: the farm-local days from the one `from` falls on to the one just before `end`. A date
 * needs the farm's time zone to become an instant, and a timestamp to become a day; nothing else does.
 */
export interface Period {
  from?: string | undefined;
  to?: string | undefined;
}

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;
const HOUR_MS = 3_600_000;
const EMPTY = 'must be after from';

export const isCalendarDate = (value: string): boolean => CALENDAR_DATE.test(value);

/**
 * The first instant of a farm-local day: its midnight, or the first instant after it where a daylight
 * saving change skips midnight. Every zone's offset lies within ±14 h, so the day starts within 15 h of
 * UTC midnight; found by halving that span (the local date never goes back as time goes on).
 */
export function startOfLocalDay(date: string, timeZone: string): number {
  const utcMidnight = dayStartMs(date);
  let before = utcMidnight - 15 * HOUR_MS;
  let from = utcMidnight + 15 * HOUR_MS;
  while (from - before > 1) {
    const mid = Math.floor((before + from) / 2);
    if (localDateOf(mid, timeZone) < date) before = mid;
    else from = mid;
  }
  return from;
}

/** Which zone a period needs: `instants` needs one when an end is a date, `days` when an end is a timestamp. */
export function needsTimeZone(period: Period, as: 'instants' | 'days'): boolean {
  return [period.from, period.to].some((v) => v !== undefined && isCalendarDate(v) === (as === 'instants'));
}

/** The period as instants (ms): `fromMs` inclusive, `endMs` exclusive; an end not given stays open. Refuses an empty period (field `to`). */
export function periodInstants(period: Period, timeZone: string): { fromMs: number | undefined; endMs: number | undefined } {
  const { from, to } = period;
  const fromMs = from === undefined ? undefined : isCalendarDate(from) ? startOfLocalDay(from, timeZone) : Date.parse(from);
  const endMs = to === undefined ? undefined : isCalendarDate(to) ? startOfLocalDay(addDays(to, 1), timeZone) : Date.parse(to);
  if (fromMs !== undefined && endMs !== undefined && endMs <= fromMs) throw new ValidationFailed([{ field: 'to', message: EMPTY }]);
  return { fromMs, endMs };
}

/** The period as the farm-local days it overlaps, both included; an end not given stays open. Refuses an empty period (field `to`). */
export function periodDays(period: Period, timeZone: string): { from: string | undefined; to: string | undefined } {
  const { from, to } = period;
  const first = from === undefined ? undefined : isCalendarDate(from) ? from : localDateOf(Date.parse(from), timeZone);
  const last = to === undefined ? undefined : isCalendarDate(to) ? to : localDateOf(Date.parse(to) - 1, timeZone);
  const instantsOnly = from !== undefined && to !== undefined && !isCalendarDate(from) && !isCalendarDate(to);
  if ((instantsOnly && Date.parse(to) <= Date.parse(from)) || (first !== undefined && last !== undefined && last < first))
    throw new ValidationFailed([{ field: 'to', message: EMPTY }]);
  return { from: first, to: last };
}

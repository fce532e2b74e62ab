/**
 * Calendar dates (YYYY-MM-DD) and instants, each defined once. Calendar arithmetic is done on UTC
 * midnights, which have no daylight-saving gaps, so a date never shifts; a farm's clock only decides which
 * date an instant falls on (`localDateOf`). Pure (no I/O, no clock but the `now` it is given), so every
 * layer uses it, the domain included.
 */

export const DAY_MS = 86_400_000;

/** The UTC calendar date of an instant (a Date, or ms since the epoch): `2026-11-24`. */
export const isoDate = (at: Date | number): string => new Date(at).toISOString().slice(0, 10);

/** The UTC hour of an instant: `2026-11-24T13` (the hour buckets of readings and alarms). */
export const isoHour = (at: Date | number): string => new Date(at).toISOString().slice(0, 13);

/** The first instant (ms, UTC midnight) of a calendar date; a timestamp counts as its date. */
export const dayStartMs = (date: string): number => Date.parse(`${date.slice(0, 10)}T00:00:00Z`);

/** The calendar date `days` days after `date` (before it when negative); a timestamp counts as its date. */
export const addDays = (date: string, days: number): string => isoDate(dayStartMs(date) + days * DAY_MS);

/** Whole days from `from` to `to` (negative when `to` is earlier); timestamps count as their dates. */
export const daysBetween = (from: string, to: string): number => Math.round((dayStartMs(to) - dayStartMs(from)) / DAY_MS);

/** Every calendar date from `from` to `to`, both included (empty when `to` is before `from`). */
export function dateRange(from: string, to: string): string[] {
  const n = daysBetween(from, to);
  return Array.from({ length: Math.max(0, n + 1) }, (_, i) => addDays(from, i));
}

/** The UTC calendar dates from the one of `fromMs` to the one of the last ms before `toMs`, in order. */
export const datesCovering = (fromMs: number, toMs: number): string[] => dateRange(isoDate(fromMs), isoDate(toMs - 1));

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The calendar date an instant (ms since the epoch, or an ISO timestamp) falls on in an IANA time zone:
 * the farm's own calendar, on which schedules, completions, orders and compliance are dated. One formatter per zone.
 */
export function localDateOf(instant: number | string, timeZone: string): string {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, f);
  }
  const parts = f.formatToParts(typeof instant === 'number' ? instant : Date.parse(instant));
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  return `${get('year')}-${get('month')}-${get('day')}`;
}

const clocks = new Map<string, Intl.DateTimeFormat>();

/** The time of day (`14:00`, 24-hour) an instant (ms since the epoch) shows on a clock in an IANA time zone. */
export function localTimeOf(instant: number, timeZone: string): string {
  let f = clocks.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    clocks.set(timeZone, f);
  }
  return f.format(instant);
}

/** The calendar date it is at `now` on the farm's clock (an IANA zone). */
export const localToday = (now: Date, timeZone: string): string => localDateOf(now.getTime(), timeZone);

/**
 * An age in days: from `origin` (else `fallback`) to the end date, or to `today` (UTC date) while it runs;
 * never negative. Which date a cycle's age counts from is the domain's rule (shared/domain/age.ts).
 */
export function ageDays(origin: string | null, fallback: string, endDate: string | null, today: Date): number {
  return Math.max(0, daysBetween(origin ?? fallback, endDate ?? isoDate(today)));
}

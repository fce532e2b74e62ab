/** Calendar-date arithmetic on `YYYY-MM-DD` strings (UTC days), for the compliance rules. */
export const DAY_MS = 86_400_000;

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The calendar date an instant (ms since the epoch, or an ISO timestamp) falls on in an IANA time zone:
 * the farm's own calendar, on which schedules and their completions are dated. One formatter per zone.
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

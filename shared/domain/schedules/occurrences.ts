import rrule from 'rrule';
import type { FieldError } from '../../errors.js';
import type { ScheduleDetails, ScheduleKind, ScheduleTiming } from '../../../schemas/schedules.js';

/**
 * Occurrences of a schedule: computed from its timing, never stored ahead. Every date here is a
 * farm-local calendar date (YYYY-MM-DD); calendar arithmetic is done on UTC midnights, which has no
 * daylight-saving gaps, so a date never shifts. The farm's clock only decides which date is "today".
 */

const DAY_MS = 86_400_000;
const { RRule } = rrule;

export const toDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
export const dayMs = (date: string): number => Date.parse(`${date}T00:00:00Z`);
export const addDays = (date: string, days: number): string => toDay(dayMs(date) + days * DAY_MS);
export const daysFrom = (from: string, to: string): number => Math.round((dayMs(to) - dayMs(from)) / DAY_MS);

/** The calendar date it is at `now` on the farm's clock (an IANA zone). */
export function localToday(now: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now);
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  return `${get('year')}-${get('month')}-${get('day')}`;
}

const FREQS = { DAILY: RRule.DAILY, WEEKLY: RRule.WEEKLY, MONTHLY: RRule.MONTHLY } as const;
const WEEKDAYS = { MO: RRule.MO, TU: RRule.TU, WE: RRule.WE, TH: RRule.TH, FR: RRule.FR, SA: RRule.SA, SU: RRule.SU } as const;
const MAX_OCCURRENCES = 5000;

export interface ParsedRrule {
  freq: keyof typeof FREQS;
  interval: number;
  byday: (keyof typeof WEEKDAYS)[];
  bymonthday: number[];
  count: number | null;
  until: string | null;
}

/** Parses the supported RFC 5545 subset; the problems name the part at fault. */
export function parseRrule(value: string): { rule: ParsedRrule } | { problems: string[] } {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const part of value.split(';')) {
    const [name, v, ...rest] = part.split('=');
    if (!name || v === undefined || rest.length) problems.push(`"${part}" is not NAME=VALUE`);
    else if (!['FREQ', 'INTERVAL', 'BYDAY', 'BYMONTHDAY', 'COUNT', 'UNTIL'].includes(name)) problems.push(`${name} is not supported`);
    else if (seen.has(name)) problems.push(`${name} appears twice`);
    else seen.set(name, v);
  }
  const freq = seen.get('FREQ');
  if (!freq) problems.push('FREQ is required');
  else if (!(freq in FREQS)) problems.push(`FREQ=${freq} is not supported (DAILY, WEEKLY or MONTHLY)`);
  const int = (name: string, min: number, max: number): number | null => {
    const v = seen.get(name);
    if (v === undefined) return null;
    const n = /^\d{1,6}$/.test(v) ? Number(v) : Number.NaN;
    if (!(n >= min && n <= max)) {
      problems.push(`${name} must be an integer from ${min} to ${max}`);
      return null;
    }
    return n;
  };
  const interval = int('INTERVAL', 1, 365) ?? 1;
  const count = int('COUNT', 1, 1000);
  const byday = (seen.get('BYDAY')?.split(',') ?? []).filter((d) => {
    if (d in WEEKDAYS) return true;
    problems.push(`BYDAY ${d} is not one of MO, TU, WE, TH, FR, SA, SU`);
    return false;
  }) as ParsedRrule['byday'];
  const bymonthday = (seen.get('BYMONTHDAY')?.split(',') ?? []).flatMap((d) => {
    const n = /^-?\d{1,2}$/.test(d) ? Number(d) : Number.NaN;
    if (n >= 1 && n <= 31) return [n];
    if (n <= -1 && n >= -31) return [n];
    problems.push(`BYMONTHDAY ${d} must be 1…31 or -31…-1`);
    return [];
  });
  let until: string | null = null;
  const u = seen.get('UNTIL');
  if (u !== undefined) {
    const m = /^(\d{4})(\d{2})(\d{2})$/.exec(u);
    const date = m ? `${m[1]}-${m[2]}-${m[3]}` : '';
    if (!m || toDay(dayMs(date)) !== date) problems.push('UNTIL must be a date YYYYMMDD');
    else until = date;
  }
  if (count !== null && until !== null) problems.push('COUNT and UNTIL may not both be given');
  if (problems.length) return { problems };
  return { rule: { freq: freq as ParsedRrule['freq'], interval, byday, bymonthday, count, until } };
}

function rruleOf(rule: ParsedRrule, from: string) {
  return new RRule({
    freq: FREQS[rule.freq],
    interval: rule.interval,
    dtstart: new Date(dayMs(from)),
    ...(rule.byday.length ? { byweekday: rule.byday.map((d) => WEEKDAYS[d]) } : {}),
    ...(rule.bymonthday.length ? { bymonthday: rule.bymonthday } : {}),
    ...(rule.count !== null ? { count: rule.count } : {}),
    ...(rule.until !== null ? { until: new Date(dayMs(rule.until)) } : {}),
  });
}

/** What an occurrence computation needs beyond the timing: the placement date of the schedule's cycle (for `ageDays`). */
export interface OccurrenceBasis {
  placementDate: string | null;
}

/** The occurrences of a timing between `from` and `to` (inclusive), in date order. */
export function occurrencesBetween(timing: ScheduleTiming, from: string, to: string, basis: OccurrenceBasis): string[] {
  if (from > to) return [];
  if ('once' in timing) return timing.once >= from && timing.once <= to ? [timing.once] : [];
  if ('ageDays' in timing) {
    if (!basis.placementDate) return [];
    const placed = basis.placementDate;
    return [...new Set(timing.ageDays)]
      .sort((a, b) => a - b)
      .map((age) => addDays(placed, age))
      .filter((d) => d >= from && d <= to);
  }
  if ('every' in timing) {
    const step = timing.every * (timing.unit === 'week' ? 7 : 1);
    const last = timing.until && timing.until < to ? timing.until : to;
    const start = timing.from >= from ? 0 : Math.ceil(daysFrom(timing.from, from) / step);
    const out: string[] = [];
    for (let k = start; out.length < MAX_OCCURRENCES; k++) {
      const d = addDays(timing.from, k * step);
      if (d > last) break;
      out.push(d);
    }
    return out;
  }
  const parsed = parseRrule(timing.rrule);
  if ('problems' in parsed) return [];
  return rruleOf(parsed.rule, timing.from)
    .between(new Date(dayMs(from)), new Date(dayMs(to)), true)
    .slice(0, MAX_OCCURRENCES)
    .map((d) => toDay(d.getTime()));
}

/** Whether `date` is an occurrence of the timing. */
export const isOccurrence = (timing: ScheduleTiming, date: string, basis: OccurrenceBasis): boolean =>
  occurrencesBetween(timing, date, date, basis).includes(date);

/** The timing's own problems (beyond its shape), naming the field. */
export function timingProblems(timing: ScheduleTiming, hasCycle: boolean): FieldError[] {
  if ('every' in timing && timing.until !== undefined && timing.until < timing.from)
    return [{ field: 'timing.until', message: `must not be before timing.from ${timing.from}` }];
  if ('rrule' in timing) {
    const parsed = parseRrule(timing.rrule);
    if ('problems' in parsed) return parsed.problems.map((message) => ({ field: 'timing.rrule', message }));
  }
  if ('ageDays' in timing && !hasCycle) return [{ field: 'cycleId', message: 'is required by an ageDays timing (ages count from the cycle’s placement)' }];
  return [];
}

/** What each kind's details require, and the fields of one kind another kind may not carry. */
const REQUIRED: Record<ScheduleKind, (keyof ScheduleDetails)[]> = {
  vaccination: ['vaccine', 'method', 'dose'],
  feeding: ['feedType', 'amountKg'],
  medication: ['product', 'dose'],
  inspection: [],
  weighing: [],
  cleaning: [],
  other: [],
};
const ALLOWED: Record<ScheduleKind, (keyof ScheduleDetails)[]> = {
  vaccination: ['vaccine', 'method', 'dose', 'instructions'],
  feeding: ['feedType', 'amountKg', 'instructions'],
  medication: ['product', 'dose', 'route', 'withdrawalDays', 'instructions'],
  inspection: ['instructions'],
  weighing: ['instructions'],
  cleaning: ['instructions'],
  other: ['instructions'],
};

export function detailsProblems(kind: ScheduleKind, details: ScheduleDetails): FieldError[] {
  return [
    ...REQUIRED[kind].filter((f) => details[f] === undefined).map((f) => ({ field: `details.${f}`, message: `is required for a ${kind} schedule` })),
    ...(Object.keys(details) as (keyof ScheduleDetails)[])
      .filter((f) => !ALLOWED[kind].includes(f))
      .map((f) => ({ field: `details.${f}`, message: `is not a field of a ${kind} schedule` })),
  ];
}

export type OccurrenceOutcome = { status: 'done' | 'skipped' };

/** due, overdue, done or skipped: an occurrence without an outcome is overdue once its date is before the farm's today. */
export function occurrenceStatus(date: string, today: string, outcome: OccurrenceOutcome | undefined): 'due' | 'overdue' | 'done' | 'skipped' {
  if (outcome) return outcome.status;
  return date < today ? 'overdue' : 'due';
}

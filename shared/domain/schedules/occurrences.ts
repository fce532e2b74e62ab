import type { FieldError } from '../../errors.js';
import type { ScheduleDetails, ScheduleKind, ScheduleTiming } from '../../../schemas/schedules.js';
import { addDays, dayStartMs, daysBetween, isoDate } from '../../platform/calendar.js';
import { ageOrigin, type AgeBasis } from '../age.js';

/**
 * Occurrences of a schedule: computed from its timing, never stored ahead. Every date here is a
 * farm-local calendar date (YYYY-MM-DD); calendar arithmetic is done on UTC midnights, which has no
 * daylight-saving gaps, so a date never shifts. The farm's clock only decides which date is "today".
 */

const FREQS = { DAILY: 'DAILY', WEEKLY: 'WEEKLY', MONTHLY: 'MONTHLY' } as const;
/** RFC 5545 weekday codes, by JavaScript's getUTCDay() (0 = Sunday). */
const WEEKDAYS = { SU: 0, MO: 1, TU: 2, WE: 3, TH: 4, FR: 5, SA: 6 } as const;
const MAX_OCCURRENCES = 5000;

/**
 * The dates the expansion produced or looked at, in this process: tests count work instead of timing it
 * (as `dbCalls` counts DynamoDB calls). An agenda expands each schedule from its window's start, so this
 * follows the window, not the age of the schedule.
 */
export const expansionCounter = { dates: 0 };

/** How far back a timing may start (`timing.from`): 3 years before today, a laying flock's life with room to spare. */
export const TIMING_FROM_HORIZON_DAYS = 1096;
/** A COUNT rule's occurrences must all fall within this many days (10 years) of its start. */
export const COUNT_SPAN_DAYS = 3653;

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
    // a month 13 or a 31 April parses to no instant at all, or to another day: both are no date
    const ms = m ? dayStartMs(date) : Number.NaN;
    if (Number.isNaN(ms) || isoDate(ms) !== date) problems.push('UNTIL must be a date YYYYMMDD');
    else until = date;
  }
  if (count !== null && until !== null) problems.push('COUNT and UNTIL may not both be given');
  if (problems.length) return { problems };
  return { rule: { freq: freq as ParsedRrule['freq'], interval, byday, bymonthday, count, until } };
}

/** The first day of the month `months` after the month of `date`. */
function monthStart(date: string, months: number): string {
  const d = new Date(dayStartMs(date));
  return isoDate(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
}

/** The dates of one period of the rule (a day, a week from Monday, a month), before the limits. */
function periodDates(rule: ParsedRrule, dtstart: string, k: number): string[] {
  const weekdays = rule.byday.map((d) => WEEKDAYS[d]);
  const start = new Date(dayStartMs(dtstart));
  if (rule.freq === 'DAILY') return [addDays(dtstart, k * rule.interval)];
  if (rule.freq === 'WEEKLY') {
    // weeks start on Monday (WKST=MO, RFC 5545's default); without BYDAY, the weekday of the start
    const monday = addDays(dtstart, -((start.getUTCDay() + 6) % 7) + k * 7 * rule.interval);
    const days = weekdays.length ? weekdays : [start.getUTCDay()];
    return [0, 1, 2, 3, 4, 5, 6].map((i) => addDays(monday, i)).filter((d) => days.includes(new Date(dayStartMs(d)).getUTCDay() as never));
  }
  const month = start.getUTCMonth() + k * rule.interval;
  const year = start.getUTCFullYear() + Math.floor(month / 12);
  const m = ((month % 12) + 12) % 12;
  const length = new Date(Date.UTC(year, m + 1, 0)).getUTCDate();
  const all = Array.from({ length }, (_, i) => isoDate(Date.UTC(year, m, i + 1)));
  // BYDAY expands to those weekdays of the month; BYMONTHDAY (negative: from the end) selects or limits;
  // neither: the start's day of the month (a month without it has no occurrence)
  const byMonthDay = (d: string) => {
    const day = Number(d.slice(8));
    return rule.bymonthday.some((n) => (n > 0 ? n === day : length + 1 + n === day));
  };
  if (weekdays.length) return all.filter((d) => weekdays.includes(new Date(dayStartMs(d)).getUTCDay() as never) && (!rule.bymonthday.length || byMonthDay(d)));
  if (rule.bymonthday.length) return all.filter(byMonthDay);
  return all.filter((d) => Number(d.slice(8)) === start.getUTCDate());
}

/** The first period with a date on or after `lo`: every period before it ends before `lo` (arithmetic, no expansion). */
function firstPeriod(rule: ParsedRrule, dtstart: string, lo: string): number {
  if (lo <= dtstart) return 0;
  const start = new Date(dayStartMs(dtstart));
  if (rule.freq === 'DAILY') return Math.floor(daysBetween(dtstart, lo) / rule.interval);
  if (rule.freq === 'WEEKLY') return Math.floor(daysBetween(addDays(dtstart, -((start.getUTCDay() + 6) % 7)), lo) / (7 * rule.interval));
  const end = new Date(dayStartMs(lo));
  const months = (end.getUTCFullYear() - start.getUTCFullYear()) * 12 + end.getUTCMonth() - start.getUTCMonth();
  return Math.floor(months / rule.interval);
}

/**
 * The occurrences of a parsed rule from its start `dtstart` that fall in [lo, hi]: each period in turn
 * (every INTERVAL days, weeks or months), its dates on or after the start, BYDAY also limiting a daily
 * rule; UNTIL is inclusive. Expansion starts at the window's first period, so its cost follows the
 * window. COUNT counts from the start: with its last date known (`end`, derived when the timing was
 * written) it is an UNTIL; without, the rule is expanded from its start (at most COUNT occurrences).
 */
function expand(rule: ParsedRrule, dtstart: string, lo: string, hi: string, end: string | null): string[] {
  const weekdays = rule.byday.map((d) => WEEKDAYS[d]);
  const counted = rule.count !== null && end === null;
  const until = rule.count !== null ? end : rule.until;
  const last = until !== null && until < hi ? until : hi;
  const out: string[] = [];
  let produced = 0;
  const first = counted ? 0 : firstPeriod(rule, dtstart, lo);
  for (let k = first; k < first + 100_000; k++) {
    const dates = periodDates(rule, dtstart, k);
    expansionCounter.dates += dates.length;
    if (dates.length && dates[0]! > last) break;
    for (const d of dates) {
      if (d < dtstart || d > last) continue;
      if (rule.freq === 'DAILY' && weekdays.length && !weekdays.includes(new Date(dayStartMs(d)).getUTCDay() as never)) continue;
      if (rule.freq === 'DAILY' && rule.bymonthday.length && !periodDates({ ...rule, freq: 'MONTHLY', byday: [], interval: 1 }, d, 0).includes(d)) continue;
      produced += 1;
      if (counted && produced > rule.count!) return out;
      if (d >= lo) out.push(d);
      if (out.length >= MAX_OCCURRENCES) return out;
    }
    // a month without the wanted day has no dates: keep going (its next month may), up to the end
    if (!dates.length && (rule.freq !== 'MONTHLY' || monthStart(dtstart, k * rule.interval) > last)) break;
  }
  return out;
}

/**
 * What an occurrence computation needs beyond the timing, copied onto the schedule when it is written:
 * the date its cycle's ages count from (for `ageDays`: ../age.ts) and the last date of a COUNT rule.
 */
export interface OccurrenceBasis {
  placementDate: string | null;
  lastOccurrence?: string | null;
}

/**
 * The occurrences of a timing between `from` and `to` (inclusive), in date order. Every kind goes
 * straight to the first occurrence on or after `from` (arithmetic), so the work follows the window.
 */
export function occurrencesBetween(timing: ScheduleTiming, from: string, to: string, basis: OccurrenceBasis): string[] {
  if (from > to) return [];
  if ('once' in timing) {
    expansionCounter.dates += 1;
    return timing.once >= from && timing.once <= to ? [timing.once] : [];
  }
  if ('ageDays' in timing) {
    if (!basis.placementDate) return [];
    const placed = basis.placementDate;
    const [youngest, oldest] = [daysBetween(placed, from), daysBetween(placed, to)];
    const ages = [...new Set(timing.ageDays)].filter((age) => age >= youngest && age <= oldest).sort((a, b) => a - b);
    expansionCounter.dates += ages.length;
    return ages.map((age) => addDays(placed, age));
  }
  if ('every' in timing) {
    const step = timing.every * (timing.unit === 'week' ? 7 : 1);
    const last = timing.until && timing.until < to ? timing.until : to;
    const start = timing.from >= from ? 0 : Math.ceil(daysBetween(timing.from, from) / step);
    const out: string[] = [];
    for (let k = start; out.length < MAX_OCCURRENCES; k++) {
      const d = addDays(timing.from, k * step);
      expansionCounter.dates += 1;
      if (d > last) break;
      out.push(d);
    }
    return out;
  }
  const parsed = parseRrule(timing.rrule);
  if ('problems' in parsed) return [];
  return expand(parsed.rule, timing.from, from, to, basis.lastOccurrence ?? null);
}

/**
 * The last occurrence of a COUNT rule (null for every other timing), derived when the timing is written
 * so that reading it later never counts from the start; undefined when COUNT is not reached within
 * COUNT_SPAN_DAYS of `from`.
 */
export function lastOccurrenceOf(timing: ScheduleTiming): string | null | undefined {
  if (!('rrule' in timing)) return null;
  const parsed = parseRrule(timing.rrule);
  if ('problems' in parsed || parsed.rule.count === null) return null;
  const dates = expand(parsed.rule, timing.from, timing.from, addDays(timing.from, COUNT_SPAN_DAYS), null);
  return dates.length === parsed.rule.count ? dates[dates.length - 1]! : undefined;
}

/**
 * The schedule as its occurrences are computed: an `ageDays` timing counts from its cycle's CURRENT age
 * origin (birds placed after the schedule was written move it from the start date to the placement); the
 * copy taken when the schedule was written stands in when the cycle was not read (or no longer exists).
 */
export function withAgeOrigin<S extends OccurrenceBasis & { timing: ScheduleTiming }>(s: S, cycle: AgeBasis | undefined): S {
  if (!cycle || !('ageDays' in s.timing)) return s;
  const placementDate = ageOrigin(cycle).date;
  return placementDate === s.placementDate ? s : { ...s, placementDate };
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
    if (lastOccurrenceOf(timing) === undefined)
      return [{ field: 'timing.rrule', message: `COUNT=${parsed.rule.count} is not reached within 10 years of timing.from: give a smaller COUNT or an UNTIL` }];
  }
  if ('ageDays' in timing && !hasCycle) return [{ field: 'cycleId', message: 'is required by an ageDays timing (ages count from the cycle’s placement)' }];
  return [];
}

/**
 * A timing being written may not start more than TIMING_FROM_HORIZON_DAYS before `today`: a start decades
 * back is a typing error (and nothing a farm's agenda needs).
 */
export function timingStartProblems(timing: ScheduleTiming, today: string): FieldError[] {
  const earliest = addDays(today, -TIMING_FROM_HORIZON_DAYS);
  if ('from' in timing && timing.from < earliest)
    return [{ field: 'timing.from', message: `must be on or after ${earliest} (at most ${TIMING_FROM_HORIZON_DAYS} days, 3 years, before today)` }];
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

/** Why an occurrence takes no second completion or skip: the outcome it has (when known). */
export const occurrenceTaken = (scheduleId: string, date: string, outcome?: OccurrenceOutcome): string =>
  `The occurrence of ${date} of schedule ${scheduleId} is already ${outcome ? (outcome.status === 'done' ? 'completed' : 'skipped') : 'completed or skipped'}`;

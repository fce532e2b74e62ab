/**
 * A farm's readiness for an outage (pure): days of feed left and whether its drills are up to date.
 * Sources and choices: docs/decisions.md, "Continuity".
 */
import type { DrillKind } from '../../../schemas/continuity.js';
import { FEED_LEFT_MIN_DAYS } from '../rules/defaults.js';
import { addDays, daysBetween } from '../../platform/calendar.js';

/** How often each drill is due. Generator: weekly, 30–60 minutes under load (Mississippi State University Extension, IS1952). */
export const DRILL_INTERVAL_DAYS: Record<DrillKind, number> = { generator: 7, alarm: 30, fire: 365 };
export const DRILL_SOURCES: Record<DrillKind, string> = {
  generator: 'Mississippi State University Extension IS1952: test standby generators weekly, 30–60 minutes under load',
  alarm: 'Flockwise default: monthly test of the alarm chain (a choice, see docs/decisions.md)',
  fire: 'Flockwise default: yearly fire drill (a choice, see docs/decisions.md)',
};
/** Fewer days of feed than this is low: the threshold of the default "Feed running out" rule. */
export const LOW_FEED_DAYS = FEED_LEFT_MIN_DAYS;

export interface DrillFact {
  kind: DrillKind;
  date: string;
  result: 'passed' | 'partial' | 'failed';
}

/**
 * Where a kind of drill stands on `today` (the one definition of "due", read by the readiness report and
 * by the alarm rules): the last drill that ran (passed or partial; a failed drill does not reset the clock)
 * and the day the next is due, one interval after it. Never run: due one interval after `since` (the day
 * the farm was created: a new farm has one interval to run its first drill); without `since`, overdue.
 * `daysOverdue` counts the days past the due date (0 while not overdue; null when never run and no `since`).
 */
export function drillStatus(kind: DrillKind, drills: readonly DrillFact[], today: string, since?: string | null) {
  const everyDays = DRILL_INTERVAL_DAYS[kind];
  const ran = drills.filter((d) => d.kind === kind && d.date <= today).sort((a, b) => b.date.localeCompare(a.date));
  const counted = ran.find((d) => d.result !== 'failed');
  const from = counted?.date ?? (since ? since.slice(0, 10) : null);
  const dueDate = from ? addDays(from, everyDays) : null;
  return {
    kind,
    everyDays,
    lastDate: ran[0]?.date ?? null,
    lastResult: ran[0]?.result ?? null,
    dueDate,
    overdue: dueDate === null || dueDate < today,
    daysOverdue: dueDate === null ? null : Math.max(0, daysBetween(dueDate, today)),
    source: DRILL_SOURCES[kind],
  };
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Days of feed: stock ÷ mean daily consumption of the trailing days given (null without consumption). */
export function feedDays(stockKg: number, dailyConsumptionKg: readonly number[]) {
  const total = dailyConsumptionKg.reduce((a, b) => a + b, 0);
  const daily = dailyConsumptionKg.length ? total / dailyConsumptionKg.length : 0;
  const daysLeft = daily > 0 ? round(stockKg / daily, 1) : null;
  return {
    stockKg: round(stockKg, 3),
    dailyConsumptionKg: daily > 0 ? round(daily, 3) : null,
    daysLeft,
    low: daysLeft !== null && daysLeft < LOW_FEED_DAYS,
  };
}

/** Days the declared water reserve lasts at the trailing consumption (informational: a tank holds a day or two by design). */
export function waterDays(reserveLiters: number | null, dailyConsumptionLiters: readonly number[]) {
  if (reserveLiters === null) return { reserveLiters: null, dailyConsumptionLiters: null, daysLeft: null, note: 'no water reserve declared for this farm' };
  const total = dailyConsumptionLiters.reduce((a, b) => a + b, 0);
  const daily = dailyConsumptionLiters.length ? total / dailyConsumptionLiters.length : 0;
  return {
    reserveLiters,
    dailyConsumptionLiters: daily > 0 ? round(daily, 3) : null,
    daysLeft: daily > 0 ? round(reserveLiters / daily, 1) : null,
    note: null,
  };
}

/** The trailing complete days before `today` (yesterday first). */
export const trailingDays = (today: string, n = 3): string[] => Array.from({ length: n }, (_, i) => addDays(today, -(i + 1)));

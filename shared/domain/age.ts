/**
 * The one rule of a cycle's bird age: it counts from the birds' HATCH DATE when known, else from their
 * PLACEMENT (the date of the cycle's earliest bird_inflow still recorded), else from the cycle's START
 * DATE (a cycle with no birds placed yet). Never from bookkeeping alone: a cycle started early to book
 * feed does not age its birds. Age 0 is the origin's own date; an age is never negative.
 *
 * The placement is kept on the cycle record by the ledger (`placedByDate.<date>` counters, ./ledger.ts),
 * so a read of the record alone knows it; a cycle whose inflows were all recorded before the record kept
 * them has no placement date and counts from its start date, as before.
 */
import { addDays, daysBetween } from '../platform/calendar.js';

/** What a cycle's age is decided on: its hatch date, its first placement (when any), its start date. */
export interface AgeBasis {
  startDate: string;
  hatchDate?: string | null;
  /** The date of the cycle's first bird_inflow (null or absent: none recorded, or recorded before it was kept). */
  placedOn?: string | null;
}

/** Where a cycle's age counts from, and which rule gave it. */
export interface AgeOrigin {
  date: string;
  from: 'hatch_date' | 'placement' | 'start_date';
}

export function ageOrigin(c: AgeBasis): AgeOrigin {
  if (c.hatchDate) return { date: c.hatchDate, from: 'hatch_date' };
  if (c.placedOn) return { date: c.placedOn, from: 'placement' };
  return { date: c.startDate, from: 'start_date' };
}

/** The birds' age in days on `date` (0 on the origin's date, never negative). */
export const ageOn = (c: AgeBasis, date: string): number => Math.max(0, daysBetween(ageOrigin(c).date, date));

/** The date the birds are `ageDays` old. */
export const dateOfAge = (c: AgeBasis, ageDays: number): string => addDays(ageOrigin(c).date, ageDays);

/** The prefix of the cycle record's per-date placement counters (`placedByDate.2026-05-04`: birds placed that day, net of edits). */
export const PLACED_BY_DATE = 'placedByDate';

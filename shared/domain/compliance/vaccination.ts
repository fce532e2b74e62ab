/**
 * Vaccination adherence (docs/domain.md, "Compliance"): each occurrence of a cycle's vaccination schedules
 * up to the farm's today, judged by its stored outcome. A completion records the farm-local day the task
 * was done (`doneOn`: the day named when it was back-filled, else the day it was recorded); a completion
 * stored before that field counts for the date of its instant (`at`, UTC) on the farm's clock. That day is
 * compared with the occurrence's own farm-local date:
 * - on_time: completed on its date (or, after a change of the farm's time zone, before it);
 * - late: completed on a later date (`daysLate` > 0);
 * - skipped: a recorded decision not to give it, with its reason (not given, but on record);
 * - missed: its date is before today and it has no outcome at all (neither the vaccination nor the
 *   decision not to give it is on record);
 * - due: today's occurrence not yet completed (no finding: the day is not over).
 */
import { daysBetween } from '../../platform/calendar.js';

export type AdherenceStatus = 'on_time' | 'late' | 'skipped' | 'missed' | 'due';

export interface VaccinationOccurrence {
  scheduleId: string;
  title: string;
  vaccine: string | null;
  method: string | null;
  /** The programme template the schedule was applied from, if any. */
  programme: { id: string; step: string } | null;
  /** The occurrence's farm-local date. */
  date: string;
  outcome: { status: 'done' | 'skipped'; at: string; by: string; reason: string | null; movementId: string | null; doneOn?: string | null } | null;
}

export interface Adherence {
  status: AdherenceStatus;
  /** The farm-local date the task was done on (done only). */
  doneOn: string | null;
  /** Days after its date the task was done (done only; 0 on time). */
  daysLate: number | null;
}

/** How one occurrence was kept; `localDateOf` turns the instant of a completion stored without `doneOn` into a farm-local date. */
export function adherenceOf(o: VaccinationOccurrence, today: string, localDateOf: (iso: string) => string): Adherence {
  if (o.outcome?.status === 'done') {
    const doneOn = o.outcome.doneOn ?? localDateOf(o.outcome.at);
    const daysLate = Math.max(0, daysBetween(o.date, doneOn));
    return { status: daysLate > 0 ? 'late' : 'on_time', doneOn, daysLate };
  }
  if (o.outcome?.status === 'skipped') return { status: 'skipped', doneOn: null, daysLate: null };
  return { status: o.date < today ? 'missed' : 'due', doneOn: null, daysLate: null };
}

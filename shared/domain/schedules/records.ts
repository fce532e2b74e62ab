import type { ScheduleDetails, ScheduleKind, ScheduleTiming } from '../../../schemas/schedules.js';

/**
 * A schedule as stored (shared/db/schedules.ts keys it and lists it per farm): a task with a timing whose
 * occurrences are computed, never stored ahead.
 */
export interface ScheduleRecord {
  id: string;
  farmId: string;
  houseId: string | null;
  flockId: string | null;
  cycleId: string | null;
  kind: ScheduleKind;
  title: string;
  details: ScheduleDetails;
  timing: ScheduleTiming;
  assignee: string | null;
  /**
   * The date its cycle's ages count from (hatch, else first placement, else start: ../age.ts), copied when the
   * schedule is written; reads take the cycle's current one (`withAgeOrigin`), this copy when the cycle is not read.
   */
  placementDate: string | null;
  /** The last occurrence of a COUNT rule, derived when the timing is written (null for any other timing, and on schedules from before it). */
  lastOccurrence: string | null;
  programme: { id: string; step: string } | null;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** The outcome of one occurrence: completed or skipped, once. */
export interface OutcomeRecord {
  scheduleId: string;
  date: string;
  status: 'done' | 'skipped';
  at: string;
  by: string;
  notes: string | null;
  reason: string | null;
  movementId: string | null;
  weighingId: string | null;
  /**
   * A completion: the farm-local day the task was done (the body's `doneOn`, else the farm's today when it was
   * recorded); null for a skip and for completions stored before the field existed (their day is `at`'s).
   */
  doneOn: string | null;
}

/** The schedule as answered (and as audited when it is created or deleted). */
export function toScheduleDto(s: ScheduleRecord) {
  return {
    id: s.id,
    farmId: s.farmId,
    houseId: s.houseId,
    flockId: s.flockId,
    cycleId: s.cycleId,
    kind: s.kind,
    title: s.title,
    details: s.details,
    timing: s.timing,
    assignee: s.assignee,
    programme: s.programme,
    createdBy: s.createdBy,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    version: s.version,
  };
}

import { ulid } from 'ulidx';
import { Conflict, ValidationFailed, type FieldError } from '../../errors.js';
import { isoDate } from '../../platform/calendar.js';
import type { Caller } from '../caller.js';
import { diff } from '../changes.js';
import { type AuditEvent, type RecordChange, type ResourceChange, upsertOf, deleteOf } from '../decision.js';
import { assigneeOrThrow, cycleNotFound, flockNotFound, houseNotFound } from '../references.js';
import { detailsProblems, lastOccurrenceOf, timingProblems, timingStartProblems } from './occurrences.js';
import { toScheduleDto, type ScheduleRecord } from './records.js';
import type { CreateScheduleBody, UpdateScheduleBody } from '../../../schemas/schedules.js';
import { ageOrigin, type AgeBasis } from '../age.js';

/**
 * Schedules, decided without I/O: a new schedule, an edit and a deletion, each placed in its farm (house,
 * flock, cycle, assignee) and kept within the farm's cap.
 */

/**
 * The schedules a farm keeps at most (409 past it): a farm keeps tens, a programme applied to a cycle
 * writes about ten, and every schedule costs each agenda and worker dashboard of the farm a little.
 */
export const MAX_SCHEDULES_PER_FARM = 500;

/** Where a schedule is placed in its farm. */
export interface Placement {
  houseId: string | null;
  flockId: string | null;
  cycleId: string | null;
  assignee: string | null;
}

/** The records a placement names, as read (undefined: not named, or missing). */
export interface PlacementFacts {
  house?: object | undefined;
  flock?: { farmId: string } | undefined;
  cycle?: ({ farmId: string } & AgeBasis) | undefined;
  assignee?: { role: string; farmIds: readonly string[] } | undefined;
}

type Checked = Pick<ScheduleRecord, 'kind' | 'details' | 'timing' | 'cycleId' | 'flockId'>;

/**
 * What a schedule's kind, details and timing must say together (a timing being written, on `today` (UTC),
 * starts within the horizon), then a cycle needs its flock: the 400s, before anything is read.
 */
export function scheduleOrThrow(s: Checked, written: { today: string } | undefined): void {
  const problems: FieldError[] = [
    ...detailsProblems(s.kind, s.details),
    ...timingProblems(s.timing, s.cycleId !== null),
    ...(written ? timingStartProblems(s.timing, written.today) : []),
  ];
  if ((s.kind === 'vaccination' || s.kind === 'medication') && !s.cycleId)
    problems.push({ field: 'cycleId', message: `is required for a ${s.kind} schedule (completing it writes the ${s.kind} movement into the cycle)` });
  if (problems.length) throw new ValidationFailed(problems);
  placementShapeOrThrow(s);
}

/** A cycle belongs to its flock: a placement naming one names the other. */
export function placementShapeOrThrow(p: Pick<Placement, 'cycleId' | 'flockId'>): void {
  if (p.cycleId && !p.flockId) throw new ValidationFailed([{ field: 'flockId', message: 'is required with cycleId (a cycle belongs to its flock)' }]);
}

/**
 * The house, flock, cycle and assignee must belong to the farm (a record of another farm, like one that
 * does not exist, is the 404 of a missing one, naming the id). Answers the date the cycle's ages count from
 * (its hatch date, else its first placement, else its start: ../age.ts).
 */
export function placeOrThrow(farmId: string, p: Placement, found: PlacementFacts): { placementDate: string | null } {
  placementShapeOrThrow(p);
  if (p.houseId && !found.house) throw houseNotFound(p.houseId);
  if (p.flockId && found.flock?.farmId !== farmId) throw flockNotFound(p.flockId);
  if (p.flockId && p.cycleId && found.cycle?.farmId !== farmId) throw cycleNotFound(p.flockId, p.cycleId);
  assigneeOrThrow(farmId, p.assignee, found.assignee);
  return { placementDate: p.flockId && p.cycleId && found.cycle ? ageOrigin(found.cycle).date : null };
}

/** The placement a create body names. */
export const placementOf = (body: Pick<CreateScheduleBody, 'houseId' | 'flockId' | 'cycleId' | 'assignee'>): Placement => ({
  houseId: body.houseId ?? null,
  flockId: body.flockId ?? null,
  cycleId: body.cycleId ?? null,
  assignee: body.assignee ?? null,
});

export const upserted = (s: Pick<ScheduleRecord, 'id' | 'version' | 'farmId'>): ResourceChange => upsertOf('schedule', s);

/** A new schedule of `farmId` (the caller's; the farm's cap is the commit's). */
export function decideScheduleCreate(caller: Caller, farmId: string, body: CreateScheduleBody, found: PlacementFacts, now: Date) {
  const placement = placementOf(body);
  const details = body.details ?? {};
  scheduleOrThrow({ kind: body.kind, details, timing: body.timing, ...placement }, { today: isoDate(now) });
  const { placementDate } = placeOrThrow(farmId, placement, found);
  const at = now.toISOString();
  const schedule: ScheduleRecord = {
    id: ulid(),
    farmId,
    ...placement,
    kind: body.kind,
    title: body.title.trim(),
    details,
    timing: body.timing,
    placementDate,
    lastOccurrence: lastOccurrenceOf(body.timing) ?? null,
    programme: null,
    createdBy: caller.id,
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
  const audit: AuditEvent[] = [{ action: 'schedule.create', targetType: 'schedule', targetId: schedule.id, changes: toScheduleDto(schedule) }];
  return { schedule, audit, changes: [upserted(schedule)] };
}

const EDITABLE = ['houseId', 'flockId', 'cycleId', 'assignee', 'title', 'details', 'timing'] as const;

/** The schedule as a body edits it, and the fields that differ (none: nothing to write). */
export function scheduleEdit(current: ScheduleRecord, body: UpdateScheduleBody) {
  const next: ScheduleRecord = {
    ...current,
    ...(body.houseId !== undefined ? { houseId: body.houseId } : {}),
    ...(body.flockId !== undefined ? { flockId: body.flockId } : {}),
    ...(body.cycleId !== undefined ? { cycleId: body.cycleId } : {}),
    ...(body.assignee !== undefined ? { assignee: body.assignee } : {}),
    ...(body.title !== undefined ? { title: body.title.trim() } : {}),
    ...(body.details !== undefined ? { details: body.details } : {}),
    ...(body.timing !== undefined ? { timing: body.timing } : {}),
  };
  return { next, changes: diff(current, next, EDITABLE) };
}

/** What an edit writes must hold: a new timing starts within the horizon (`now`'s UTC date), the rest as on a create. */
export function editOrThrow(edit: ReturnType<typeof scheduleEdit>, now: Date): void {
  scheduleOrThrow(edit.next, 'timing' in edit.changes ? { today: isoDate(now) } : undefined);
}

/**
 * An edit (its version already compared): the fields that differ, with the placement date and the last
 * occurrence derived again. No field differs: nothing to write (`unchanged(change)`).
 */
export function decideScheduleUpdate(current: ScheduleRecord, body: UpdateScheduleBody, found: PlacementFacts, now: Date) {
  const edit = scheduleEdit(current, body);
  const { changes } = edit;
  if (Object.keys(changes).length > 0) editOrThrow(edit, now);
  const { placementDate } = Object.keys(changes).length > 0 ? placeOrThrow(current.farmId, edit.next, found) : current;
  const lastOccurrence = lastOccurrenceOf(edit.next.timing) ?? null;
  const fields: Partial<ScheduleRecord> = {
    ...Object.fromEntries(Object.keys(changes).map((f) => [f, edit.next[f as keyof ScheduleRecord]])),
    placementDate,
    lastOccurrence,
  };
  const next: ScheduleRecord = { ...edit.next, placementDate, lastOccurrence, updatedAt: now.toISOString(), version: current.version + 1 };
  const change: RecordChange<ScheduleRecord> = { current, next, fields, changes };
  return {
    change,
    audit: [{ action: 'schedule.update', targetType: 'schedule', targetId: current.id, changes }] as AuditEvent[],
    changes: [upserted(next)],
  };
}

/** Deleting a schedule (its version already compared; its stored outcomes stay: they are the record of what was done). */
export function decideScheduleRemoval(current: ScheduleRecord) {
  return {
    audit: [{ action: 'schedule.delete', targetType: 'schedule', targetId: current.id, changes: toScheduleDto(current) }] as AuditEvent[],
    changes: [deleteOf('schedule', current)],
  };
}

/** `n` more schedules must keep a farm that has `count` within MAX_SCHEDULES_PER_FARM (409 naming both). */
export function withinCapOrThrow(farmId: string, count: number, n: number): void {
  if (count + n > MAX_SCHEDULES_PER_FARM)
    throw new Conflict(
      `Farm ${farmId} has ${count} schedules and keeps at most ${MAX_SCHEDULES_PER_FARM}: delete some (those of ended cycles) before adding ${n} more`,
    );
}

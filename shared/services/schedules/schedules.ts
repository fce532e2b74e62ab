import { ulid } from 'ulidx';
import { checkVersion, commit, type CommitContext, type Plan, type Write } from '../../db/commit.js';
import { getCycle, type CycleRecord } from '../../db/cycles.js';
import { getHouse, houseNotFound } from '../../db/farms.js';
import { getFlock } from '../../db/flocks.js';
import {
  CounterRefused,
  countSchedulesOfFarm,
  getSchedule,
  listSchedulesOfFarm,
  scheduleCount,
  scheduleCounterWrites,
  scheduleNotFound,
  scheduleVersion,
  scheduleWrites,
  type ScheduleRecord,
} from '../../db/schedules.js';
import { getUser } from '../../db/users.js';
import type { Caller } from '../../domain/caller.js';
import { diff } from '../../domain/changes.js';
import type { CommandContext } from '../../domain/command.js';
import { visibleTo } from '../../domain/farm-access.js';
import { detailsProblems, lastOccurrenceOf, timingProblems, timingStartProblems } from '../../domain/schedules/occurrences.js';
import { isoDate } from '../../platform/calendar.js';
import { Conflict, ValidationFailed, type FieldError } from '../../errors.js';
import { farmOfListRequest, farmOfRequest } from '../farms.js';
import { idempotentCommand } from '../idempotency.js';
import { cycleNotFound, flockNotFound, userNotFound } from '../references.js';
import type { CreateScheduleBody, ListSchedulesQuery, UpdateScheduleBody } from '../../../schemas/schedules.js';

/**
 * Schedules (`/api/v1/schedules`): tasks with a timing whose occurrences are computed on the farm's
 * calendar (./agenda.ts); only completions and skips are stored (./occurrences.ts). Scoped to the caller's
 * farms: a schedule of another farm does not exist for the caller.
 */

/**
 * The schedules a farm keeps at most (409 past it): a farm keeps tens, a programme applied to a cycle
 * writes about ten, and every schedule costs each agenda and worker dashboard of the farm a little.
 */
export const MAX_SCHEDULES_PER_FARM = 500;

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

export const visibleSchedule = async (user: Caller, id: string): Promise<ScheduleRecord> => visibleTo(user, await getSchedule(id), () => scheduleNotFound(id));

export const scheduleDtoFor = async (user: Caller, id: string) => toScheduleDto(await visibleSchedule(user, id));

export interface Placement {
  houseId: string | null;
  flockId: string | null;
  cycleId: string | null;
  assignee: string | null;
}

/**
 * The house, flock, cycle and assignee must belong to the farm (a record of another farm, like one that
 * does not exist, is the 404 of a missing one, naming the id); a cycle needs its flock. Answers the cycle's
 * placement date.
 */
export async function placementOrThrow(farmId: string, p: Placement): Promise<{ placementDate: string | null; cycle: CycleRecord | undefined }> {
  if (p.cycleId && !p.flockId) throw new ValidationFailed([{ field: 'flockId', message: 'is required with cycleId (a cycle belongs to its flock)' }]);
  const [house, flock, cycle, assignee] = await Promise.all([
    p.houseId ? getHouse(farmId, p.houseId) : undefined,
    p.flockId ? getFlock(p.flockId) : undefined,
    p.flockId && p.cycleId ? getCycle(p.flockId, p.cycleId) : undefined,
    p.assignee ? getUser(p.assignee) : undefined,
  ]);
  if (p.houseId && !house) throw houseNotFound(p.houseId);
  if (p.flockId && flock?.farmId !== farmId) throw flockNotFound(p.flockId);
  if (p.flockId && p.cycleId && cycle?.farmId !== farmId) throw cycleNotFound(p.flockId, p.cycleId);
  if (p.assignee && (!assignee || !(assignee.role === 'admin' || assignee.farmIds.includes(farmId)))) throw userNotFound(p.assignee);
  return { placementDate: cycle?.startDate ?? null, cycle };
}

/** What a schedule's kind, details and timing must say together; a timing being written (`today`: UTC) starts within the horizon. */
function scheduleProblems(s: Pick<ScheduleRecord, 'kind' | 'details' | 'timing' | 'cycleId'>, written: { today: string } | undefined): FieldError[] {
  const problems = [
    ...detailsProblems(s.kind, s.details),
    ...timingProblems(s.timing, s.cycleId !== null),
    ...(written ? timingStartProblems(s.timing, written.today) : []),
  ];
  if ((s.kind === 'vaccination' || s.kind === 'medication') && !s.cycleId)
    problems.push({ field: 'cycleId', message: `is required for a ${s.kind} schedule (completing it writes the ${s.kind} movement into the cycle)` });
  return problems;
}

/**
 * Commits new schedules of a farm within its cap: the farm exists, the schedules are new, and the farm's
 * counter takes `schedules.length` more only while it stays within MAX_SCHEDULES_PER_FARM (so concurrent
 * creates cannot pass the cap together). When the counter refuses (the count moved, or the farm has no
 * counter yet: a new or restored farm, or one from before the counter), it is read after deciding, and the
 * same plan is committed again on what it says; a farm without a counter has its schedules counted once,
 * and the counter is created on that count (a concurrent first create retries on the counter the other made).
 */
export async function commitWithinCap(ctx: CommitContext, schedules: ScheduleRecord[], plan: Omit<Plan, 'writes'>): Promise<void> {
  const farmId = schedules[0]!.farmId;
  const n = schedules.length;
  const writes = (counter: Write) => [scheduleWrites.farmExists(farmId), counter, ...schedules.map(scheduleWrites.create)];
  let counted: number | undefined;
  for (let attempt = 0; attempt < 4; attempt++) {
    const counter = counted === undefined ? scheduleCounterWrites.add(farmId, n, MAX_SCHEDULES_PER_FARM) : scheduleCounterWrites.start(farmId, counted + n);
    try {
      await commit(ctx, { ...plan, writes: writes(counter) });
      return;
    } catch (err) {
      if (!(err instanceof CounterRefused)) throw err;
    }
    const stored = await scheduleCount(farmId);
    counted = stored === undefined ? await countSchedulesOfFarm(farmId) : undefined;
    const count = stored ?? counted!;
    if (count + n > MAX_SCHEDULES_PER_FARM)
      throw new Conflict(
        `Farm ${farmId} has ${count} schedules and keeps at most ${MAX_SCHEDULES_PER_FARM}: delete some (those of ended cycles) before adding ${n} more`,
      );
  }
  throw new Conflict(`The schedules of farm ${farmId} were changed by concurrent requests; retry`);
}

export async function createScheduleFor(ctx: CommandContext, body: CreateScheduleBody) {
  const farmId = farmOfRequest(ctx.caller, body.farmId);
  return idempotentCommand(ctx, `schedule:${farmId}`, body, async (ctx) => {
    const placement: Placement = {
      houseId: body.houseId ?? null,
      flockId: body.flockId ?? null,
      cycleId: body.cycleId ?? null,
      assignee: body.assignee ?? null,
    };
    const details = body.details ?? {};
    const problems = scheduleProblems({ kind: body.kind, details, timing: body.timing, cycleId: placement.cycleId }, { today: isoDate(ctx.now) });
    if (problems.length) throw new ValidationFailed(problems);
    const { placementDate } = await placementOrThrow(farmId, placement);
    const now = ctx.now.toISOString();
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
      createdBy: ctx.caller.id,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    const response = { created: true, message: 'Schedule created', data: toScheduleDto(schedule) };
    await commitWithinCap(ctx, [schedule], {
      audit: [{ action: 'schedule.create', targetType: 'schedule', targetId: schedule.id, changes: toScheduleDto(schedule) }],
      changes: [{ type: 'schedule', id: schedule.id, op: 'upsert', version: 1 }],
      response,
    });
    return response;
  });
}

export async function listSchedulesFor(user: Caller, query: ListSchedulesQuery) {
  const { kind, houseId, flockId, cycleId, assignee } = query;
  const farmId = await farmOfListRequest(user, query.farmId, { flockId, cycleId, houseId });
  const limit = query.limit ?? 25;
  const page = await listSchedulesOfFarm(farmId, { kind, houseId, flockId, cycleId, assignee }, { limit, cursor: query.cursor });
  return { items: page.items.map(toScheduleDto), limit, nextCursor: page.nextCursor };
}

const EDITABLE = ['houseId', 'flockId', 'cycleId', 'assignee', 'title', 'details', 'timing'] as const;

export async function updateScheduleFor(ctx: CommandContext, id: string, body: UpdateScheduleBody) {
  const current = await visibleSchedule(ctx.caller, id);
  // the version first: a stale one is answered as such whatever else is wrong with the change
  checkVersion(ctx, scheduleVersion(current, body.version));
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
  const changes = diff(current, next, EDITABLE);
  if (Object.keys(changes).length === 0) return toScheduleDto(current);
  const problems = scheduleProblems(next, 'timing' in changes ? { today: isoDate(ctx.now) } : undefined);
  if (problems.length) throw new ValidationFailed(problems);
  const { placementDate } = await placementOrThrow(current.farmId, next);
  const lastOccurrence = lastOccurrenceOf(next.timing) ?? null;
  const fields: Partial<ScheduleRecord> = {
    ...Object.fromEntries(Object.keys(changes).map((f) => [f, next[f as keyof ScheduleRecord]])),
    placementDate,
    lastOccurrence,
  };
  await commit(ctx, {
    writes: [scheduleWrites.update(current, fields, body.version)],
    audit: [{ action: 'schedule.update', targetType: 'schedule', targetId: id, changes }],
    changes: [{ type: 'schedule', id, op: 'upsert', version: current.version + 1 }],
  });
  return toScheduleDto({ ...next, placementDate, lastOccurrence, updatedAt: ctx.now.toISOString(), version: current.version + 1 });
}

/**
 * Deletes the schedule at its version, one less on the farm's counter (its stored outcomes stay: they are
 * the record of what was done).
 */
export async function deleteScheduleFor(ctx: CommandContext, id: string): Promise<void> {
  const current = await visibleSchedule(ctx.caller, id);
  checkVersion(ctx, scheduleVersion(current));
  const remove = scheduleWrites.delete(current);
  const plan = {
    audit: [{ action: 'schedule.delete', targetType: 'schedule', targetId: id, changes: toScheduleDto(current) }],
    changes: [{ type: 'schedule', id, op: 'delete' as const }],
  };
  try {
    await commit(ctx, { ...plan, writes: [remove, scheduleCounterWrites.remove(current.farmId)] });
  } catch (err) {
    if (!(err instanceof CounterRefused)) throw err;
    // a farm without a counter yet: there is nothing to take one off (its schedules are counted when the counter is created)
    await commit(ctx, { ...plan, writes: [remove] });
  }
}

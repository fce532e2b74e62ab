import { checkVersion, commit, type CommitContext, type Plan, type Write } from '../../db/commit.js';
import { getCycle } from '../../db/cycles.js';
import type { CycleRecord } from '../../domain/flocks/records.js';
import { getHouse } from '../../db/farms.js';
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
} from '../../db/schedules.js';
import { getUser } from '../../db/users.js';
import type { Caller } from '../../domain/caller.js';
import type { CommandContext } from '../../domain/command.js';
import { unchanged } from '../../domain/decision.js';
import { visibleTo } from '../../domain/farm-access.js';
import {
  decideScheduleCreate,
  decideScheduleRemoval,
  decideScheduleUpdate,
  editOrThrow,
  MAX_SCHEDULES_PER_FARM,
  placeOrThrow,
  placementOf,
  placementShapeOrThrow,
  scheduleEdit,
  scheduleOrThrow,
  withinCapOrThrow,
  type Placement,
  type PlacementFacts,
} from '../../domain/schedules/decisions.js';
import { toScheduleDto, type ScheduleRecord } from '../../domain/schedules/records.js';
import { isoDate } from '../../platform/calendar.js';
import { Conflict } from '../../errors.js';
import { farmOfListRequest, farmOfRequest } from '../farms.js';
import { idempotentCommand } from '../idempotency.js';
import type { CreateScheduleBody, ListSchedulesQuery, UpdateScheduleBody } from '../../../schemas/schedules.js';

/**
 * Schedules (`/api/v1/schedules`): tasks with a timing whose occurrences are computed on the farm's
 * calendar (./agenda.ts); only completions and skips are stored (./occurrences.ts). Scoped to the caller's
 * farms: a schedule of another farm does not exist for the caller. Decided in
 * shared/domain/schedules/decisions.ts.
 */

export const visibleSchedule = async (user: Caller, id: string): Promise<ScheduleRecord> => visibleTo(user, await getSchedule(id), () => scheduleNotFound(id));

export const scheduleDtoFor = async (user: Caller, id: string) => toScheduleDto(await visibleSchedule(user, id));

/** The house, flock, cycle and assignee a placement names (one round of reads, in parallel; what it leaves out is not read). */
async function placementFacts(farmId: string, p: Placement): Promise<PlacementFacts & { cycle?: CycleRecord | undefined }> {
  const [house, flock, cycle, assignee] = await Promise.all([
    p.houseId ? getHouse(farmId, p.houseId) : undefined,
    p.flockId ? getFlock(p.flockId) : undefined,
    p.flockId && p.cycleId ? getCycle(p.flockId, p.cycleId) : undefined,
    p.assignee ? getUser(p.assignee) : undefined,
  ]);
  return { house, flock, cycle, assignee };
}

/**
 * The house, flock, cycle and assignee must belong to the farm (404 naming the id otherwise); a cycle needs
 * its flock. Answers the cycle's placement date and the cycle.
 */
export async function placementOrThrow(farmId: string, p: Placement): Promise<{ placementDate: string | null; cycle: CycleRecord | undefined }> {
  placementShapeOrThrow(p);
  const found = await placementFacts(farmId, p);
  return { ...placeOrThrow(farmId, p, found), cycle: found.cycle };
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
    withinCapOrThrow(farmId, stored ?? counted!, n);
  }
  throw new Conflict(`The schedules of farm ${farmId} were changed by concurrent requests; retry`);
}

export async function createScheduleFor(ctx: CommandContext, body: CreateScheduleBody) {
  const farmId = farmOfRequest(ctx.caller, body.farmId);
  return idempotentCommand(ctx, `schedule:${farmId}`, body, async (ctx) => {
    const placement = placementOf(body);
    // the body's own problems are answered before its references are read
    scheduleOrThrow({ kind: body.kind, details: body.details ?? {}, timing: body.timing, ...placement }, { today: isoDate(ctx.now) });
    const { schedule, audit, changes } = decideScheduleCreate(ctx.caller, farmId, body, await placementFacts(farmId, placement), ctx.now);
    const response = { created: true, message: 'Schedule created', data: toScheduleDto(schedule) };
    await commitWithinCap(ctx, [schedule], { audit, changes, response });
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

export async function updateScheduleFor(ctx: CommandContext, id: string, body: UpdateScheduleBody) {
  const current = await visibleSchedule(ctx.caller, id);
  // the version first: a stale one is answered as such whatever else is wrong with the change
  checkVersion(ctx, scheduleVersion(current, body.version));
  const edit = scheduleEdit(current, body);
  if (unchanged(edit)) return toScheduleDto(current);
  // the edit's own problems are answered before its references are read
  editOrThrow(edit, ctx.now);
  const decision = decideScheduleUpdate(current, body, await placementFacts(current.farmId, edit.next), ctx.now);
  await commit(ctx, {
    writes: [scheduleWrites.update(current, decision.change.fields, body.version)],
    audit: decision.audit,
    changes: decision.changes,
  });
  return toScheduleDto(decision.change.next);
}

/**
 * Deletes the schedule at its version, one less on the farm's counter (its stored outcomes stay: they are
 * the record of what was done).
 */
export async function deleteScheduleFor(ctx: CommandContext, id: string): Promise<void> {
  const current = await visibleSchedule(ctx.caller, id);
  checkVersion(ctx, scheduleVersion(current));
  const remove = scheduleWrites.delete(current);
  const plan = decideScheduleRemoval(current);
  try {
    await commit(ctx, { ...plan, writes: [remove, scheduleCounterWrites.remove(current.farmId)] });
  } catch (err) {
    if (!(err instanceof CounterRefused)) throw err;
    // a farm without a counter yet: there is nothing to take one off (its schedules are counted when the counter is created)
    await commit(ctx, { ...plan, writes: [remove] });
  }
}

import { ulid } from 'ulidx';
import { auditPut } from '../db/audit.js';
import { transact, type TransactItem } from '../db/client.js';
import { getCycle, type CycleRecord } from '../db/cycles.js';
import { farmNotFound, getFarm, getHouse, houseNotFound } from '../db/farms.js';
import { getFlock } from '../db/flocks.js';
import { hasWeighingOn } from '../db/weights.js';
import { applyLedger } from '../db/movements.js';
import {
  allSchedulesOfFarm,
  createSchedules,
  deleteSchedule,
  getOutcome,
  getSchedule,
  listSchedulesOfFarm,
  outcomePut,
  outcomesBetween,
  scheduleExists,
  scheduleNotFound,
  updateSchedule,
  type OutcomeRecord,
  type ScheduleRecord,
} from '../db/schedules.js';
import { getUser } from '../db/users.js';
import { allFarmIds } from '../db/flocks.js';
import type { Caller } from '../domain/caller.js';
import { systemCaller } from '../domain/caller.js';
import { expectedVersion, type Precondition } from '../domain/concurrency.js';
import { canAccessFarm } from '../domain/farm-access.js';
import { effectsOf, movementProblems, netChanges } from '../domain/ledger.js';
import { latestAllowedDate } from '../domain/weights.js';
import {
  addDays,
  daysFrom,
  detailsProblems,
  isOccurrence,
  lastOccurrenceOf,
  localToday,
  occurrencesBetween,
  occurrenceStatus,
  timingProblems,
  timingStartProblems,
  toDay,
} from '../domain/schedules/occurrences.js';
import { periodDays } from '../domain/periods.js';
import { PROGRAMMES, programmeOf } from '../domain/schedules/programmes.js';
import { Conflict, NotFound, ValidationFailed, type FieldError } from '../errors.js';
import { raiseAnomaly } from './anomalies/raising.js';
import { farmOfListRequest, farmOfRequest } from './farms.js';
import { cycleNotFound, flockNotFound, userNotFound } from './references.js';
import { DuplicateRequest, idempotent } from './idempotency.js';
import { record, refOf, refusedToConflict, toMovementDto } from './movements.js';
import { alarmsOnFlockData } from './new-data.js';
import { medicationMovementBody, vaccinationMovementBody } from '../../schemas/compiled/service-movements.js';
import type { MovementInput } from '../../schemas/movements.js';
import { problemsOf } from '../../schemas/problems.js';
import type {
  AgendaQuery,
  ApplyProgrammeBody,
  CompleteOccurrenceBody,
  CreateScheduleBody,
  ListSchedulesQuery,
  ScheduleDetails,
  SkipOccurrenceBody,
  UpdateScheduleBody,
} from '../../schemas/schedules.js';

/**
 * Schedules (`/api/v1/schedules`): tasks with a timing whose occurrences are computed on the farm's
 * calendar; only completions and skips are stored (one per schedule and date, `attribute_not_exists`).
 * Completing a vaccination or medication occurrence writes its movement through the ledger in the same
 * transaction as the completion, so either both exist or neither does. Scoped to the caller's farms: a
 * schedule of another farm does not exist for the caller.
 */

/** How far an agenda may reach (and how far back its overdue list looks). */
export const AGENDA_MAX_DAYS = 92;
/** How far back the overdue job looks for vaccinations not done (older ones were flagged already). */
export const OVERDUE_LOOKBACK_DAYS = 30;
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

async function visibleSchedule(user: Caller, id: string): Promise<ScheduleRecord> {
  const s = await getSchedule(id);
  if (!s || !canAccessFarm(user, s.farmId)) throw scheduleNotFound(id);
  return s;
}

export const scheduleFor = visibleSchedule;
export const scheduleDtoFor = async (user: Caller, id: string) => toScheduleDto(await visibleSchedule(user, id));

interface Placement {
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
async function placementOrThrow(farmId: string, p: Placement): Promise<{ placementDate: string | null; cycle: CycleRecord | undefined }> {
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

export async function createScheduleFor(user: Caller, body: CreateScheduleBody, requestId: string, idempotencyKey?: string) {
  const farmId = farmOfRequest(user, body.farmId);
  return idempotent(user.id, idempotencyKey, `schedule:${farmId}`, body, async (remember) => {
    const placement: Placement = {
      houseId: body.houseId ?? null,
      flockId: body.flockId ?? null,
      cycleId: body.cycleId ?? null,
      assignee: body.assignee ?? null,
    };
    const details = body.details ?? {};
    const problems = scheduleProblems({ kind: body.kind, details, timing: body.timing, cycleId: placement.cycleId }, { today: toDay(Date.now()) });
    if (problems.length) throw new ValidationFailed(problems);
    const { placementDate } = await placementOrThrow(farmId, placement);
    const now = new Date().toISOString();
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
      createdBy: user.id,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    const answer = { created: true, message: 'Schedule created', data: toScheduleDto(schedule) };
    await createSchedules(
      [schedule],
      [
        ...remember(answer),
        auditPut({ actorId: user.id, action: 'schedule.create', targetType: 'schedule', targetId: schedule.id, changes: toScheduleDto(schedule), requestId }),
      ],
      MAX_SCHEDULES_PER_FARM,
    );
    return answer;
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

export async function updateScheduleFor(user: Caller, id: string, body: UpdateScheduleBody, precondition: Precondition | undefined, requestId: string) {
  const current = await visibleSchedule(user, id);
  const version = expectedVersion(current.version, { precondition, stated: body.version }, `Schedule ${id}`);
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
  const changes = Object.fromEntries(
    EDITABLE.filter((f) => JSON.stringify(current[f]) !== JSON.stringify(next[f])).map((f) => [f, { from: current[f], to: next[f] }]),
  );
  if (Object.keys(changes).length === 0) return toScheduleDto(current);
  const problems = scheduleProblems(next, 'timing' in changes ? { today: toDay(Date.now()) } : undefined);
  if (problems.length) throw new ValidationFailed(problems);
  const { placementDate } = await placementOrThrow(current.farmId, next);
  const lastOccurrence = lastOccurrenceOf(next.timing) ?? null;
  const fields: Partial<ScheduleRecord> = {
    ...Object.fromEntries(Object.keys(changes).map((f) => [f, next[f as keyof ScheduleRecord]])),
    placementDate,
    lastOccurrence,
  };
  const now = new Date().toISOString();
  await updateSchedule(id, version, fields, now, [
    auditPut({ actorId: user.id, action: 'schedule.update', targetType: 'schedule', targetId: id, changes, requestId }),
  ]);
  return toScheduleDto({ ...next, placementDate, lastOccurrence, updatedAt: now, version: version + 1 });
}

export async function deleteScheduleFor(user: Caller, id: string, precondition: Precondition | undefined, requestId: string): Promise<void> {
  const current = await visibleSchedule(user, id);
  const version = expectedVersion(current.version, { precondition }, `Schedule ${id}`);
  await deleteSchedule(current, version, [
    auditPut({ actorId: user.id, action: 'schedule.delete', targetType: 'schedule', targetId: id, changes: toScheduleDto(current), requestId }),
  ]);
}

// ---------------------------------------------------------------------------------------------------
// Occurrences

export type OccurrenceView = ReturnType<typeof occurrenceView>;

function occurrenceView(s: ScheduleRecord, date: string, today: string, outcome: OutcomeRecord | undefined) {
  return {
    scheduleId: s.id,
    date,
    kind: s.kind,
    title: s.title,
    status: occurrenceStatus(date, today, outcome),
    farmId: s.farmId,
    houseId: s.houseId,
    flockId: s.flockId,
    cycleId: s.cycleId,
    assignee: s.assignee,
    outcome: outcome
      ? {
          status: outcome.status,
          at: outcome.at,
          by: outcome.by,
          notes: outcome.notes,
          reason: outcome.reason,
          movementId: outcome.movementId,
          weighingId: outcome.weighingId,
        }
      : null,
  };
}

/** The farm's today on its own clock. */
async function farmToday(farmId: string, now: Date): Promise<{ timezone: string; today: string }> {
  const farm = await getFarm(farmId);
  if (!farm) throw farmNotFound(farmId);
  return { timezone: farm.timezone, today: localToday(now, farm.timezone) };
}

/** Every occurrence of the schedules between two dates with its outcome, by date then schedule. */
async function occurrencesOf(schedules: ScheduleRecord[], from: string, to: string, today: string) {
  const perSchedule = await Promise.all(
    schedules.map(async (s) => {
      const dates = occurrencesBetween(s.timing, from, to, s);
      if (dates.length === 0) return [];
      const outcomes = new Map((await outcomesBetween(s.id, from, to)).map((o) => [o.date, o]));
      return dates.map((d) => occurrenceView(s, d, today, outcomes.get(d)));
    }),
  );
  return perSchedule.flat().sort((a, b) => (a.date === b.date ? a.scheduleId.localeCompare(b.scheduleId) : a.date < b.date ? -1 : 1));
}

/** The agenda of a farm: the occurrences between `from` and `to` (due, done, skipped, overdue) and the overdue ones before `from`. */
export async function agendaFor(user: Caller, query: AgendaQuery, now = new Date()) {
  const farmId = farmOfRequest(user, query.farmId);
  const { timezone, today } = await farmToday(farmId, now);
  const days = periodDays(query, timezone);
  const from = days.from ?? today;
  const to = days.to ?? from;
  if (daysFrom(from, to) >= AGENDA_MAX_DAYS) throw new ValidationFailed([{ field: 'to', message: `must be within ${AGENDA_MAX_DAYS} days of from (${from})` }]);
  return { farmId, timezone, today, from, to, ...(await agendaOf(farmId, from, to, today)) };
}

async function agendaOf(farmId: string, from: string, to: string, today: string) {
  const schedules = await allSchedulesOfFarm(farmId);
  const lastBefore = addDays(from < today ? from : today, -1);
  const [occurrences, earlier] = await Promise.all([
    occurrencesOf(schedules, from, to, today),
    occurrencesOf(schedules, addDays(from, -AGENDA_MAX_DAYS), lastBefore, today),
  ]);
  return { occurrences, overdue: earlier.filter((o) => o.status === 'overdue') };
}

/** The worker dashboard's agenda: today's occurrences on the farm's clock and the overdue ones before it. */
export async function todaysAgenda(farmId: string, now = new Date()) {
  const { today } = await farmToday(farmId, now);
  const { occurrences, overdue } = await agendaOf(farmId, today, today, today);
  return { date: today, occurrences, overdue };
}

/** The occurrence on `date` must exist and be at most the farm's today (400 naming the date). */
async function occurrenceOrThrow(s: ScheduleRecord, date: string, now: Date): Promise<string> {
  if (!isOccurrence(s.timing, date, s))
    throw new ValidationFailed([{ field: 'date', message: `${date} is no occurrence of schedule ${s.id}` }], `${date} is no occurrence of schedule ${s.id}`);
  const { today } = await farmToday(s.farmId, now);
  if (date > today)
    throw new ValidationFailed([{ field: 'date', message: `the occurrence of ${date} is after the farm's today (${today}): it cannot be done yet` }]);
  return today;
}

const takenMessage = (s: ScheduleRecord, date: string, o?: OutcomeRecord) =>
  `The occurrence of ${date} of schedule ${s.id} is already ${o ? (o.status === 'done' ? 'completed' : 'skipped') : 'completed or skipped'}`;

async function assertOpen(s: ScheduleRecord, date: string) {
  const existing = await getOutcome(s.id, date);
  if (existing) throw new Conflict(takenMessage(s, date, existing));
}

/** The vaccination or medication movement a completion writes: the schedule's details, overridden by what was done. */
function movementInputOf(s: ScheduleRecord, date: string, body: CompleteOccurrenceBody): MovementInput | undefined {
  const d: ScheduleDetails = s.details;
  const data = body.data ?? {};
  const notes = body.notes ? { notes: body.notes } : {};
  const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  if (s.kind === 'vaccination')
    return defined({
      type: 'vaccination',
      date,
      vaccine: data.vaccine ?? d.vaccine,
      method: data.method ?? d.method,
      dose: data.dose ?? d.dose,
      batchNumber: data.batchNumber,
      fromStock: data.fromStock,
      ...notes,
    }) as MovementInput;
  if (s.kind === 'medication')
    return defined({
      type: 'medication',
      date,
      product: data.product ?? d.product,
      dose: data.dose ?? d.dose,
      route: data.route ?? d.route,
      withdrawalDays: data.withdrawalDays ?? d.withdrawalDays,
      treatmentDays: data.treatmentDays,
      prescribedBy: data.prescribedBy,
      fromStock: data.fromStock,
      quantityAdministered: data.quantityAdministered,
      supplier: data.supplier,
      purchaseReference: data.purchaseReference,
      prescriptionReference: data.prescriptionReference,
      batchNumber: data.batchNumber,
      animalsTreated: data.animalsTreated,
      ...notes,
    }) as MovementInput;
  return undefined;
}

/** Data fields that do not belong to the schedule's kind are refused, naming them. */
function dataProblems(s: ScheduleRecord, data: CompleteOccurrenceBody['data']): FieldError[] {
  const allowed: Record<string, string[]> = {
    vaccination: ['vaccine', 'method', 'dose', 'batchNumber', 'fromStock'],
    medication: [
      'product',
      'dose',
      'route',
      'withdrawalDays',
      'prescribedBy',
      'fromStock',
      // Reg. (EU) 2019/6 Art. 108
      'treatmentDays',
      'quantityAdministered',
      'supplier',
      'purchaseReference',
      'prescriptionReference',
      'batchNumber',
      'animalsTreated',
    ],
    weighing: ['weighingId'],
  };
  return Object.keys(data ?? {})
    .filter((k) => !(allowed[s.kind] ?? []).includes(k))
    .map((k) => ({ field: `data.${k}`, message: `is not a field of a ${s.kind} completion` }));
}

/**
 * The weighing a weighing occurrence links to: a weighing session of the schedule's cycle on that date (any
 * other id is the 404 of a missing one); a schedule without a cycle links to none (400).
 */
async function weighingOrThrow(s: ScheduleRecord, date: string, weighingId: string): Promise<void> {
  if (!s.cycleId) throw new ValidationFailed([{ field: 'data.weighingId', message: 'is only for a schedule of a cycle (it names a weighing of that cycle)' }]);
  if (!(await hasWeighingOn(s.cycleId, date, weighingId))) throw new NotFound(`Weighing ${weighingId} not found on ${date} in cycle ${s.cycleId}`);
}

/**
 * Completes an occurrence: the outcome item (only if the date has none: two phones → one 201, one 409
 * naming the date) and, for a vaccination or medication, its movement through the ledger, in ONE
 * transaction; a refused movement (closed cycle) leaves no completion.
 */
export async function completeOccurrence(user: Caller, id: string, date: string, body: CompleteOccurrenceBody, requestId: string, idempotencyKey?: string) {
  const s = await visibleSchedule(user, id);
  return idempotent(user.id, idempotencyKey, `schedule:${id}:complete:${date}`, body, async (remember) => {
    const now = new Date();
    await occurrenceOrThrow(s, date, now);
    const problems = dataProblems(s, body.data);
    if (problems.length) throw new ValidationFailed(problems);
    await assertOpen(s, date);
    const weighingId = body.data?.weighingId ?? null;
    if (weighingId) await weighingOrThrow(s, date, weighingId);
    const at = now.toISOString();
    const input = movementInputOf(s, date, body);
    let movement: { record: ReturnType<typeof record>; cycle: CycleRecord } | undefined;
    if (input) {
      const cycle = s.flockId && s.cycleId ? await getCycle(s.flockId, s.cycleId) : undefined;
      if (!cycle) throw new Conflict(`The cycle ${s.cycleId} of schedule ${id} no longer exists`);
      const shape = problemsOf(input.type === 'vaccination' ? vaccinationMovementBody : medicationMovementBody, input);
      const consistency = movementProblems(input, cycle, latestAllowedDate(now));
      if (shape.length || consistency.length) throw new ValidationFailed([...shape, ...consistency].map((p) => ({ ...p, field: `movement.${p.field}` })));
      movement = { record: record(input, refOf(cycle), user.id, at), cycle };
    }
    const outcome: OutcomeRecord = {
      scheduleId: id,
      date,
      status: 'done',
      at,
      by: user.id,
      notes: body.notes ?? null,
      reason: null,
      movementId: movement?.record.id ?? null,
      weighingId,
    };
    const view = occurrenceView(s, date, date, outcome);
    const answer = {
      created: true,
      message: `Occurrence of ${date} completed`,
      data: { ...view, movement: movement ? toMovementDto(movement.record, movement.cycle, now) : null },
    };
    const remembered = remember(answer);
    const items: TransactItem[] = [
      ...remembered,
      outcomePut(outcome),
      scheduleExists(id),
      auditPut({
        actorId: user.id,
        action: 'schedule.complete',
        targetType: 'schedule',
        targetId: id,
        changes: { date, status: 'done', movementId: outcome.movementId, weighingId },
        requestId,
      }),
    ];
    const failed = (i: number) =>
      i === remembered.length ? new Conflict(takenMessage(s, date)) : i === remembered.length + 1 ? scheduleNotFound(id) : new DuplicateRequest();
    if (movement) {
      const m = movement;
      await refusedToConflict(
        applyLedger({ groups: [{ ref: refOf(m.cycle), changes: netChanges(effectsOf(input!, 1)) }], puts: [m.record], extra: items, onExtraFailed: failed }),
      );
      await alarmsOnFlockData({ farmId: m.cycle.farmId, flockId: m.cycle.flockId }, date);
    } else {
      await transact(items, failed);
    }
    return answer;
  });
}

/** Skips an occurrence with a reason (the same one-outcome-per-date rule as a completion). */
export async function skipOccurrence(user: Caller, id: string, date: string, body: SkipOccurrenceBody, requestId: string, idempotencyKey?: string) {
  const s = await visibleSchedule(user, id);
  return idempotent(user.id, idempotencyKey, `schedule:${id}:skip:${date}`, body, async (remember) => {
    const now = new Date();
    if (!isOccurrence(s.timing, date, s))
      throw new ValidationFailed([{ field: 'date', message: `${date} is no occurrence of schedule ${s.id}` }], `${date} is no occurrence of schedule ${s.id}`);
    await assertOpen(s, date);
    const { today } = await farmToday(s.farmId, now);
    const outcome: OutcomeRecord = {
      scheduleId: id,
      date,
      status: 'skipped',
      at: now.toISOString(),
      by: user.id,
      notes: null,
      reason: body.reason.trim(),
      movementId: null,
      weighingId: null,
    };
    const answer = { created: true, message: `Occurrence of ${date} skipped`, data: { ...occurrenceView(s, date, today, outcome), movement: null } };
    const remembered = remember(answer);
    await transact(
      [
        ...remembered,
        outcomePut(outcome),
        scheduleExists(id),
        auditPut({
          actorId: user.id,
          action: 'schedule.skip',
          targetType: 'schedule',
          targetId: id,
          changes: { date, status: 'skipped', reason: outcome.reason },
          requestId,
        }),
      ],
      (i) => (i === remembered.length ? new Conflict(takenMessage(s, date)) : scheduleNotFound(id)),
    );
    return answer;
  });
}

// ---------------------------------------------------------------------------------------------------
// Programmes

export const listProgrammes = () => PROGRAMMES;

/** Applies a programme to a cycle: one ordinary schedule per step (ageDays from the cycle's placement), all in one transaction. */
export async function applyProgramme(user: Caller, programmeId: string, body: ApplyProgrammeBody, requestId: string, idempotencyKey?: string) {
  const programme = programmeOf(programmeId);
  if (!programme) throw new NotFound(`Programme ${programmeId} not found`);
  const flock = await getFlock(body.flockId);
  if (!flock || !canAccessFarm(user, flock.farmId)) throw new NotFound(`Cycle ${body.cycleId} of flock ${body.flockId} not found`);
  const farmId = flock.farmId;
  return idempotent(user.id, idempotencyKey, `programme:${programmeId}:${body.cycleId}`, body, async (remember) => {
    const placement: Placement = { houseId: body.houseId ?? flock.houseId, flockId: body.flockId, cycleId: body.cycleId, assignee: body.assignee ?? null };
    const { placementDate, cycle } = await placementOrThrow(farmId, placement);
    if (cycle!.status !== 'active') throw new Conflict(`Cycle ${body.cycleId} is closed; a programme applies to an active cycle`);
    if (cycle!.birdType !== programme.birdType)
      throw new ValidationFailed([{ field: 'cycleId', message: `is a ${cycle!.birdType} cycle; programme ${programmeId} is for ${programme.birdType}s` }]);
    const now = new Date().toISOString();
    const schedules: ScheduleRecord[] = programme.steps.map((step) => ({
      id: ulid(),
      farmId,
      ...placement,
      kind: step.kind,
      title: step.title,
      details: step.details,
      timing: { ageDays: step.ageDays },
      placementDate,
      lastOccurrence: null,
      programme: { id: programme.id, step: step.id },
      createdBy: user.id,
      createdAt: now,
      updatedAt: now,
      version: 1,
    }));
    const answer = {
      created: true,
      message: `Programme ${programme.name} applied`,
      data: { programmeId, cycleId: body.cycleId, schedules: schedules.map(toScheduleDto) },
    };
    await createSchedules(
      schedules,
      [
        ...remember(answer),
        auditPut({
          actorId: user.id,
          action: 'schedule.apply_programme',
          targetType: 'cycle',
          targetId: body.cycleId,
          changes: { programmeId, scheduleIds: schedules.map((s) => s.id) },
          requestId,
        }),
      ],
      MAX_SCHEDULES_PER_FARM,
    );
    return answer;
  });
}

// ---------------------------------------------------------------------------------------------------
// The overdue job

/** Who the schedules job acts as. */
export const schedulesJobCaller = systemCaller('schedules', ['view_analytics', 'manage_incidents'], 'all');

/**
 * Daily: every vaccination occurrence of the last OVERDUE_LOOKBACK_DAYS days (before the farm's today,
 * on its own clock) neither done nor skipped raises an anomaly, one per schedule occurrence (its dedup
 * key): a repeat run updates the open anomaly instead of opening another.
 */
export async function flagOverdueVaccinations(now = new Date()): Promise<{ farms: number; flagged: number; failed: Array<{ farmId: string; error: string }> }> {
  let flagged = 0;
  const failed: Array<{ farmId: string; error: string }> = [];
  const farmIds = await allFarmIds();
  for (const farmId of farmIds) {
    try {
      flagged += await flagFarm(farmId, now);
    } catch (err) {
      // one farm's failure is recorded and the job goes on with the others (the next run retries it)
      failed.push({ farmId, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return { farms: farmIds.length, flagged, failed };
}

async function flagFarm(farmId: string, now: Date): Promise<number> {
  const schedules = await allSchedulesOfFarm(farmId, 'vaccination');
  if (schedules.length === 0) return 0;
  const { today } = await farmToday(farmId, now);
  const overdue = (await occurrencesOf(schedules, addDays(today, -OVERDUE_LOOKBACK_DAYS), addDays(today, -1), today)).filter((o) => o.status === 'overdue');
  for (const o of overdue) {
    const s = schedules.find((x) => x.id === o.scheduleId)!;
    const late = daysFrom(o.date, today);
    await raiseAnomaly({
      farmId,
      houseId: s.houseId,
      flockId: s.flockId,
      cycleId: s.cycleId,
      source: 'schedule',
      ruleId: null,
      detector: null,
      metric: 'vaccination_overdue',
      unit: 'days',
      observed: late,
      expected: 0,
      deviation: late,
      window: { from: `${o.date}T00:00:00.000Z`, to: now.toISOString(), duration: `P${late}D` },
      severity: late >= 3 ? 'critical' : 'warning',
      title: `Vaccination overdue: ${s.title} (due ${o.date}, ${late} day(s) late)`,
      evidence: { scheduleId: s.id, date: o.date, vaccine: s.details.vaccine ?? null, method: s.details.method ?? null },
      hypotheses: [],
      dedupKey: `schedule-overdue:${s.id}:${o.date}`,
      at: now.toISOString(),
    });
  }
  return overdue.length;
}

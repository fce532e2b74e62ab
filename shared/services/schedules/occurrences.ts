import { commit, type Plan } from '../../db/commit.js';
import { ledgerWrites } from '../../db/movements.js';
import { getCycle, type CycleRecord } from '../../db/cycles.js';
import { getOutcome, scheduleWrites, type OutcomeRecord, type ScheduleRecord } from '../../db/schedules.js';
import { hasWeighingOn } from '../../db/weights.js';
import type { CommandContext } from '../../domain/command.js';
import { effectsOf, movementProblems, netChanges } from '../../domain/ledger.js';
import { isOccurrence, occurrenceTaken } from '../../domain/schedules/occurrences.js';
import { latestAllowedDate } from '../../domain/weights.js';
import { Conflict, NotFound, ValidationFailed, type FieldError } from '../../errors.js';
import { idempotentCommand } from '../idempotency.js';
import { newMovement, refOf, type MovementRecord } from '../../domain/movements/record.js';
import { refusedToConflict, toMovementDto } from '../movements/answers.js';
import { alarmsOnFlockData } from '../new-data.js';
import { farmToday, occurrenceView } from './agenda.js';
import { visibleSchedule } from './schedules.js';
import { medicationMovementBody, vaccinationMovementBody } from '../../../schemas/compiled/service-movements.js';
import type { MovementInput } from '../../../schemas/movements.js';
import { problemsOf } from '../../../schemas/problems.js';
import type { CompleteOccurrenceBody, ScheduleDetails, SkipOccurrenceBody } from '../../../schemas/schedules.js';

/**
 * Occurrences completed or skipped (`/api/v1/schedules/{scheduleId}/occurrences/{date}`): one outcome per
 * schedule and date (created only if the date has none). Completing a vaccination or medication occurrence
 * writes its movement through the ledger in the same transaction as the completion, so either both exist
 * or neither does.
 */

const notAnOccurrence = (s: ScheduleRecord, date: string) =>
  new ValidationFailed([{ field: 'date', message: `${date} is no occurrence of schedule ${s.id}` }], `${date} is no occurrence of schedule ${s.id}`);

/** The occurrence on `date` must exist and be at most the farm's today (400 naming the date). */
async function occurrenceOrThrow(s: ScheduleRecord, date: string, now: Date): Promise<string> {
  if (!isOccurrence(s.timing, date, s)) throw notAnOccurrence(s, date);
  const { today } = await farmToday(s.farmId, now);
  if (date > today)
    throw new ValidationFailed([{ field: 'date', message: `the occurrence of ${date} is after the farm's today (${today}): it cannot be done yet` }]);
  return today;
}

/** The date has no outcome yet (409 naming what it has). */
async function assertOpen(s: ScheduleRecord, date: string) {
  const existing = await getOutcome(s.id, date);
  if (existing) throw new Conflict(occurrenceTaken(s.id, date, existing));
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
export async function completeOccurrence(ctx: CommandContext, id: string, date: string, body: CompleteOccurrenceBody) {
  const s = await visibleSchedule(ctx.caller, id);
  return idempotentCommand(ctx, `schedule:${id}:complete:${date}`, body, async (ctx) => {
    const { now } = ctx;
    await occurrenceOrThrow(s, date, now);
    const problems = dataProblems(s, body.data);
    if (problems.length) throw new ValidationFailed(problems);
    await assertOpen(s, date);
    const weighingId = body.data?.weighingId ?? null;
    if (weighingId) await weighingOrThrow(s, date, weighingId);
    const at = now.toISOString();
    const input = movementInputOf(s, date, body);
    let movement: { input: MovementInput; record: MovementRecord; cycle: CycleRecord } | undefined;
    if (input) {
      const cycle = s.flockId && s.cycleId ? await getCycle(s.flockId, s.cycleId) : undefined;
      if (!cycle) throw new Conflict(`The cycle ${s.cycleId} of schedule ${id} no longer exists`);
      const shape = problemsOf(input.type === 'vaccination' ? vaccinationMovementBody : medicationMovementBody, input);
      const consistency = movementProblems(input, cycle, latestAllowedDate(now));
      if (shape.length || consistency.length) throw new ValidationFailed([...shape, ...consistency].map((p) => ({ ...p, field: `movement.${p.field}` })));
      movement = { input, record: newMovement(input, refOf(cycle), ctx.caller.id, at), cycle };
    }
    const outcome: OutcomeRecord = {
      scheduleId: id,
      date,
      status: 'done',
      at,
      by: ctx.caller.id,
      notes: body.notes ?? null,
      reason: null,
      movementId: movement?.record.id ?? null,
      weighingId,
    };
    const response = {
      created: true,
      message: `Occurrence of ${date} completed`,
      data: { ...occurrenceView(s, date, date, outcome), movement: movement ? toMovementDto(movement.record, movement.cycle, now) : null },
    };
    const plan: Plan = {
      writes: [scheduleWrites.outcome(outcome), scheduleWrites.exists(id)],
      audit: [
        { action: 'schedule.complete', targetType: 'schedule', targetId: id, changes: { date, status: 'done', movementId: outcome.movementId, weighingId } },
      ],
      response,
    };
    if (!movement) {
      await commit(ctx, plan);
      return response;
    }
    const { cycle } = movement;
    await refusedToConflict(
      commit(ctx, {
        ...plan,
        writes: [
          ...plan.writes,
          ...ledgerWrites(
            { groups: [{ ref: refOf(cycle), changes: netChanges(effectsOf(movement.input, 1)) }], puts: [movement.record] },
            ctx.now.toISOString(),
          ),
        ],
      }),
    );
    await alarmsOnFlockData({ farmId: cycle.farmId, flockId: cycle.flockId }, date);
    return response;
  });
}

/** Skips an occurrence with a reason (the same one-outcome-per-date rule as a completion). */
export async function skipOccurrence(ctx: CommandContext, id: string, date: string, body: SkipOccurrenceBody) {
  const s = await visibleSchedule(ctx.caller, id);
  return idempotentCommand(ctx, `schedule:${id}:skip:${date}`, body, async (ctx) => {
    if (!isOccurrence(s.timing, date, s)) throw notAnOccurrence(s, date);
    await assertOpen(s, date);
    const { today } = await farmToday(s.farmId, ctx.now);
    const outcome: OutcomeRecord = {
      scheduleId: id,
      date,
      status: 'skipped',
      at: ctx.now.toISOString(),
      by: ctx.caller.id,
      notes: null,
      reason: body.reason.trim(),
      movementId: null,
      weighingId: null,
    };
    const response = { created: true, message: `Occurrence of ${date} skipped`, data: { ...occurrenceView(s, date, today, outcome), movement: null } };
    await commit(ctx, {
      writes: [scheduleWrites.outcome(outcome), scheduleWrites.exists(id)],
      audit: [{ action: 'schedule.skip', targetType: 'schedule', targetId: id, changes: { date, status: 'skipped', reason: outcome.reason } }],
      response,
    });
    return response;
  });
}

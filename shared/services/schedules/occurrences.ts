import { commit } from '../../db/commit.js';
import { getCycle } from '../../db/cycles.js';
import { ledgerWrites } from '../../db/movements.js';
import { getOutcome, scheduleWrites } from '../../db/schedules.js';
import { hasWeighingOn } from '../../db/weights.js';
import type { CommandContext } from '../../domain/command.js';
import { decideOccurrenceCompletion, decideOccurrenceSkip, occurrenceOrThrow, readsCycle } from '../../domain/schedules/outcomes.js';
import type { ScheduleRecord } from '../../domain/schedules/records.js';
import { idempotentCommand } from '../idempotency.js';
import { refusedToConflict, toMovementDto } from '../movements/answers.js';
import { alarmsOnFlockData } from '../new-data.js';
import { farmToday, occurrenceView, withAgeOrigins } from './agenda.js';
import { visibleSchedule } from './schedules.js';
import type { CompleteOccurrenceBody, SkipOccurrenceBody } from '../../../schemas/schedules.js';

/**
 * Occurrences completed or skipped (`/api/v1/schedules/{scheduleId}/occurrences/{date}`): one outcome per
 * schedule and date (created only if the date has none). Completing a vaccination or medication occurrence
 * writes its movement through the ledger in the same transaction as the completion, so either both exist
 * or neither does. Decided in shared/domain/schedules/outcomes.ts.
 */

/**
 * What completing an occurrence on `date` reads, in one round: the farm's today, the date's outcome, the
 * weighing the body names (when the schedule has a cycle) and the cycle (a movement goes into it; a `doneOn` is judged against its start).
 */
async function completionFacts(s: ScheduleRecord, date: string, body: CompleteOccurrenceBody, now: Date) {
  const weighingId = body.data?.weighingId;
  const [{ today }, outcome, weighingFound, cycle] = await Promise.all([
    farmToday(s.farmId, now),
    getOutcome(s.id, date),
    weighingId && s.cycleId ? hasWeighingOn(s.cycleId, date, weighingId) : undefined,
    readsCycle(s, body) && s.flockId && s.cycleId ? getCycle(s.flockId, s.cycleId) : undefined,
  ]);
  return { today, outcome, weighingFound, cycle };
}

/**
 * Completes an occurrence: the outcome item (only if the date has none: two phones → one 201, one 409
 * naming the date) and, for a vaccination or medication, its movement through the ledger, in ONE
 * transaction; a refused movement (closed cycle) leaves no completion.
 */
export async function completeOccurrence(ctx: CommandContext, id: string, date: string, body: CompleteOccurrenceBody) {
  const [s] = (await withAgeOrigins([await visibleSchedule(ctx.caller, id)])) as [ScheduleRecord];
  return idempotentCommand(ctx, `schedule:${id}:complete:${date}`, body, async (ctx) => {
    const { now } = ctx;
    // a date that is no occurrence is answered before anything is read
    occurrenceOrThrow(s, date);
    const facts = await completionFacts(s, date, body, now);
    const { outcome, movement, audit } = decideOccurrenceCompletion(ctx.caller, s, date, body, facts, now);
    const response = {
      created: true,
      message: `Occurrence of ${date} completed`,
      data: { ...occurrenceView(s, date, date, outcome), movement: movement && facts.cycle ? toMovementDto(movement.record, facts.cycle, now) : null },
    };
    const writes = [scheduleWrites.outcome(outcome), scheduleWrites.exists(id)];
    if (!movement || !facts.cycle) {
      await commit(ctx, { writes, audit, response });
      return response;
    }
    const ledger = ledgerWrites({ groups: [movement.ledger], puts: [movement.record] }, now.toISOString());
    await refusedToConflict(commit(ctx, { writes: [...writes, ...ledger], audit, response }));
    await alarmsOnFlockData({ farmId: facts.cycle.farmId, flockId: facts.cycle.flockId }, movement.record.date);
    return response;
  });
}

/** Skips an occurrence with a reason (the same one-outcome-per-date rule as a completion). */
export async function skipOccurrence(ctx: CommandContext, id: string, date: string, body: SkipOccurrenceBody) {
  const [s] = (await withAgeOrigins([await visibleSchedule(ctx.caller, id)])) as [ScheduleRecord];
  return idempotentCommand(ctx, `schedule:${id}:skip:${date}`, body, async (ctx) => {
    occurrenceOrThrow(s, date);
    const [existing, { today }] = await Promise.all([getOutcome(s.id, date), farmToday(s.farmId, ctx.now)]);
    const { outcome, audit } = decideOccurrenceSkip(ctx.caller, s, date, body, existing, ctx.now);
    const response = { created: true, message: `Occurrence of ${date} skipped`, data: { ...occurrenceView(s, date, today, outcome), movement: null } };
    await commit(ctx, { writes: [scheduleWrites.outcome(outcome), scheduleWrites.exists(id)], audit, response });
    return response;
  });
}

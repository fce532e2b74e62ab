import { stockShortfallWarnings } from '../movements/stock-shortfalls.js';
import { readCycleDay } from '../../db/analytics.js';
import { dailyRecordRace, dayOf, decideDailyRecord, judgeDailyForm, judgeReplaced } from '../../domain/flocks/daily-records.js';
import { settings } from '../../config/env.js';
import { needsFeedType, recordDateProblems } from '../../domain/ledger.js';
import { checkDailyRecord, formOf, type Stage } from '../../domain/production-stage.js';
import { latestAllowedDate } from '../../domain/weights.js';
import { commit } from '../../db/commit.js';
import { dailyRecordWrite, getDailyRecord, listDailyRecords, movementsById } from '../../db/daily-records.js';
import type { DailyRecord } from '../../domain/flocks/records.js';
import { feedTypesInStock, ledgerWrites } from '../../db/movements.js';
import type { MovementRecord } from '../../domain/movements/record.js';
import { NotFound, ValidationFailed } from '../../errors.js';
import type { Caller } from '../../domain/caller.js';
import type { CommandContext } from '../../domain/command.js';
import { scopedCycle } from './cycles.js';
import { idempotentCommand } from '../idempotency.js';
import { autoLockCutoff, refusedToConflict, toMovementDto } from '../movements/answers.js';
import type { DailyRecordBody } from '../../../schemas/daily-records.js';
import { alarmsOnFlockData } from '../new-data.js';
import { isoDate } from '../../platform/calendar.js';

/**
 * Daily records: one form per cycle and day. Submitting writes the matching movements; a
 * second submission for the same day replaces the first (its movements are deleted and the new ones
 * written, the counters moving by the difference), all in one transaction. What it writes is decided in
 * shared/domain/flocks/daily-records.ts.
 */
export function toDailyRecordDto(r: DailyRecord) {
  return {
    date: r.date,
    cycleId: r.cycleId,
    flockId: r.flockId,
    stage: r.stage,
    fields: r.fields,
    movementIds: r.movementIds,
    warnings: r.warnings,
    createdAt: r.createdAt,
    createdBy: r.createdBy,
    updatedAt: r.updatedAt,
    version: r.version,
  };
}

/**
 * The form of one cycle on one date (today in UTC by default): the stage of that day, the fields it
 * requires and takes (with unit and meaning, from the stage rules the submission is checked against)
 * and the record already saved for that date, if any.
 */
export async function dailyRecordForm(user: Caller, flockId: string, cycleId: string, date: string | undefined, now = new Date()) {
  const cycle = await scopedCycle(user, flockId, cycleId);
  const day = date ?? isoDate(now);
  const problems = recordDateProblems(day, cycle, latestAllowedDate(now));
  if (problems.length) throw new ValidationFailed(problems);
  const { ageDays, stage } = dayOf(cycle, day);
  const existing = await getDailyRecord(cycleId, day);
  return { date: day, ageDays, stage, ...formOf(stage), existing: existing ? toDailyRecordDto(existing) : null };
}

export async function submitDailyRecord(ctx: CommandContext, flockId: string, cycleId: string, form: DailyRecordBody) {
  const cycle = await scopedCycle(ctx.caller, flockId, cycleId);
  return idempotentCommand(ctx, `daily:${cycleId}`, form, async (ctx) => {
    const judged = judgeDailyForm(cycle, form, ctx.now);
    const existing = await getDailyRecord(cycleId, form.date);
    const previous: MovementRecord[] = existing ? await movementsById(cycleId, existing.movementIds) : [];
    // a locked movement of the replaced form refuses the submission before the feed in stock is read
    judgeReplaced(previous, cycle, ctx.now, settings().autoLockHours);
    const feedInStock = judged.inputs.some(needsFeedType) ? (await feedTypesInStock(cycle.farmId)).map((s) => s.feedType) : [];
    const decision = decideDailyRecord(cycle, form, judged, { callerId: ctx.caller.id, existing, previous, feedInStock, now: ctx.now });
    const { daily, movements } = decision;
    const warnings = await stockShortfallWarnings(decision.groups, ctx.now);
    const response = {
      created: !decision.replaced,
      message: decision.replaced ? 'Daily record replaced' : 'Daily record saved',
      data: { record: toDailyRecordDto(daily), movements: movements.map((m) => toMovementDto(m, cycle, ctx.now)) },
      ...(warnings.length ? { warnings } : {}),
    };
    // The day's form, its movements and the ledger changes commit together.
    await refusedToConflict(
      commit(ctx, {
        writes: [
          dailyRecordWrite(daily, existing?.version, dailyRecordRace(form.date)),
          ...ledgerWrites(
            { groups: decision.groups, puts: movements, deletes: previous.map((m) => ({ movement: m, createdAfter: autoLockCutoff(ctx.now) })) },
            ctx.now.toISOString(),
          ),
        ],
        changes: decision.changes,
        response,
      }),
    );
    // the day is recorded: the farm's daily rules and the detectors judge it now
    await alarmsOnFlockData({ farmId: cycle.farmId, flockId }, form.date);
    return response;
  });
}

export async function getDailyRecordFor(user: Caller, flockId: string, cycleId: string, date: string) {
  const cycle = await scopedCycle(user, flockId, cycleId);
  const daily = await getDailyRecord(cycleId, date);
  if (!daily) throw new NotFound(`No daily record for ${date} in cycle ${cycleId}`);
  const [movements, day] = await Promise.all([movementsById(cycleId, daily.movementIds), readCycleDay(cycleId, date)]);
  return {
    record: toDailyRecordDto(daily),
    movements: movements.sort((a, b) => a.id.localeCompare(b.id)).map((m) => toMovementDto(m, cycle)),
    dayFigures: {
      waterLiters: { value: day.waterLiters, source: day.sources?.waterLiters ?? null },
      feedKg: { value: day.feedConsumedKg, source: day.sources?.feedConsumedKg ?? null },
    },
  };
}

export async function listDailyRecordsFor(user: Caller, flockId: string, cycleId: string, query: { limit?: number; cursor?: string }) {
  await scopedCycle(user, flockId, cycleId);
  const limit = query.limit ?? 25;
  const page = await listDailyRecords(cycleId, { limit, cursor: query.cursor });
  return { items: page.items.map(toDailyRecordDto), nextCursor: page.nextCursor, limit };
}

/** The mandatory-field check of a day's data for its production stage, without saving anything. */
export function validateDailyData(data: Record<string, unknown>, productionStage: Stage) {
  const check = checkDailyRecord(data, productionStage);
  return {
    valid: check.missingFields.length === 0,
    productionStage: check.stage,
    requiredFields: check.requiredFields,
    missingFields: check.missingFields,
    warnings: check.warnings,
  };
}

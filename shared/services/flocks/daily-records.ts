import { readCycleDay } from '../../db/analytics.js';
import { movementsOfForm, formProblems } from '../../domain/daily-records.js';
import { effectsOf, feedTypeFromStock, needsFeedType, netChanges, recordDateProblems } from '../../domain/ledger.js';
import { checkDailyRecord, formOf, stageOf, type Stage } from '../../domain/production-stage.js';
import { latestAllowedDate } from '../../domain/weights.js';
import { commit } from '../../db/commit.js';
import { dailyRecordWrite, getDailyRecord, listDailyRecords, movementsById, type DailyRecord } from '../../db/daily-records.js';
import { feedTypesInStock, ledgerWrites, type MovementRecord } from '../../db/movements.js';
import type { CycleRecord } from '../../db/cycles.js';
import { Conflict, NotFound, ValidationFailed } from '../../errors.js';
import type { Caller } from '../../domain/caller.js';
import type { CommandContext } from '../../domain/command.js';
import { scopedCycle } from './cycles.js';
import { idempotentCommand } from '../idempotency.js';
import { inputOf, newMovement, refOf } from '../../domain/movements/record.js';
import { assertUnlocked, autoLockCutoff, refusedToConflict, toMovementDto } from '../movements/answers.js';
import type { DailyRecordBody } from '../../../schemas/daily-records.js';
import { alarmsOnFlockData } from '../new-data.js';
import { daysBetween, isoDate } from '../../platform/calendar.js';

/**
 * Daily records: one form per cycle and day. Submitting writes the matching movements; a
 * second submission for the same day replaces the first (its movements are deleted and the new ones
 * written, the counters moving by the difference), all in one transaction.
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

/** Age in days of the cycle's birds on `date` (from the hatch date when known) and the production stage of that day. */
function dayOf(cycle: CycleRecord, date: string): { ageDays: number; stage: Stage } {
  const ageDays = Math.max(0, daysBetween(cycle.hatchDate ?? cycle.startDate, date));
  return { ageDays, stage: stageOf(cycle.birdType, ageDays) };
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
    if (cycle.status !== 'active') throw new Conflict(`Cycle ${cycleId} is closed; it takes no new daily records`);
    const today = latestAllowedDate(ctx.now);
    const dateProblems =
      form.date < cycle.startDate ? `must not be before the cycle start ${cycle.startDate}` : form.date > today ? 'must not be in the future' : undefined;
    const { stage } = dayOf(cycle, form.date);
    const check = checkDailyRecord(form, stage);
    const problems = [
      ...(dateProblems ? [{ field: 'date', message: dateProblems }] : []),
      ...check.missingFields.map((f) => ({ field: `${f}`, message: `is required in the ${stage} stage` })),
      ...formProblems(form),
    ];
    if (problems.length) throw new ValidationFailed(problems);

    const existing = await getDailyRecord(cycleId, form.date);
    const previous: MovementRecord[] = existing ? await movementsById(cycleId, existing.movementIds) : [];
    for (const m of previous) assertUnlocked(m, cycle, ctx.now);
    const now = ctx.now.toISOString();
    const ref = refOf(cycle);
    const movements: MovementRecord[] = [];
    const inputs = movementsOfForm(form);
    // a consumption without a feed type draws from the farm's only feed in stock (read once, when needed)
    const inStock = inputs.some(needsFeedType) ? (await feedTypesInStock(cycle.farmId)).map((s) => s.feedType) : [];
    for (const input of inputs) {
      const feedType = needsFeedType(input) ? feedTypeFromStock(cycle.farmId, inStock) : undefined;
      movements.push(newMovement(input, ref, ctx.caller.id, now, { dailyRecordDate: form.date, ...(feedType ? { feedType } : {}) }));
    }
    const { date: _date, ...fields } = form;
    const daily: DailyRecord = {
      cycleId,
      flockId,
      date: form.date,
      stage,
      fields,
      movementIds: movements.map((m) => m.id),
      warnings: check.warnings,
      createdAt: existing?.createdAt ?? now,
      createdBy: existing?.createdBy ?? ctx.caller.id,
      updatedAt: now,
      version: (existing?.version ?? 0) + 1,
    };
    const deltas = [...previous.flatMap((m) => effectsOf(inputOf(m), -1)), ...movements.flatMap((m) => effectsOf(inputOf(m), 1))];
    const response = {
      created: !existing,
      message: existing ? 'Daily record replaced' : 'Daily record saved',
      data: { record: toDailyRecordDto(daily), movements: movements.map((m) => toMovementDto(m, cycle)) },
    };
    // The day's form, its movements and the ledger changes commit together.
    const concurrent = () => new Conflict(`The daily record of ${form.date} was submitted concurrently; read it and submit again`);
    await refusedToConflict(
      commit(ctx, {
        writes: [
          dailyRecordWrite(daily, existing?.version, concurrent),
          ...ledgerWrites(
            {
              groups: [{ ref, changes: netChanges(deltas) }],
              puts: movements,
              deletes: previous.map((m) => ({ movement: m, createdAfter: autoLockCutoff(ctx.now) })),
            },
            now,
          ),
        ],
        changes: [
          ...previous.map((m) => ({ type: 'movement', id: m.id, op: 'delete' as const })),
          ...movements.map((m) => ({ type: 'movement', id: m.id, op: 'upsert' as const, version: m.version })),
        ],
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

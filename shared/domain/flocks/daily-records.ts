import type { DailyRecordBody } from '../../../schemas/daily-records.js';
import type { MovementInput } from '../../../schemas/movements.js';
import { Conflict, ValidationFailed, type FieldError } from '../../errors.js';
import { ageOn } from '../age.js';
import { type ResourceChange, upsertOf, deleteOf } from '../decision.js';
import { effectiveLock, effectsOf, feedTypeFromStock, needsFeedType, netChanges } from '../ledger.js';
import { inputOf, newMovement, refOf, type LedgerGroup, type MovementRecord } from '../movements/record.js';
import { checkDailyRecord, stageOf, type Stage } from '../production-stage.js';
import { latestAllowedDate } from '../weights.js';
import type { CycleRecord, DailyRecord } from './records.js';

/**
 * Daily records, decided without I/O: one form per cycle and day. Submitting writes the movements the
 * form stands for; a second submission for the same day replaces the first (its movements deleted, the
 * new ones written, the counters moving by the difference).
 */

/** The movements one day's form stands for (submitting the form writes them). */
export function movementsOfForm(form: DailyRecordBody): MovementInput[] {
  const { date } = form;
  const out: MovementInput[] = [];
  const deaths = typeof form.deaths === 'number' ? { unknown: form.deaths } : (form.deaths ?? {});
  for (const [cause, quantity] of Object.entries(deaths)) if (quantity) out.push({ type: 'bird_mortality', date, quantity, cause } as MovementInput);
  if (form.culls) out.push({ type: 'bird_cull', date, quantity: form.culls, ...(form.cullReason ? { reason: form.cullReason } : {}) });
  if (form.feedKg) out.push({ type: 'feed_consumption', date, quantityKg: form.feedKg, ...(form.feedType ? { feedType: form.feedType } : {}) });
  if (form.waterLiters) out.push({ type: 'water_consumption', date, liters: form.waterLiters });
  if (form.eggsCollected || form.eggsCracked || form.eggsDirty) {
    out.push({
      type: 'egg_collection',
      date,
      totalEggs: form.eggsCollected ?? 0,
      ...(form.eggsCracked ? { cracked: form.eggsCracked } : {}),
      ...(form.eggsDirty ? { dirty: form.eggsDirty } : {}),
      ...(form.eggsFloor ? { floor: form.eggsFloor } : {}),
      ...(form.eggsDoubleYolk ? { doubleYolk: form.eggsDoubleYolk } : {}),
      ...(form.eggGrades && Object.keys(form.eggGrades).length ? { grades: form.eggGrades } : {}),
      ...(form.averageEggWeightGrams !== undefined ? { averageEggWeightGrams: form.averageEggWeightGrams } : {}),
    });
  }
  return out;
}

/** Cross-field rules JSON Schema cannot say. */
export function formProblems(form: Partial<DailyRecordBody>): FieldError[] {
  const problems: FieldError[] = [];
  const eggs = form.eggsCollected ?? 0;
  if ((form.eggsCracked ?? 0) > eggs) problems.push({ field: 'eggsCracked', message: 'must not exceed eggsCollected' });
  if ((form.eggsDirty ?? 0) > eggs) problems.push({ field: 'eggsDirty', message: 'must not exceed eggsCollected' });
  for (const part of ['eggsFloor', 'eggsDoubleYolk'] as const)
    if ((form[part] ?? 0) > eggs) problems.push({ field: part, message: 'must not exceed eggsCollected' });
  const graded = Object.values(form.eggGrades ?? {}).reduce((a, n) => a + n, 0);
  if (graded > eggs) problems.push({ field: 'eggGrades', message: `add up to ${graded}, more than eggsCollected (${eggs})` });
  if (form.temperatureMinC !== undefined && form.temperatureMaxC !== undefined && form.temperatureMinC > form.temperatureMaxC) {
    problems.push({ field: 'temperatureMinC', message: 'must not be above temperatureMaxC' });
  }
  // the longest dark period is part of the day's darkness (docs/domain.md, "Lighting")
  if (form.longestDarkHours !== undefined && form.lightHours !== undefined && form.longestDarkHours > 24 - form.lightHours)
    problems.push({ field: 'longestDarkHours', message: `must not exceed 24 − lightHours (${24 - form.lightHours})` });
  return problems;
}

/** Age in days of the cycle's birds on `date` (hatch date, else first placement, else start: ../age.ts) and the production stage of that day. */
export function dayOf(cycle: Pick<CycleRecord, 'hatchDate' | 'placedOn' | 'startDate' | 'birdType'>, date: string): { ageDays: number; stage: Stage } {
  const ageDays = ageOn(cycle, date);
  return { ageDays, stage: stageOf(cycle.birdType, ageDays) };
}

/**
 * A submitted form, judged before anything else is read: the cycle open, the date within it and not in
 * the future, the fields its stage requires, the cross-field rules. Its stage, the warnings for the
 * fields the stage does not take, and the movements it stands for.
 */
export function judgeDailyForm(cycle: CycleRecord, form: DailyRecordBody, now: Date) {
  if (cycle.status !== 'active') throw new Conflict(`Cycle ${cycle.id} is closed; it takes no new daily records`);
  const today = latestAllowedDate(now);
  const dateProblem =
    form.date < cycle.startDate ? `must not be before the cycle start ${cycle.startDate}` : form.date > today ? 'must not be in the future' : undefined;
  const { stage } = dayOf(cycle, form.date);
  const check = checkDailyRecord(form, stage);
  const problems = [
    ...(dateProblem ? [{ field: 'date', message: dateProblem }] : []),
    ...check.missingFields.map((f) => ({ field: `${f}`, message: `is required in the ${stage} stage` })),
    ...formProblems(form),
  ];
  if (problems.length) throw new ValidationFailed(problems);
  return { stage, warnings: check.warnings, inputs: movementsOfForm(form) };
}
export type JudgedForm = ReturnType<typeof judgeDailyForm>;

/** The movements a replaced form wrote must still be open to change (none locked, by hand or by age). */
export function judgeReplaced(previous: readonly MovementRecord[], cycle: Pick<CycleRecord, 'status' | 'closedAt'>, now: Date, autoLockHours: number): void {
  for (const m of previous) {
    const lock = effectiveLock(m, cycle, now, autoLockHours);
    if (lock)
      throw new Conflict(
        `Movement ${m.id} is locked (${lock.type}: ${lock.reason}); ${lock.type === 'manual' ? 'unlock it first' : 'it can no longer change'}`,
      );
  }
}

export interface DailyFacts {
  callerId: string;
  /** The day's record already saved, and the movements it wrote. */
  existing: DailyRecord | undefined;
  previous: readonly MovementRecord[];
  /** The feed types the farm holds (read only when a consumption names none). */
  feedInStock: readonly string[];
  now: Date;
}

/** The day's record and its movements, replacing what a previous submission wrote, and the ledger's net changes. */
export function decideDailyRecord(cycle: CycleRecord, form: DailyRecordBody, judged: JudgedForm, facts: DailyFacts) {
  const { existing, previous, callerId } = facts;
  const now = facts.now.toISOString();
  const ref = refOf(cycle);
  // a consumption without a feed type draws from the farm's only feed in stock
  const movements = judged.inputs.map((input) => {
    const feedType = needsFeedType(input) ? feedTypeFromStock(cycle.farmId, facts.feedInStock) : undefined;
    return newMovement(input, ref, callerId, now, { dailyRecordDate: form.date, ...(feedType ? { feedType } : {}) });
  });
  const { date: _date, ...fields } = form;
  const daily: DailyRecord = {
    cycleId: cycle.id,
    flockId: cycle.flockId,
    date: form.date,
    stage: judged.stage,
    fields,
    movementIds: movements.map((m) => m.id),
    warnings: judged.warnings,
    createdAt: existing?.createdAt ?? now,
    createdBy: existing?.createdBy ?? callerId,
    updatedAt: now,
    version: (existing?.version ?? 0) + 1,
  };
  const deltas = [...previous.flatMap((m) => effectsOf(inputOf(m), -1)), ...movements.flatMap((m) => effectsOf(inputOf(m), 1))];
  const groups: LedgerGroup[] = [{ ref, changes: netChanges(deltas) }];
  const changes: ResourceChange[] = [...previous.map((m) => deleteOf('movement', m)), ...movements.map((m) => upsertOf('movement', m))];
  return { daily, movements, groups, changes, replaced: existing !== undefined };
}

/** The named conflict of a day's form submitted twice at once. */
export const dailyRecordRace = (date: string) => () => new Conflict(`The daily record of ${date} was submitted concurrently; read it and submit again`);

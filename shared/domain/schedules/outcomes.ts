import { Conflict, NotFound, ValidationFailed, type FieldError } from '../../errors.js';
import type { Caller } from '../caller.js';
import type { AuditEvent } from '../decision.js';
import { effectsOf, movementProblems, netChanges } from '../ledger.js';
import { newMovement, refOf, type LedgerGroup, type MovementRecord } from '../movements/record.js';
import { latestAllowedDate } from '../weights.js';
import { isOccurrence, occurrenceTaken } from './occurrences.js';
import type { OutcomeRecord, ScheduleRecord } from './records.js';
import { medicationMovementBody, vaccinationMovementBody } from '../../../schemas/compiled/service-movements.js';
import type { MovementInput } from '../../../schemas/movements.js';
import { problemsOf } from '../../../schemas/problems.js';
import type { CompleteOccurrenceBody, ScheduleDetails, SkipOccurrenceBody } from '../../../schemas/schedules.js';

/**
 * Occurrences completed or skipped, decided without I/O: one outcome per schedule and date. Completing a
 * vaccination or medication occurrence also records its movement (and the ledger changes it makes), so the
 * use case commits both or neither.
 */

/** The cycle a completion's movement goes into, as read. */
export interface CompletionCycle {
  id: string;
  flockId: string;
  farmId: string;
  startDate: string;
  endDate: string | null;
}

/** What completing or skipping an occurrence reads, besides the schedule. */
export interface OccurrenceFacts {
  /** The farm's today, on its calendar. */
  today: string;
  /** The outcome the date already has, as read. */
  outcome: Pick<OutcomeRecord, 'status'> | undefined;
}

export interface CompletionFacts extends OccurrenceFacts {
  /** Whether the weighing the body names is a weighing of the schedule's cycle on that date (read when named and the schedule has a cycle). */
  weighingFound?: boolean;
  /** The schedule's cycle (read for a vaccination or medication, and for any schedule of a cycle when the body names `doneOn`). */
  cycle?: CompletionCycle | undefined;
}

/** The date must be an occurrence of the schedule (400 naming it): checked before anything is read. */
export function occurrenceOrThrow(s: ScheduleRecord, date: string): void {
  if (!isOccurrence(s.timing, date, s))
    throw new ValidationFailed([{ field: 'date', message: `${date} is no occurrence of schedule ${s.id}` }], `${date} is no occurrence of schedule ${s.id}`);
}

/** The date has no outcome yet (409 naming what it has). */
function openOrThrow(s: ScheduleRecord, date: string, outcome: OccurrenceFacts['outcome']): void {
  if (outcome) throw new Conflict(occurrenceTaken(s.id, date, outcome));
}

/** Whether completing a schedule of this kind writes a movement (its cycle is read for it). */
export const writesMovement = (s: Pick<ScheduleRecord, 'kind'>): boolean => s.kind === 'vaccination' || s.kind === 'medication';

/** Whether completing the schedule reads its cycle: for the movement it writes, or to judge the `doneOn` named. */
export const readsCycle = (s: Pick<ScheduleRecord, 'kind' | 'cycleId'>, body: CompleteOccurrenceBody): boolean =>
  writesMovement(s) || (body.doneOn !== undefined && s.cycleId !== null);

/**
 * The day the task was done: `doneOn` when named (not after the farm's today, not before the start of the
 * schedule's cycle, each a 400 naming it), else the farm's today.
 */
function doneOnOf(body: CompleteOccurrenceBody, today: string, cycle: CompletionCycle | undefined): string {
  const doneOn = body.doneOn;
  if (doneOn === undefined) return today;
  if (doneOn > today)
    throw new ValidationFailed([{ field: 'doneOn', message: `${doneOn} is after the farm's today (${today}): a task is recorded once done` }]);
  if (cycle && doneOn < cycle.startDate)
    throw new ValidationFailed([{ field: 'doneOn', message: `${doneOn} is before cycle ${cycle.id} started (${cycle.startDate})` }]);
  return doneOn;
}

/**
 * The vaccination or medication movement a completion writes: the schedule's details, overridden by what was
 * done; dated `date` (the `doneOn` named, else the occurrence's date).
 */
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

const DATA_FIELDS: Record<string, readonly string[]> = {
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

/** Data fields that do not belong to the schedule's kind are refused, naming them. */
function dataProblems(s: ScheduleRecord, data: CompleteOccurrenceBody['data']): FieldError[] {
  return Object.keys(data ?? {})
    .filter((k) => !(DATA_FIELDS[s.kind] ?? []).includes(k))
    .map((k) => ({ field: `data.${k}`, message: `is not a field of a ${s.kind} completion` }));
}

/**
 * The weighing a weighing occurrence links to: a weighing session of the schedule's cycle on that date (any
 * other id is the 404 of a missing one); a schedule without a cycle links to none (400).
 */
function weighingOrThrow(s: ScheduleRecord, date: string, weighingId: string, found: boolean | undefined): void {
  if (!s.cycleId) throw new ValidationFailed([{ field: 'data.weighingId', message: 'is only for a schedule of a cycle (it names a weighing of that cycle)' }]);
  if (!found) throw new NotFound(`Weighing ${weighingId} not found on ${date} in cycle ${s.cycleId}`);
}

/** The movement a completion records, checked like any movement of the cycle (its problems under `movement.`). */
function completionMovement(caller: Caller, s: ScheduleRecord, input: MovementInput, cycle: CompletionCycle | undefined, now: Date) {
  if (!cycle) throw new Conflict(`The cycle ${s.cycleId} of schedule ${s.id} no longer exists`);
  const shape = problemsOf(input.type === 'vaccination' ? vaccinationMovementBody : medicationMovementBody, input);
  const consistency = movementProblems(input, cycle, latestAllowedDate(now));
  if (shape.length || consistency.length) throw new ValidationFailed([...shape, ...consistency].map((p) => ({ ...p, field: `movement.${p.field}` })));
  const ref = refOf(cycle);
  const record: MovementRecord = newMovement(input, ref, caller.id, now.toISOString());
  const ledger: LedgerGroup = { ref, changes: netChanges(effectsOf(input, 1)) };
  return { record, ledger };
}

/**
 * Completing an occurrence: in the order a client meets them, the date must be an occurrence and at most
 * the farm's today, `doneOn` (when named) at most the farm's today and not before the cycle's start, the data
 * fields of the schedule's kind, the date without an outcome, the weighing named of the cycle, and the
 * movement (vaccination, medication) valid in its cycle. Answers the outcome (with the day it was done:
 * adherence is judged on it), the movement with its ledger changes (dated `doneOn` when named, else the
 * occurrence's date), and the audit (a `doneOn` before today is marked back-filled).
 */
export function decideOccurrenceCompletion(caller: Caller, s: ScheduleRecord, date: string, body: CompleteOccurrenceBody, facts: CompletionFacts, now: Date) {
  occurrenceOrThrow(s, date);
  if (date > facts.today)
    throw new ValidationFailed([{ field: 'date', message: `the occurrence of ${date} is after the farm's today (${facts.today}): it cannot be done yet` }]);
  const doneOn = doneOnOf(body, facts.today, facts.cycle);
  const problems = dataProblems(s, body.data);
  if (problems.length) throw new ValidationFailed(problems);
  openOrThrow(s, date, facts.outcome);
  const weighingId = body.data?.weighingId ?? null;
  if (weighingId) weighingOrThrow(s, date, weighingId, facts.weighingFound);
  const input = movementInputOf(s, body.doneOn ?? date, body);
  const movement = input ? completionMovement(caller, s, input, facts.cycle, now) : undefined;
  const outcome: OutcomeRecord = {
    scheduleId: s.id,
    date,
    status: 'done',
    at: now.toISOString(),
    by: caller.id,
    notes: body.notes ?? null,
    reason: null,
    movementId: movement?.record.id ?? null,
    weighingId,
    doneOn,
  };
  const backFilled = doneOn < facts.today;
  const audit: AuditEvent[] = [
    {
      action: 'schedule.complete',
      targetType: 'schedule',
      targetId: s.id,
      changes: { date, status: 'done', movementId: outcome.movementId, weighingId, doneOn, ...(backFilled ? { backFilled } : {}) },
    },
  ];
  return { outcome, movement, audit };
}

/** Skipping an occurrence with a reason (the same one-outcome-per-date rule as a completion). */
export function decideOccurrenceSkip(
  caller: Caller,
  s: ScheduleRecord,
  date: string,
  body: SkipOccurrenceBody,
  existing: OccurrenceFacts['outcome'],
  now: Date,
) {
  occurrenceOrThrow(s, date);
  openOrThrow(s, date, existing);
  const outcome: OutcomeRecord = {
    scheduleId: s.id,
    date,
    status: 'skipped',
    at: now.toISOString(),
    by: caller.id,
    notes: null,
    reason: body.reason.trim(),
    movementId: null,
    weighingId: null,
    doneOn: null,
  };
  const audit: AuditEvent[] = [
    { action: 'schedule.skip', targetType: 'schedule', targetId: s.id, changes: { date, status: 'skipped', reason: outcome.reason } },
  ];
  return { outcome, audit };
}

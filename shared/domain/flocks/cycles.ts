import { ulid } from 'ulidx';
import type { CloseCycleBody, CreateCycleBody, UpdateCycleBody } from '../../../schemas/cycles.js';
import { Conflict, ValidationFailed } from '../../errors.js';
import { isoDate } from '../../platform/calendar.js';
import { ZERO_COUNTERS } from '../cycle-summary.js';
import { recordChange, type AuditEvent, type ResourceChange, upsertOf } from '../decision.js';
import { latestAllowedDate } from '../weights.js';
import type { CycleRecord, FlockRecord } from './records.js';

/** Production cycles, decided without I/O: one active at a time per flock; closing locks its movements. */

/** The refusal of a start: the flock is archived or has an active cycle (also the named conflict of a start that lost a race). */
export const flockBusy = (flock: Pick<FlockRecord, 'id' | 'status' | 'activeCycleId'>) => () =>
  new Conflict(
    flock.status === 'archived' ? `Flock ${flock.id} is archived` : `Flock ${flock.id} already has an active cycle (${flock.activeCycleId}); close it first`,
  );

const cycleChange = (c: Pick<CycleRecord, 'id' | 'version' | 'farmId'>): ResourceChange => upsertOf('cycle', c);

/** A lighting programme's steps follow each other: each from an age after the previous one's. */
function checkProgramme(programme: CycleRecord['lightingProgramme'] | undefined): void {
  const i = (programme ?? []).findIndex((s, n, all) => n > 0 && s.fromAgeDays <= all[n - 1]!.fromAgeDays);
  if (i > 0) throw new ValidationFailed([{ field: `lightingProgramme.${i}.fromAgeDays`, message: 'must be after the previous step’s age' }]);
}

/** A new cycle of an active flock without one, starting no earlier than its hatch date; the flock then points at it. */
export function decideCycleStart(flock: FlockRecord, body: CreateCycleBody, now: Date) {
  if (flock.activeCycleId || flock.status !== 'active') throw flockBusy(flock)();
  if (flock.hatchDate && body.startDate < flock.hatchDate)
    throw new ValidationFailed([{ field: 'startDate', message: `must not be before the flock's hatch date ${flock.hatchDate}` }]);
  checkProgramme(body.lightingProgramme);
  const at = now.toISOString();
  const cycle: CycleRecord = {
    ...ZERO_COUNTERS,
    id: ulid(),
    flockId: flock.id,
    farmId: flock.farmId,
    birdType: flock.birdType,
    hatchDate: flock.hatchDate,
    name: body.name?.trim() ?? null,
    status: 'active',
    startDate: body.startDate,
    endDate: null,
    closedAt: null,
    targetAgeDays: body.targetAgeDays ?? null,
    targetWeightGrams: body.targetWeightGrams ?? null,
    lightingProgramme: body.lightingProgramme ?? null,
    notes: body.notes ?? null,
    latestWeight: null,
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
  const audit: AuditEvent[] = [{ action: 'cycle.create', targetType: 'cycle', targetId: cycle.id, changes: { flockId: flock.id, startDate: cycle.startDate } }];
  const changes: ResourceChange[] = [cycleChange(cycle), { type: 'flock', id: flock.id, op: 'upsert', version: flock.version + 1, farmIds: [cycle.farmId] }];
  return { cycle, audit, changes };
}

const EDITABLE = ['name', 'targetAgeDays', 'targetWeightGrams', 'lightingProgramme', 'notes'] as const;

/** An edit of a cycle's own fields, never its counters (its version already compared with the client's). */
export function decideCycleUpdate(current: CycleRecord, body: UpdateCycleBody, now: Date) {
  checkProgramme(body.lightingProgramme);
  const edited: CycleRecord = { ...current };
  for (const f of EDITABLE) if (body[f] !== undefined) (edited as unknown as Record<string, unknown>)[f] = body[f];
  const change = recordChange(current, edited, EDITABLE, now);
  const audit: AuditEvent[] = [{ action: 'cycle.update', targetType: 'cycle', targetId: current.id, changes: change.changes }];
  return { change, audit, changes: [cycleChange(change.next)] };
}

/**
 * Closing an active cycle on `endDate` (default: today in UTC), within its start and today. The close is
 * not decided on the cycle's version (movements may move its counters meanwhile): the changes carry none.
 */
export function decideCycleClose(cycle: CycleRecord, body: CloseCycleBody, now: Date) {
  if (cycle.status === 'closed') throw new Conflict(`Cycle ${cycle.id} is already closed`);
  const endDate = body.endDate ?? isoDate(now);
  if (endDate < cycle.startDate) throw new ValidationFailed([{ field: 'endDate', message: `must not be before the start date ${cycle.startDate}` }]);
  if (endDate > latestAllowedDate(now)) throw new ValidationFailed([{ field: 'endDate', message: 'must not be in the future' }]);
  const audit: AuditEvent[] = [
    {
      action: 'cycle.close',
      targetType: 'cycle',
      targetId: cycle.id,
      changes: { status: { from: 'active', to: 'closed' }, endDate, reason: body.reason ?? null, movementsLocked: 'automatic' },
    },
  ];
  const changes: ResourceChange[] = [
    { type: 'cycle', id: cycle.id, op: 'upsert', farmIds: [cycle.farmId] },
    { type: 'flock', id: cycle.flockId, op: 'upsert', farmIds: [cycle.farmId] },
  ];
  return { endDate, closedAt: now.toISOString(), audit, changes };
}

import { flockNotFound } from '../../domain/references.js';
import { ulid } from 'ulidx';
import { commit } from '../../db/commit.js';
import { sampleCreate, samplesPage, withdrawalWindowsPage, type SampleRecord } from '../../db/compliance.js';
import { getCycle } from '../../db/cycles.js';
import { getFlock } from '../../db/flocks.js';
import type { Caller } from '../../domain/caller.js';
import type { CommandContext } from '../../domain/command.js';
import { isActive, type WithdrawalWindow } from '../../domain/compliance/withdrawals.js';
import { visibleTo } from '../../domain/farm-access.js';
import { latestAllowedDate } from '../../domain/weights.js';
import { ValidationFailed } from '../../errors.js';
import type { CreateSampleBody, ListSamplesQuery, ListWithdrawalsQuery } from '../../../schemas/compliance.js';
import { farmOfListRequest } from '../farms.js';
import { cycleNotFound } from '../references.js';
import { idempotentCommand } from '../idempotency.js';
import { daysBetween, isoDate } from '../../platform/calendar.js';

/** Compliance reads and records (docs/domain.md, "Compliance"); the sale check itself is shared/domain/compliance/withdrawals.ts (`judgeSale`). */

const todayUtc = (now = new Date()) => isoDate(now);

export function toWindowDto(w: WithdrawalWindow, today: string) {
  const active = isActive(w, today);
  return {
    movementId: w.movementId,
    farmId: w.farmId,
    flockId: w.flockId,
    cycleId: w.cycleId,
    product: w.product,
    treatmentStart: w.date,
    treatmentEnd: w.treatmentEnd,
    treatmentDays: w.treatmentDays,
    withdrawalDays: w.withdrawalDays,
    endsOn: w.endDate,
    active,
    daysLeft: active ? daysBetween(w.date > today ? w.date : today, w.endDate) + 1 : 0,
  };
}

/** A page of a farm's withdrawal windows (only those still running with `active=true`), by last restricted day. */
export async function listWithdrawalsFor(user: Caller, query: ListWithdrawalsQuery, now = new Date()) {
  const farmId = await farmOfListRequest(user, query.farmId, { flockId: query.flockId });
  const today = todayUtc(now);
  const limit = query.limit ?? 25;
  const page = await withdrawalWindowsPage(farmId, { ...(query.active ? { from: today } : {}), flockId: query.flockId, limit, cursor: query.cursor });
  return { items: page.items.map((w) => toWindowDto(w, today)), limit, nextCursor: page.nextCursor };
}

export function toSampleDto(s: SampleRecord) {
  return { ...s, result: s.result ?? 'pending' };
}

/** The flock (of a farm the caller sees) and the cycle a sample belongs to: the one named, else the flock's active one. */
async function sampledCycle(caller: Caller, flockId: string, cycleId: string | undefined) {
  const flock = visibleTo(caller, await getFlock(flockId), () => flockNotFound(flockId));
  const id = cycleId ?? flock.activeCycleId;
  if (!id) return { flock, cycle: undefined };
  const cycle = await getCycle(flockId, id);
  if (!cycle) throw cycleNotFound(flockId, id);
  return { flock, cycle };
}

/** Records a Salmonella sample of a flock (Reg. (EC) 2160/2003); audited, idempotent with a key. */
export async function createSampleFor(ctx: CommandContext, body: CreateSampleBody) {
  const { flock, cycle } = await sampledCycle(ctx.caller, body.flockId, body.cycleId);
  return idempotentCommand(ctx, `sample:${flock.id}`, body, async (ctx) => {
    const problems = [];
    if (body.date > latestAllowedDate(ctx.now)) problems.push({ field: 'date', message: 'must not be in the future' });
    if (cycle && body.date < cycle.startDate) problems.push({ field: 'date', message: `must not be before the cycle's start date ${cycle.startDate}` });
    if (problems.length) throw new ValidationFailed(problems);
    const sample: SampleRecord = {
      id: ulid(),
      farmId: flock.farmId,
      flockId: flock.id,
      cycleId: cycle?.id ?? null,
      date: body.date,
      kind: body.kind,
      laboratory: body.laboratory ?? null,
      result: body.result ?? 'pending',
      notes: body.notes ?? null,
      createdAt: ctx.now.toISOString(),
      createdBy: ctx.caller.id,
      version: 1,
    };
    const response = { created: true, message: 'Sample recorded', data: toSampleDto(sample) };
    await commit(ctx, {
      writes: [sampleCreate(sample)],
      audit: [{ action: 'compliance.sample.create', targetType: 'sample', targetId: sample.id, changes: { ...sample } }],
      changes: [{ type: 'sample', id: sample.id, op: 'upsert', version: 1 }],
      response,
    });
    return response;
  });
}

/** A page of a farm's samples (or one flock's), by flock then date. */
export async function listSamplesFor(user: Caller, query: ListSamplesQuery) {
  const farmId = await farmOfListRequest(user, query.farmId, { flockId: query.flockId });
  const limit = query.limit ?? 25;
  const page = await samplesPage(farmId, { flockId: query.flockId, limit, cursor: query.cursor });
  return { items: page.items.map(toSampleDto), limit, nextCursor: page.nextCursor };
}

import { flockNotFound } from '../../domain/references.js';
import { commit } from '../../db/commit.js';
import { sampleCreate, samplesPage, withdrawalWindowsPage } from '../../db/compliance.js';
import { getCycle } from '../../db/cycles.js';
import { getFlock } from '../../db/flocks.js';
import type { Caller } from '../../domain/caller.js';
import type { CommandContext } from '../../domain/command.js';
import { decideSampleCreate, type SampleRecord } from '../../domain/compliance/samples.js';
import { isActive, type WithdrawalWindow } from '../../domain/compliance/withdrawals.js';
import { visibleTo } from '../../domain/farm-access.js';
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
    eggWithdrawalDays: w.eggWithdrawalDays,
    meatEndsOn: w.meatEndDate,
    eggEndsOn: w.eggEndDate,
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
    const { sample, audit, changes } = decideSampleCreate(ctx.caller, flock, cycle, body, ctx.now);
    const response = { created: true, message: 'Sample recorded', data: toSampleDto(sample) };
    await commit(ctx, { writes: [sampleCreate(sample)], audit, changes, response });
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

import { ulid } from 'ulidx';
import { visibleTo } from '../../domain/farm-access.js';
import {
  agesAt,
  confidenceOf,
  dayStats,
  ingestDay,
  isImplausible,
  latestAllowedDate,
  manualInputProblems,
  manualStats,
  phaseOf,
  readingDate,
  type RejectReason,
} from '../../domain/weights.js';
import { commit, type Write } from '../../db/commit.js';
import type { CycleRecord } from '../../db/cycles.js';
import { deviceNotFound } from '../../db/devices.js';
import { getFarmAndHouse, houseNotFound } from '../../db/farms.js';
import { getFlock } from '../../db/flocks.js';
import { cycleIsOpen, listWeights, scaleState, weightWrites, type WeightRecord } from '../../db/weights.js';
import { Conflict, NotFound, ValidationFailed } from '../../errors.js';
import type { Caller } from '../../domain/caller.js';
import type { CommandContext } from '../../domain/command.js';
import { scopedCycle, scopedCycleHead } from './cycles.js';
import { farmPeriodDays } from '../periods.js';
import { idempotentCommand } from '../idempotency.js';
import type { ListWeightsQuery, RecordWeightBody, ScaleIngestBody } from '../../../schemas/weights.js';
import { alarmsOnFlockData } from '../new-data.js';
import { pause, type RetryPolicy } from '../../platform/retry.js';

/**
 * Body weights of a cycle: manual weighing sessions, automatic scale batches, and the
 * cycle's `latestWeight` (the summary's FCR), always written in the same transaction as the session.
 */

type CycleView = Pick<CycleRecord, 'startDate' | 'hatchDate' | 'birdType'>;

/**
 * A weighing as answered. `flockHouseId`: the flock's house, for a weighing stored without one (manual
 * weighings were, before they took the flock's house when written).
 */
export function toWeightDto(r: WeightRecord, cycle: CycleView, flockHouseId: string | null = null) {
  const { daysInCycle, ageDays } = agesAt(r.date, cycle);
  return {
    id: r.id,
    date: r.date,
    grams: r.grams,
    method: r.method,
    confidence: confidenceOf({ method: r.method, n: r.sampleSize, cv: r.cv }),
    phase: phaseOf(cycle.birdType, ageDays),
    daysInCycle,
    ageDays,
    sampleSize: r.sampleSize,
    sd: r.sd,
    cv: r.cv,
    uniformityPct: r.uniformityPct,
    deviceId: r.deviceId,
    houseId: r.houseId ?? flockHouseId,
    notes: r.notes,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export async function listWeightsFor(user: Caller, flockId: string, cycleId: string, query: ListWeightsQuery) {
  const { flock, cycle } = await scopedCycleHead(user, flockId, cycleId);
  const { from, to } = await farmPeriodDays(cycle.farmId, query);
  const limit = query.limit ?? 500;
  const page = await listWeights(cycleId, { limit, cursor: query.cursor, from, to });
  return { items: page.items.map((r) => toWeightDto(r, cycle, flock.houseId)), nextCursor: page.nextCursor, limit };
}

/** Does a weighing of `date` become the cycle's latest weight? Same date or newer: yes (the last one written wins). */
const takesLatest = (cycle: CycleRecord, date: string) => !cycle.latestWeight || date >= cycle.latestWeight.date;

/** A condition on the cycle failed: it was closed or got a newer weight meanwhile. Read it again and retry. */
class StaleRead extends Conflict {
  constructor() {
    super('The cycle changed while the weighing was written; retry');
  }
}
const stale = () => new StaleRead();
/** After a lost race, read again and retry: 8 tries in all, short jittered pauses (up to 10 ms, 20 ms, … 70 ms) so racing writers spread out. */
const WRITE_RETRY: RetryPolicy = { attempts: 8, baseMs: 5, capMs: 70 };
const closed = (cycleId: string) => new Conflict(`Cycle ${cycleId} is closed; it takes no new weighings`);

function checkManualDate(date: string, cycle: CycleRecord, now: Date): void {
  if (date < cycle.startDate) throw new ValidationFailed([{ field: 'date', message: `must not be before the cycle's start date ${cycle.startDate}` }]);
  if (date > latestAllowedDate(now)) throw new ValidationFailed([{ field: 'date', message: 'must not be in the future' }]);
}

/** A manual weighing session: the record and the cycle's latest weight in one transaction; idempotent with a key. */
export async function recordWeightFor(ctx: CommandContext, flockId: string, cycleId: string, body: RecordWeightBody) {
  const user = ctx.caller;
  // Scope first: a record of another farm is NotFound whatever the body says. The flock names the house weighed in.
  const head = await scopedCycleHead(user, flockId, cycleId);
  let cycle = head.cycle;
  const houseId = head.flock.houseId;
  const problems = manualInputProblems(body);
  if (problems.length) throw new ValidationFailed(problems);
  checkManualDate(body.date, cycle, ctx.now);
  const stats = manualStats(body);
  return idempotentCommand(ctx, `weight:${cycleId}`, body, async (ctx) => {
    const id = ulid();
    const now = ctx.now.toISOString();
    for (let attempt = 1; ; attempt++) {
      if (cycle.status !== 'active') throw closed(cycleId);
      const record: WeightRecord = {
        id,
        cycleId,
        flockId,
        farmId: cycle.farmId,
        date: body.date,
        method: 'manual_sample',
        deviceId: null,
        houseId,
        grams: stats.mean,
        sampleSize: stats.n,
        sd: stats.sd,
        cv: stats.cv,
        uniformityPct: stats.uniformityPct,
        notes: body.notes ?? null,
        ...(body.samples ? { samples: body.samples } : {}),
        createdAt: now,
        createdBy: user.id,
        updatedAt: now,
        version: 1,
      };
      const latest = takesLatest(cycle, body.date);
      const response = { created: true, message: 'Weight recorded', data: { ...toWeightDto(record, cycle), latestWeightUpdated: latest } };
      try {
        await commit(ctx, {
          writes: [
            weightWrites.session(record, undefined, stale),
            latest ? weightWrites.latest(cycle, { date: body.date, grams: stats.mean }, now, stale) : cycleIsOpen(cycle, stale),
          ],
          changes: [{ type: 'weight', id, op: 'upsert', version: 1 }],
          response,
        });
        await alarmsOnFlockData({ farmId: cycle.farmId, flockId }, body.date);
        return response;
      } catch (err) {
        if (!(err instanceof StaleRead)) throw err;
        if (attempt >= WRITE_RETRY.attempts) throw new Conflict('The cycle kept changing while the weighing was written; retry');
        await pause(attempt, WRITE_RETRY);
        cycle = await scopedCycle(user, flockId, cycleId);
      }
    }
  });
}

// ---------------------------------------------------------------------------------------------------
// Automatic scales

/** At most this many dates per batch: one session per date, the cycle and the idempotent response fit one transaction (100 items). */
export const MAX_BATCH_DATES = 98;
/** Clock skew tolerated before a reading counts as being from the future. */
const FUTURE_SKEW_MS = 5 * 60_000;

interface DayReport {
  date: string;
  accepted: number;
  rejected: number;
  session: ReturnType<typeof toWeightDto> | null;
}

/**
 * A batch of readings from one automatic scale: grouped per date (the date written in each timestamp)
 * into one session per device and date, merged with what earlier batches stored for that date, with
 * implausible readings, outliers and readings outside the cycle rejected and counted. The sessions, the
 * cycle's latest weight and the idempotent response are one transaction.
 */
export async function ingestScaleBatch(ctx: CommandContext, body: ScaleIngestBody) {
  const user = ctx.caller;
  const dates = [...new Set(body.weighings.map((w) => readingDate(w.at)))].sort();
  if (dates.length > MAX_BATCH_DATES) {
    throw new ValidationFailed([
      { field: 'weighings', message: `span ${dates.length} dates; at most ${MAX_BATCH_DATES} per batch (send older readings in another batch)` },
    ]);
  }
  const flockMissing = () => new NotFound(`Flock ${body.flockId} not found`);
  let cycleId = body.cycleId;
  if (!cycleId) {
    const flock = visibleTo(user, await getFlock(body.flockId), flockMissing);
    if (!flock.activeCycleId) throw new Conflict(`Flock ${body.flockId} has no active cycle; start one or send cycleId`);
    cycleId = flock.activeCycleId;
  }
  const resolvedCycleId = cycleId;
  const load = async () => {
    const state = await scaleState(body.flockId, resolvedCycleId, body.deviceId, dates);
    const flock = visibleTo(user, state.flock, flockMissing);
    const cycle = visibleTo(user, state.cycle, () => new NotFound(`Cycle ${resolvedCycleId} of flock ${body.flockId} not found`));
    // the scale: a device registered in the flock's farm (another farm's, or an id never registered, is a missing one)
    if (state.device?.farmId !== flock.farmId) throw deviceNotFound(body.deviceId);
    return { flock, cycle, days: state.days, device: state.device };
  };
  let state = await load();
  if (!state.device.metrics.includes('birdWeightGrams'))
    throw new ValidationFailed([
      { field: 'deviceId', message: `device ${body.deviceId} (${state.device.kind}) does not weigh birds: its metrics have no birdWeightGrams` },
    ]);
  if (body.houseId && body.houseId !== state.flock.houseId) {
    // a house of the flock's farm (else the 404 of a missing one), and the flock's own when it has one
    const { house } = await getFarmAndHouse(state.flock.farmId, body.houseId);
    if (!house) throw houseNotFound(body.houseId);
    if (state.flock.houseId) throw new ValidationFailed([{ field: 'houseId', message: `flock ${body.flockId} is in house ${state.flock.houseId}` }]);
  }
  const houseId = body.houseId ?? state.flock.houseId ?? null;

  return idempotentCommand(ctx, `scale:${body.flockId}:${body.deviceId}`, body, async (ctx) => {
    const nowMs = ctx.now.getTime();
    const now = ctx.now.toISOString();
    for (let attempt = 1; ; attempt++) {
      const { cycle } = state;
      if (cycle.status !== 'active') throw closed(cycle.id);
      const rejectedBy: Record<RejectReason, number> = { outsideCycle: 0, implausible: 0, outlier: 0 };
      const perDate = new Map<string, { plausible: number[]; rejected: number }>(dates.map((d) => [d, { plausible: [], rejected: 0 }]));
      for (const w of body.weighings) {
        const date = readingDate(w.at);
        const bucket = perDate.get(date)!;
        const at = Date.parse(w.at);
        const reason: RejectReason | null =
          !Number.isFinite(at) || at > nowMs + FUTURE_SKEW_MS || date < cycle.startDate ? 'outsideCycle' : isImplausible(w.grams) ? 'implausible' : null;
        if (reason) {
          rejectedBy[reason] += 1;
          bucket.rejected += 1;
        } else bucket.plausible.push(w.grams);
      }
      const sessions: Array<{ record: WeightRecord; read: number | undefined }> = [];
      const days: DayReport[] = [];
      for (const date of dates) {
        const { plausible, rejected } = perDate.get(date)!;
        const stored = state.days.get(date);
        const ingest = ingestDay(stored?.day, plausible);
        rejectedBy.outlier += ingest.outliers;
        let session: WeightRecord | undefined = stored;
        if (ingest.accepted.length > 0) {
          const merged = ingest.merged;
          const s = dayStats(merged);
          session = {
            id: body.deviceId,
            cycleId: cycle.id,
            flockId: cycle.flockId,
            farmId: cycle.farmId,
            date,
            method: 'automatic_scale',
            deviceId: body.deviceId,
            houseId,
            grams: s.mean,
            sampleSize: s.n,
            sd: s.sd,
            cv: s.cv,
            uniformityPct: s.uniformityPct,
            notes: null,
            day: merged,
            createdAt: stored?.createdAt ?? now,
            createdBy: stored?.createdBy ?? user.id,
            updatedAt: now,
            version: (stored?.version ?? 0) + 1,
          };
          sessions.push({ record: session, read: stored?.version });
        }
        days.push({
          date,
          accepted: ingest.accepted.length,
          rejected: rejected + ingest.outliers,
          session: session ? toWeightDto(session, cycle, state.flock.houseId) : null,
        });
      }
      const newest = sessions.at(-1)?.record;
      const latest = newest !== undefined && takesLatest(cycle, newest.date);
      const accepted = days.reduce((a, d) => a + d.accepted, 0);
      const response = {
        created: false,
        message: `${accepted} of ${body.weighings.length} reading(s) accepted`,
        data: {
          deviceId: body.deviceId,
          flockId: cycle.flockId,
          cycleId: cycle.id,
          accepted,
          rejected: body.weighings.length - accepted,
          rejectedBy,
          latestWeightUpdated: latest,
          days,
        },
      };
      const writes: Write[] = sessions.map((w) => weightWrites.session(w.record, w.read, stale));
      if (newest) writes.push(latest ? weightWrites.latest(cycle, { date: newest.date, grams: newest.grams }, now, stale) : cycleIsOpen(cycle, stale));
      if (writes.length === 0 && !ctx.remember) return response; // nothing accepted, no Idempotency-Key: nothing to write
      try {
        await commit(ctx, {
          writes,
          changes: sessions.map((w) => ({ type: 'weight', id: `${w.record.id}@${w.record.date}`, op: 'upsert' as const, version: w.record.version })),
          response,
        });
        // each day whose session changed is judged by the alarms (a scale batch holds a day or two)
        for (const w of sessions) await alarmsOnFlockData({ farmId: cycle.farmId, flockId: cycle.flockId }, w.record.date);
        return response;
      } catch (err) {
        if (!(err instanceof StaleRead)) throw err;
        if (attempt >= WRITE_RETRY.attempts) throw new Conflict('The scale’s sessions kept changing concurrently; retry the batch');
        await pause(attempt, WRITE_RETRY);
        state = await load();
      }
    }
  });
}

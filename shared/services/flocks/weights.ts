import { ulid } from 'ulidx';
import { visibleTo } from '../../domain/farm-access.js';
import { agesAt, confidenceOf, phaseOf } from '../../domain/weights.js';
import {
  activeCycleOf,
  decideManualWeighing,
  decideScaleBatch,
  judgeManualWeighing,
  judgeScale,
  scaleBatchDates,
  scaleHouse,
} from '../../domain/flocks/weighings.js';
import { cycleNotFound, flockNotFound } from '../../domain/references.js';
import { commit, type Write } from '../../db/commit.js';
import type { CycleRecord } from '../../domain/flocks/records.js';
import { deviceNotFound } from '../../db/devices.js';
import { getFarmAndHouse } from '../../db/farms.js';
import { getFlock } from '../../db/flocks.js';
import { cycleIsOpen, listWeights, scaleState, weightWrites } from '../../db/weights.js';
import type { WeightRecord } from '../../domain/flocks/records.js';
import { Conflict } from '../../errors.js';
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

/** A condition on the cycle failed: it was closed or got a newer weight meanwhile. Read it again and retry. */
class StaleRead extends Conflict {
  constructor() {
    super('The cycle changed while the weighing was written; retry');
  }
}
const stale = () => new StaleRead();
/** After a lost race, read again and retry: 8 tries in all, short jittered pauses (up to 10 ms, 20 ms, … 70 ms) so racing writers spread out. */
const WRITE_RETRY: RetryPolicy = { attempts: 8, baseMs: 5, capMs: 70 };

/** A manual weighing session: the record and the cycle's latest weight in one transaction; idempotent with a key. */
export async function recordWeightFor(ctx: CommandContext, flockId: string, cycleId: string, body: RecordWeightBody) {
  // Scope first: a record of another farm is NotFound whatever the body says. The flock names the house weighed in.
  const head = await scopedCycleHead(ctx.caller, flockId, cycleId);
  let cycle = head.cycle;
  const stats = judgeManualWeighing(cycle, body, ctx.now);
  return idempotentCommand(ctx, `weight:${cycleId}`, body, async (ctx) => {
    const facts = { id: ulid(), houseId: head.flock.houseId, stats, callerId: ctx.caller.id, now: ctx.now };
    const now = ctx.now.toISOString();
    for (let attempt = 1; ; attempt++) {
      const { record, latest, changes } = decideManualWeighing(cycle, body, facts);
      const response = { created: true, message: 'Weight recorded', data: { ...toWeightDto(record, cycle), latestWeightUpdated: latest } };
      try {
        await commit(ctx, {
          writes: [
            weightWrites.session(record, undefined, stale),
            latest ? weightWrites.latest(cycle, { date: body.date, grams: record.grams }, now, stale) : cycleIsOpen(cycle, stale),
          ],
          changes,
          response,
        });
        await alarmsOnFlockData({ farmId: cycle.farmId, flockId }, body.date);
        return response;
      } catch (err) {
        if (!(err instanceof StaleRead)) throw err;
        if (attempt >= WRITE_RETRY.attempts) throw new Conflict('The cycle kept changing while the weighing was written; retry');
        await pause(attempt, WRITE_RETRY);
        // a second read after deciding: the cycle was closed or got a newer weight meanwhile, so the decision is taken again
        cycle = await scopedCycle(ctx.caller, flockId, cycleId);
      }
    }
  });
}

// ---------------------------------------------------------------------------------------------------
// Automatic scales

/**
 * A batch of readings from one automatic scale: grouped per date (the date written in each timestamp)
 * into one session per device and date, merged with what earlier batches stored for that date, with
 * implausible readings, outliers and readings outside the cycle rejected and counted. The sessions, the
 * cycle's latest weight and the idempotent response are one transaction.
 */
export async function ingestScaleBatch(ctx: CommandContext, body: ScaleIngestBody) {
  const user = ctx.caller;
  const dates = scaleBatchDates(body);
  const flockMissing = () => flockNotFound(body.flockId);
  const cycleId = body.cycleId ?? activeCycleOf(visibleTo(user, await getFlock(body.flockId), flockMissing));
  const load = async () => {
    const state = await scaleState(body.flockId, cycleId, body.deviceId, dates);
    const flock = visibleTo(user, state.flock, flockMissing);
    const cycle = visibleTo(user, state.cycle, () => cycleNotFound(body.flockId, cycleId));
    // the scale: a device registered in the flock's farm (another farm's, or an id never registered, is a missing one)
    if (state.device?.farmId !== flock.farmId) throw deviceNotFound(body.deviceId);
    return { flock, cycle, days: state.days, device: state.device };
  };
  let state = await load();
  judgeScale(body.deviceId, state.device);
  // another house than the flock's: read whether the flock's farm has it
  const houseFound =
    body.houseId && body.houseId !== state.flock.houseId ? (await getFarmAndHouse(state.flock.farmId, body.houseId)).house !== undefined : undefined;
  const houseId = scaleHouse(body, state.flock, houseFound);

  return idempotentCommand(ctx, `scale:${body.flockId}:${body.deviceId}`, body, async (ctx) => {
    const now = ctx.now.toISOString();
    for (let attempt = 1; ; attempt++) {
      const { cycle } = state;
      const decision = decideScaleBatch(cycle, body, { dates, stored: state.days, houseId, callerId: user.id, now: ctx.now });
      const { sessions, newest, latest, accepted } = decision;
      const response = {
        created: false,
        message: `${accepted} of ${body.weighings.length} reading(s) accepted`,
        data: {
          deviceId: body.deviceId,
          flockId: cycle.flockId,
          cycleId: cycle.id,
          accepted,
          rejected: body.weighings.length - accepted,
          rejectedBy: decision.rejectedBy,
          latestWeightUpdated: latest,
          days: decision.days.map((d) => ({ ...d, session: d.session ? toWeightDto(d.session, cycle, state.flock.houseId) : null })),
        },
      };
      const writes: Write[] = sessions.map((w) => weightWrites.session(w.record, w.read, stale));
      if (newest) writes.push(latest ? weightWrites.latest(cycle, { date: newest.date, grams: newest.grams }, now, stale) : cycleIsOpen(cycle, stale));
      if (writes.length === 0 && !ctx.remember) return response; // nothing accepted, no Idempotency-Key: nothing to write
      try {
        await commit(ctx, { writes, changes: decision.changes, response });
        // each day whose session changed is judged by the alarms (a scale batch holds a day or two)
        for (const w of sessions) await alarmsOnFlockData({ farmId: cycle.farmId, flockId: cycle.flockId }, w.record.date);
        return response;
      } catch (err) {
        if (!(err instanceof StaleRead)) throw err;
        if (attempt >= WRITE_RETRY.attempts) throw new Conflict('The scale’s sessions kept changing concurrently; retry the batch');
        await pause(attempt, WRITE_RETRY);
        // a second read after deciding: another batch changed the device's sessions or the cycle meanwhile
        state = await load();
      }
    }
  });
}

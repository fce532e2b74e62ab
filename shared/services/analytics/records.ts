import { ageAdjustedWeight, DEFAULT_REFERENCE_AGE } from '../../domain/analytics-age-adjusted.js';
import {
  activeCycleOf,
  decideWaterReading,
  eggProductionMovement,
  eggProductionWrite,
  recordDay,
  type WaterReadingRecord,
} from '../../domain/analytics/records.js';
import { getDailyRecord } from '../../db/daily-records.js';
import { listMovements } from '../../db/movements.js';
import { submitDailyRecord } from '../flocks/daily-records.js';
import { updateMovement } from '../movements/change-movement.js';
import type { DailyRecordBody } from '../../../schemas/daily-records.js';
import type { UpdateMovementBody } from '../../../schemas/movements.js';
import { eggCollectionMovementBody } from '../../../schemas/compiled/analytics.js';
import { assessPh } from '../../domain/water-quality.js';
import { commit } from '../../db/commit.js';
import { waterReadingWrites } from '../../db/water-readings.js';
import { cycleIsOpen } from '../../db/weights.js';
import { Conflict } from '../../errors.js';
import type { CommandContext } from '../../domain/command.js';
import { currentAnalyticsConfig } from './config.js';
import { scopedCycle } from '../flocks/cycles.js';
import { scopedFlock } from '../flocks/flocks.js';
import { idempotentCommand } from '../idempotency.js';
import { recordMovement } from '../movements/record-movement.js';
import { recordWeightFor } from '../flocks/weights.js';
import type { ThresholdsConfig } from '../../../schemas/analytics-config.js';
import type { AgeAdjustedDataBody, EggProductionBody, WaterReadingBody } from '../../../schemas/analytics.js';

/**
 * The Analytics V2 writes of the interface contract (service version 2.0.0). Each is a record of the
 * flock's ACTIVE cycle, so it shows in that cycle's KPIs: egg production is an egg_collection movement
 * (ledger, egg stock, daily rollup); a water reading is kept with its pH on the day's rollup.
 */

/**
 * A day's egg production: a new egg_collection, or the correction of what the day already holds (its daily
 * record, or the egg production recorded before): one day, one count of eggs (eggProductionWrite).
 */
export async function recordEggProduction(ctx: CommandContext, body: EggProductionBody) {
  const flock = await scopedFlock(ctx.caller, body.flockId);
  const { cycleId, input } = eggProductionMovement(flock, body, ctx.now);
  // one Idempotency-Key for the whole use case: whichever write it turns out to be keeps its answer
  // (`remember`), so a retry replays it instead of correcting the day with what it just wrote
  const result = await idempotentCommand(ctx, `egg-production:${flock.id}`, input, async (outer) => {
    const inner = { ...outer, idempotencyKey: undefined };
    const [record, collections] = await Promise.all([
      getDailyRecord(cycleId, input.date),
      listMovements(cycleId, { limit: 100, type: 'egg_collection', from: input.date, to: input.date }).then((p) => p.items),
    ]);
    const write = eggProductionWrite(input, { record, collections });
    if (write.kind === 'create') return recordMovement(inner, flock.id, cycleId, input);
    if (write.kind === 'daily') {
      const saved = await submitDailyRecord(inner, flock.id, cycleId, write.form as DailyRecordBody);
      return { ...saved, created: false, message: `Egg production of ${input.date} corrected: it replaces the eggs of that day's daily record` };
    }
    // the edited movement is an egg_collection: its own validator, not every type's (a smaller bundle for this route)
    const corrected = await updateMovement(inner, flock.id, cycleId, write.movementId, write.edit as UpdateMovementBody, eggCollectionMovementBody);
    return {
      created: false,
      message: `Egg production of ${input.date} corrected: it replaces the eggs recorded before (movement ${write.movementId})`,
      data: corrected.movement,
      ...(corrected.warnings.length ? { warnings: corrected.warnings } : {}),
    };
  });
  // a day's record answers with its movements: the egg production is its egg_collection
  const { movements } = (result.data ?? {}) as { movements?: Array<{ type: string }> };
  return movements ? { ...result, data: movements.find((m) => m.type === 'egg_collection') } : result;
}

export function toWaterReadingDto(r: WaterReadingRecord, thresholds: ThresholdsConfig) {
  return { ...r, assessment: assessPh(r.pH, thresholds) };
}

export async function recordWaterReading(ctx: CommandContext, body: WaterReadingBody) {
  const flock = await scopedFlock(ctx.caller, body.flockId);
  const cycleId = activeCycleOf(flock, 'water readings');
  return idempotentCommand(ctx, `water-reading:${flock.id}`, body, async (ctx) => {
    const [cycle, { config }] = await Promise.all([scopedCycle(ctx.caller, flock.id, cycleId), currentAnalyticsConfig()]);
    const { record, changes } = decideWaterReading(ctx.caller, flock, cycle, body, ctx.now);
    const response = { created: true, message: 'Water reading recorded', data: toWaterReadingDto(record, config.thresholds) };
    await commit(ctx, {
      writes: [...waterReadingWrites(record), cycleIsOpen(cycle, () => new Conflict(`Cycle ${cycleId} is closed; it takes no new readings`))],
      changes,
      response,
    });
    return response;
  });
}

/**
 * Age-adjusted data: a body weight observed at the flock's age, stored as a weighing of the active cycle
 * (so FCR, ADG, EPEF and the breed comparison use it) and answered with its standard and its value at a
 * reference age. A retry with the same Idempotency-Key replays the weighing and answers the same figures.
 */
export async function recordAgeAdjustedData(ctx: CommandContext, flockId: string, body: AgeAdjustedDataBody) {
  const flock = await scopedFlock(ctx.caller, flockId);
  const cycleId = activeCycleOf(flock, 'age-adjusted data');
  const date = recordDay(body.date, ctx.now);
  const stored = await recordWeightFor(ctx, flockId, cycleId, {
    date,
    grams: body.value,
    ...(body.sampleSize ? { sampleSize: body.sampleSize } : {}),
    ...(body.notes ? { notes: body.notes } : {}),
  });
  const weighing = stored.data as { ageDays: number };
  const { ageDays } = weighing;
  const referenceAgeDays = body.referenceAgeDays ?? DEFAULT_REFERENCE_AGE[flock.birdType];
  const adjusted = ageAdjustedWeight({ grams: body.value, ageDays, breed: flock.breed, birdType: flock.birdType, referenceAgeDays });
  return {
    created: stored.created,
    replayed: stored.replayed,
    message: 'Age-adjusted data recorded',
    data: { metric: body.metric ?? 'body_weight_g', value: body.value, unit: 'g', date, ageDays, ...adjusted, weighing },
  };
}

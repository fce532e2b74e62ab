import { ulid } from 'ulidx';
import { ageAdjustedWeight, DEFAULT_REFERENCE_AGE } from '../domain/analytics-age-adjusted.js';
import { recordDateProblems } from '../domain/ledger.js';
import { latestAllowedDate } from '../domain/weights.js';
import { assessPh } from '../domain/water-quality.js';
import type { FlockRecord } from '../db/flocks.js';
import { writeWaterReading, type WaterReadingRecord } from '../db/water-readings.js';
import { Conflict, ValidationFailed } from '../errors.js';
import type { Caller } from '../domain/caller.js';
import { commandContext } from '../domain/command.js';
import { currentAnalyticsConfig } from './analytics-config.js';
import { scopedCycle } from './cycles.js';
import { scopedFlock } from './flocks.js';
import { DuplicateRequest, idempotent } from './idempotency.js';
import { createMovementFor } from './movements.js';
import { recordWeightFor } from './weights.js';
import type { ThresholdsConfig } from '../../schemas/analytics-config.js';
import type { AgeAdjustedDataBody, EggProductionBody, WaterReadingBody } from '../../schemas/analytics.js';
import type { MovementInput } from '../../schemas/movements.js';
import { isoDate } from '../platform/calendar.js';

/**
 * The Analytics V2 writes of the interface contract (service version 2.0.0). Each is a record of the
 * flock's ACTIVE cycle, so it shows in that cycle's KPIs: egg production is an egg_collection movement
 * (ledger, egg stock, daily rollup); a water reading is kept with its pH on the day's rollup.
 */
const today = (now = new Date()) => isoDate(now);

function activeCycleOf(flock: FlockRecord, what: string): string {
  if (!flock.activeCycleId) throw new Conflict(`Flock ${flock.id} has no active cycle; start one before recording ${what}`);
  return flock.activeCycleId;
}

export async function recordEggProduction(user: Caller, body: EggProductionBody, idempotencyKey: string | undefined) {
  const flock = await scopedFlock(user, body.flockId);
  if (flock.birdType === 'broiler') throw new Conflict(`Flock ${flock.id} is a broiler flock; egg production is recorded for layers and breeders`);
  const { flockId, date, ...fields } = body;
  const input = { type: 'egg_collection', date: date ?? today(), ...fields } as MovementInput;
  return createMovementFor(user, flockId, activeCycleOf(flock, 'egg production'), input, idempotencyKey);
}

export function toWaterReadingDto(r: WaterReadingRecord, thresholds: ThresholdsConfig) {
  return { ...r, assessment: assessPh(r.pH, thresholds) };
}

export async function recordWaterReading(user: Caller, body: WaterReadingBody, idempotencyKey: string | undefined) {
  const flock = await scopedFlock(user, body.flockId);
  const cycleId = activeCycleOf(flock, 'water readings');
  return idempotent(user.id, idempotencyKey, `water-reading:${flock.id}`, body, async (remember) => {
    const [cycle, { config }] = await Promise.all([scopedCycle(user, flock.id, cycleId), currentAnalyticsConfig()]);
    const now = new Date();
    const date = body.date ?? today(now);
    const problems = recordDateProblems(date, cycle, latestAllowedDate(now));
    if (problems.length) throw new ValidationFailed(problems);
    const record: WaterReadingRecord = {
      id: ulid(),
      flockId: flock.id,
      cycleId,
      farmId: flock.farmId,
      date,
      pH: body.pH,
      temperatureC: body.temperatureC ?? null,
      tdsPpm: body.tdsPpm ?? null,
      chlorinePpm: body.chlorinePpm ?? null,
      orpMv: body.orpMv ?? null,
      hardnessPpm: body.hardnessPpm ?? null,
      source: body.source ?? null,
      notes: body.notes ?? null,
      createdAt: now.toISOString(),
      createdBy: user.id,
    };
    const response = { created: true, message: 'Water reading recorded', data: toWaterReadingDto(record, config.thresholds) };
    await writeWaterReading(record, remember(response), () => new DuplicateRequest());
    return response;
  });
}

/**
 * Age-adjusted data: a body weight observed at the flock's age, stored as a weighing of the active cycle
 * (so FCR, ADG, EPEF and the breed comparison use it) and answered with its standard and its value at a
 * reference age. A retry with the same Idempotency-Key replays the weighing and answers the same figures.
 */
export async function recordAgeAdjustedData(user: Caller, flockId: string, body: AgeAdjustedDataBody, idempotencyKey: string | undefined) {
  const flock = await scopedFlock(user, flockId);
  const cycleId = activeCycleOf(flock, 'age-adjusted data');
  const date = body.date ?? today();
  const stored = await recordWeightFor(commandContext(user, { idempotencyKey }), flockId, cycleId, {
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

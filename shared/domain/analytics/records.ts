import { ulid } from 'ulidx';
import { Conflict, ValidationFailed } from '../../errors.js';
import type { Caller } from '../caller.js';
import type { ResourceChange } from '../decision.js';
import { recordDateProblems } from '../ledger.js';
import { latestAllowedDate } from '../weights.js';
import type { EggProductionBody, WaterReadingBody } from '../../../schemas/analytics.js';
import type { MovementInput } from '../../../schemas/movements.js';
import { isoDate } from '../../platform/calendar.js';

/**
 * The Analytics V2 writes, decided without I/O. Each is a record of the flock's ACTIVE cycle: egg
 * production becomes an egg_collection movement (recorded by the movement use case), a water reading is
 * kept with its pH on the day's rollup (keys and items: shared/db/water-readings.ts).
 */

export interface WaterReadingRecord {
  id: string;
  flockId: string;
  cycleId: string;
  farmId: string;
  date: string;
  pH: number;
  temperatureC: number | null;
  tdsPpm: number | null;
  chlorinePpm: number | null;
  orpMv: number | null;
  hardnessPpm: number | null;
  source: string | null;
  notes: string | null;
  createdAt: string;
  createdBy: string;
}

/** The flock's active cycle, which takes `what`; a flock between cycles takes none (409). */
export function activeCycleOf(flock: { id: string; activeCycleId: string | null }, what: string): string {
  if (!flock.activeCycleId) throw new Conflict(`Flock ${flock.id} has no active cycle; start one before recording ${what}`);
  return flock.activeCycleId;
}

/** The day a record without a date is of: today (UTC). */
export const recordDay = (date: string | undefined, now: Date): string => date ?? isoDate(now);

/** Egg production as the movement it is recorded as: an egg_collection of the flock's active cycle (layers and breeders only). */
export function eggProductionMovement(flock: { id: string; birdType: string; activeCycleId: string | null }, body: EggProductionBody, now: Date) {
  if (flock.birdType === 'broiler') throw new Conflict(`Flock ${flock.id} is a broiler flock; egg production is recorded for layers and breeders`);
  const { flockId: _f, date, ...fields } = body;
  const input = { type: 'egg_collection', date: recordDay(date, now), ...fields } as MovementInput;
  return { cycleId: activeCycleOf(flock, 'egg production'), input };
}

/** The fields of an egg_collection, and the daily form's name for each (one day's eggs, written either way). */
const FORM_EGG_FIELDS = {
  totalEggs: 'eggsCollected',
  cracked: 'eggsCracked',
  dirty: 'eggsDirty',
  floor: 'eggsFloor',
  doubleYolk: 'eggsDoubleYolk',
  grades: 'eggGrades',
  averageEggWeightGrams: 'averageEggWeightGrams',
} as const;

/**
 * How a day's egg production is written, given what the day already holds: one day has one count of eggs,
 * so a second write for a day corrects the first and never adds to it.
 * - the day's daily record holds the eggs: the record again, its egg fields replaced by these;
 * - one egg_collection of its own holds them (an earlier egg production): that movement, corrected
 *   (every egg field as sent, those not sent removed);
 * - several: which one to correct is not ours to guess (409 naming them);
 * - none: a new egg_collection.
 */
export function eggProductionWrite(
  input: MovementInput,
  day: {
    record: { fields: Record<string, unknown> } | undefined;
    collections: ReadonlyArray<{ id: string; version: number; fields: Record<string, unknown> }>;
  },
): { kind: 'create' } | { kind: 'daily'; form: Record<string, unknown> } | { kind: 'correct'; movementId: string; edit: Record<string, unknown> } {
  const sent = input as unknown as Record<string, unknown>;
  if (day.record) {
    const form: Record<string, unknown> = { ...day.record.fields, date: input.date };
    for (const [field, formField] of Object.entries(FORM_EGG_FIELDS)) {
      if (sent[field] === undefined) delete form[formField];
      else form[formField] = sent[field];
    }
    return { kind: 'daily', form };
  }
  const own = day.collections.filter((m) => !m.fields.dailyRecordDate);
  if (own.length > 1)
    throw new Conflict(
      `The eggs of ${input.date} are recorded by ${own.length} egg_collection movements (${own.map((m) => m.id).join(', ')}); correct the one meant with PATCH …/movements/{movementId}`,
    );
  const [one] = own;
  if (!one) return { kind: 'create' };
  const edit: Record<string, unknown> = { version: one.version };
  for (const field of [...Object.keys(FORM_EGG_FIELDS), 'notes']) edit[field] = sent[field] ?? null;
  return { kind: 'correct', movementId: one.id, edit };
}

/** A water reading of the flock's active cycle (read as `cycle`), dated within it and not in the future. */
export function decideWaterReading(
  caller: Pick<Caller, 'id'>,
  flock: { id: string; farmId: string },
  cycle: { id: string; startDate: string; endDate: string | null },
  body: WaterReadingBody,
  now: Date,
) {
  const date = recordDay(body.date, now);
  const problems = recordDateProblems(date, cycle, latestAllowedDate(now));
  if (problems.length) throw new ValidationFailed(problems);
  const record: WaterReadingRecord = {
    id: ulid(),
    flockId: flock.id,
    cycleId: cycle.id,
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
    createdBy: caller.id,
  };
  const changes: ResourceChange[] = [{ type: 'water_reading', id: record.id, op: 'upsert', farmIds: [flock.farmId] }];
  return { record, changes };
}

import type { RecordWeightBody, ScaleIngestBody } from '../../../schemas/weights.js';
import { Conflict, ValidationFailed } from '../../errors.js';
import { type ResourceChange, upsertOf } from '../decision.js';
import { houseNotFound } from '../references.js';
import { dayStats, ingestDay, isImplausible, latestAllowedDate, manualInputProblems, manualStats, readingDate, type RejectReason } from '../weights.js';
import type { CycleRecord, FlockRecord, WeightRecord } from './records.js';

/**
 * Weighings, decided without I/O: a manual session, and a batch of an automatic scale merged per device
 * and day into what earlier batches stored. Either may become the cycle's `latestWeight` (the summary's
 * FCR), which the commit writes with the sessions.
 */

/** At most this many dates per batch: one session per date, the cycle and the idempotent response fit one transaction (100 items). */
export const MAX_BATCH_DATES = 98;
/** Clock skew tolerated before a reading counts as being from the future. */
const FUTURE_SKEW_MS = 5 * 60_000;

export const cycleClosedToWeighings = (cycleId: string) => new Conflict(`Cycle ${cycleId} is closed; it takes no new weighings`);

/** Does a weighing of `date` become the cycle's latest weight? Same date or newer: yes (the last one written wins). */
export const takesLatest = (cycle: Pick<CycleRecord, 'latestWeight'>, date: string) => !cycle.latestWeight || date >= cycle.latestWeight.date;

const weightChange = (r: WeightRecord, id = r.id): ResourceChange => upsertOf('weight', { ...r, id });

// ---------------------------------------------------------------------------------------------------
// Manual sessions

/** A manual session's body, judged once (exactly one of grams or samples; a date within the cycle, not in the future): its statistics. */
export function judgeManualWeighing(cycle: Pick<CycleRecord, 'startDate'>, body: RecordWeightBody, now: Date) {
  const problems = manualInputProblems(body);
  if (problems.length) throw new ValidationFailed(problems);
  if (body.date < cycle.startDate) throw new ValidationFailed([{ field: 'date', message: `must not be before the cycle's start date ${cycle.startDate}` }]);
  if (body.date > latestAllowedDate(now)) throw new ValidationFailed([{ field: 'date', message: 'must not be in the future' }]);
  return manualStats(body);
}

export interface ManualFacts {
  /** The session's id: one per command, kept across the retries of a lost race. */
  id: string;
  /** The flock's house, where the birds were weighed. */
  houseId: string | null;
  stats: ReturnType<typeof judgeManualWeighing>;
  callerId: string;
  now: Date;
}

/** The session on the cycle as (re)read: refused once it is closed; `latest`: it becomes the cycle's latest weight. */
export function decideManualWeighing(cycle: CycleRecord, body: RecordWeightBody, facts: ManualFacts) {
  if (cycle.status !== 'active') throw cycleClosedToWeighings(cycle.id);
  const { stats } = facts;
  const at = facts.now.toISOString();
  const record: WeightRecord = {
    id: facts.id,
    cycleId: cycle.id,
    flockId: cycle.flockId,
    farmId: cycle.farmId,
    date: body.date,
    method: 'manual_sample',
    deviceId: null,
    houseId: facts.houseId,
    grams: stats.mean,
    sampleSize: stats.n,
    sd: stats.sd,
    cv: stats.cv,
    uniformityPct: stats.uniformityPct,
    notes: body.notes ?? null,
    ...(body.samples ? { samples: body.samples } : {}),
    createdAt: at,
    createdBy: facts.callerId,
    updatedAt: at,
    version: 1,
  };
  return { record, latest: takesLatest(cycle, body.date), changes: [weightChange(record)] };
}

// ---------------------------------------------------------------------------------------------------
// Automatic scales

/** The dates of a batch's readings (the date written in each timestamp), in order; too many is refused before anything is read. */
export function scaleBatchDates(body: Pick<ScaleIngestBody, 'weighings'>): string[] {
  const dates = [...new Set(body.weighings.map((w) => readingDate(w.at)))].sort();
  if (dates.length > MAX_BATCH_DATES) {
    throw new ValidationFailed([
      { field: 'weighings', message: `span ${dates.length} dates; at most ${MAX_BATCH_DATES} per batch (send older readings in another batch)` },
    ]);
  }
  return dates;
}

/** The cycle a batch without `cycleId` goes to: the flock's active one. */
export function activeCycleOf(flock: Pick<FlockRecord, 'id' | 'activeCycleId'>): string {
  if (!flock.activeCycleId) throw new Conflict(`Flock ${flock.id} has no active cycle; start one or send cycleId`);
  return flock.activeCycleId;
}

/** The scale must weigh birds. */
export function judgeScale(deviceId: string, device: { kind: string; metrics: readonly string[] }): void {
  if (!device.metrics.includes('birdWeightGrams'))
    throw new ValidationFailed([
      { field: 'deviceId', message: `device ${deviceId} (${device.kind}) does not weigh birds: its metrics have no birdWeightGrams` },
    ]);
}

/**
 * The house a batch's sessions are in: the body's, which must be the flock's own when it has one (a house
 * the farm lacks is the 404 of a missing one: `houseFound` is read only when the body names another house),
 * else the flock's.
 */
export function scaleHouse(body: Pick<ScaleIngestBody, 'houseId' | 'flockId'>, flock: Pick<FlockRecord, 'houseId'>, houseFound?: boolean): string | null {
  if (body.houseId && body.houseId !== flock.houseId) {
    if (!houseFound) throw houseNotFound(body.houseId);
    if (flock.houseId) throw new ValidationFailed([{ field: 'houseId', message: `flock ${body.flockId} is in house ${flock.houseId}` }]);
  }
  return body.houseId ?? flock.houseId ?? null;
}

export interface ScaleFacts {
  dates: readonly string[];
  /** The device's stored sessions of the batch's dates, by date. */
  stored: ReadonlyMap<string, WeightRecord>;
  houseId: string | null;
  callerId: string;
  now: Date;
}

/** One date of a batch: how many readings it accepted and rejected, and the session of the device's day as it then stands. */
export interface ScaleDay {
  date: string;
  accepted: number;
  rejected: number;
  session: WeightRecord | undefined;
}

/**
 * A batch on the cycle as (re)read: each reading judged (outside the cycle or from the future,
 * implausible, an outlier of its day) and counted; the plausible ones merged into one session per date;
 * the newest session, when it is not older than the cycle's latest weight, becomes it.
 */
export function decideScaleBatch(cycle: CycleRecord, body: ScaleIngestBody, facts: ScaleFacts) {
  if (cycle.status !== 'active') throw cycleClosedToWeighings(cycle.id);
  const at = facts.now.toISOString();
  const rejectedBy: Record<RejectReason, number> = { outsideCycle: 0, implausible: 0, outlier: 0 };
  const perDate = new Map<string, { plausible: number[]; rejected: number }>(facts.dates.map((d) => [d, { plausible: [], rejected: 0 }]));
  for (const w of body.weighings) {
    const date = readingDate(w.at);
    const bucket = perDate.get(date)!;
    const when = Date.parse(w.at);
    const reason: RejectReason | null =
      !Number.isFinite(when) || when > facts.now.getTime() + FUTURE_SKEW_MS || date < cycle.startDate
        ? 'outsideCycle'
        : isImplausible(w.grams)
          ? 'implausible'
          : null;
    if (reason) {
      rejectedBy[reason] += 1;
      bucket.rejected += 1;
    } else bucket.plausible.push(w.grams);
  }
  const sessions: Array<{ record: WeightRecord; read: number | undefined }> = [];
  const days: ScaleDay[] = [];
  for (const date of facts.dates) {
    const { plausible, rejected } = perDate.get(date)!;
    const stored = facts.stored.get(date);
    const ingest = ingestDay(stored?.day, plausible);
    rejectedBy.outlier += ingest.outliers;
    let session: WeightRecord | undefined = stored;
    if (ingest.accepted.length > 0) {
      const s = dayStats(ingest.merged);
      session = {
        id: body.deviceId,
        cycleId: cycle.id,
        flockId: cycle.flockId,
        farmId: cycle.farmId,
        date,
        method: 'automatic_scale',
        deviceId: body.deviceId,
        houseId: facts.houseId,
        grams: s.mean,
        sampleSize: s.n,
        sd: s.sd,
        cv: s.cv,
        uniformityPct: s.uniformityPct,
        notes: null,
        day: ingest.merged,
        createdAt: stored?.createdAt ?? at,
        createdBy: stored?.createdBy ?? facts.callerId,
        updatedAt: at,
        version: (stored?.version ?? 0) + 1,
      };
      sessions.push({ record: session, read: stored?.version });
    }
    days.push({ date, accepted: ingest.accepted.length, rejected: rejected + ingest.outliers, session });
  }
  const newest = sessions.at(-1)?.record;
  return {
    sessions,
    days,
    rejectedBy,
    accepted: days.reduce((a, d) => a + d.accepted, 0),
    newest,
    latest: newest !== undefined && takesLatest(cycle, newest.date),
    changes: sessions.map((w) => weightChange(w.record, `${w.record.id}@${w.record.date}`)),
  };
}

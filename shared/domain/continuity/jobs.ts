import { ulid } from 'ulidx';
import { Conflict, ValidationFailed } from '../../errors.js';
import { isoDate } from '../../platform/calendar.js';
import type { Caller } from '../caller.js';
import type { AuditEvent, ResourceChange } from '../decision.js';
import type { CreateDrillBody } from '../../../schemas/continuity.js';

/**
 * Continuity's records and its decisions, without I/O: export and restore jobs (requested by a user, run
 * by the worker), the restored farm's opening, and preparedness drills.
 */
export type JobStatus = 'pending' | 'running' | 'completed' | 'failed';

export interface ExportRecord {
  id: string;
  farmId: string;
  farmName: string;
  status: JobStatus;
  createdBy: string;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** Where the file is: an S3 key (in AWS) or a path under EXPORT_DIR (local). */
  storage: 's3' | 'local';
  objectKey: string;
  records: number | null;
  counts: Record<string, number> | null;
  sha256: string | null;
  bytes: number | null;
  durationMs: number | null;
  error: string | null;
  version: number;
}

export interface RestoreRecord {
  id: string;
  exportId: string;
  sourceFarmId: string;
  farmName: string;
  /** The new farm's id, chosen when the restore is requested. */
  farmId: string;
  status: JobStatus;
  createdBy: string;
  /** Whether the creator gets the new farm in their `farmIds` (non-admins) on success. */
  assignTo: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  records: number | null;
  counts: Record<string, number> | null;
  checks: { compared: number; mismatches: string[] } | null;
  durationMs: number | null;
  error: string | null;
  version: number;
}

export interface DrillRecord {
  id: string;
  farmId: string;
  kind: 'generator' | 'alarm' | 'fire';
  date: string;
  durationMinutes: number;
  result: 'passed' | 'failed' | 'partial';
  notes: string | null;
  recordedBy: string;
  createdAt: string;
}

const jobChange = (type: 'export' | 'restore', job: { id: string; version: number; farmId: string }): ResourceChange => ({
  type,
  id: job.id,
  op: 'upsert',
  version: job.version,
  farmIds: [job.farmId],
});

/** An export of a farm that exists and is not being restored; its file's key is fixed now (`exports/<farmId>/<id>.jsonl`). */
export function decideExportRequest(
  caller: Pick<Caller, 'id'>,
  farm: { id: string; name: string; restoring?: boolean } | undefined,
  facts: { storage: ExportRecord['storage']; now: Date; notFound: () => Error },
) {
  if (!farm || farm.restoring) throw facts.notFound();
  const id = ulid();
  const job: ExportRecord = {
    id,
    farmId: farm.id,
    farmName: farm.name,
    createdBy: caller.id,
    status: 'pending',
    createdAt: facts.now.toISOString(),
    startedAt: null,
    finishedAt: null,
    storage: facts.storage,
    objectKey: `exports/${farm.id}/${id}.jsonl`,
    records: null,
    counts: null,
    sha256: null,
    bytes: null,
    durationMs: null,
    error: null,
    version: 1,
  };
  const audit: AuditEvent[] = [{ action: 'continuity.export', targetType: 'farm', targetId: farm.id, changes: { exportId: id } }];
  return { job, audit, changes: [jobChange('export', job)] };
}

/**
 * A restore of a completed export into a new farm, whose id is chosen now (a retried worker restores into
 * the same farm); a user holding `maxFarms` farms cannot get another.
 */
export function decideRestoreRequest(
  caller: Pick<Caller, 'id' | 'allFarms' | 'farmIds'>,
  source: ExportRecord,
  farmName: string,
  facts: { maxFarms: number; now: Date },
) {
  const { maxFarms, now } = facts;
  if (source.status !== 'completed') throw new Conflict(`Export ${source.id} is ${source.status}: only a completed export can be restored`);
  if (!caller.allFarms && caller.farmIds.length >= maxFarms) throw new Conflict(`You already hold ${maxFarms} farms, the most a user may`);
  const job: RestoreRecord = {
    id: ulid(),
    exportId: source.id,
    sourceFarmId: source.farmId,
    farmName: farmName.trim(),
    farmId: ulid(),
    createdBy: caller.id,
    assignTo: caller.allFarms ? null : caller.id,
    status: 'pending',
    createdAt: now.toISOString(),
    startedAt: null,
    finishedAt: null,
    records: null,
    counts: null,
    checks: null,
    durationMs: null,
    error: null,
    version: 1,
  };
  const audit: AuditEvent[] = [
    {
      action: 'continuity.restore',
      targetType: 'farm',
      targetId: source.farmId,
      changes: { restoreId: job.id, exportId: source.id, newFarmId: job.farmId, farmName: job.farmName },
    },
  ];
  return { job, audit, changes: [jobChange('restore', job)] };
}

/** The restored farm opens and its job completes; the audit entry names the user who asked for the restore, not the worker. */
export function restoreOpening(
  job: RestoreRecord,
  fields: { records: number; counts: Record<string, number>; compared: number; durationMs: number },
  now: Date,
) {
  return {
    completed: {
      status: 'completed',
      finishedAt: now.toISOString(),
      records: fields.records,
      counts: fields.counts,
      checks: { compared: fields.compared, mismatches: [] },
      durationMs: fields.durationMs,
    },
    audit: [
      {
        actorId: job.createdBy,
        action: 'farm.restore',
        targetType: 'farm',
        targetId: job.farmId,
        changes: { name: job.farmName, restoreId: job.id, exportId: job.exportId, sourceFarmId: job.sourceFarmId, records: fields.records },
      },
    ] as AuditEvent[],
    changes: [{ type: 'farm', id: job.farmId, op: 'upsert', farmIds: [job.farmId] }] satisfies ResourceChange[],
  };
}

/** A drill held on a day up to today. */
export function decideDrill(caller: Pick<Caller, 'id'>, farmId: string, body: CreateDrillBody, now: Date) {
  const today = isoDate(now);
  if (body.date > today) throw new ValidationFailed([{ field: 'date', message: `must not be after today (${today})` }]);
  const drill: DrillRecord = {
    id: ulid(),
    farmId,
    kind: body.kind,
    date: body.date,
    durationMinutes: body.durationMinutes,
    result: body.result,
    notes: body.notes?.trim() ?? null,
    recordedBy: caller.id,
    createdAt: now.toISOString(),
  };
  return { drill, changes: [{ type: 'drill', id: drill.id, op: 'upsert', farmIds: [drill.farmId] }] satisfies ResourceChange[] };
}

/** A pending job the worker takes: running from `now`. */
export const jobRunning = (now: Date) => ({ status: 'running' as const, startedAt: now.toISOString() });

/** A job failed, naming why; null for a job already finished (completed or failed stays as it is). */
export function jobFailed(job: { status: JobStatus } | undefined, error: string, now: Date) {
  if (!job || job.status === 'completed' || job.status === 'failed') return null;
  return { status: 'failed' as const, error, finishedAt: now.toISOString() };
}

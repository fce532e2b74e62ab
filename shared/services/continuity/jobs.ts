import { log } from '../../platform/log.js';
import { commit } from '../../db/commit.js';
import { getExport, getRestore, jobMove } from '../../db/continuity.js';
import { jobFailed, jobRunning, type ExportRecord, type RestoreRecord } from '../../domain/continuity/jobs.js';
import { exportKey, restoreKey } from '../../db/keys.js';
import { invokeAsync } from '../../aws/lambda.js';
import { systemCaller } from '../../domain/caller.js';
import { commandContext, type CommandContext } from '../../domain/command.js';
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION } from '../../domain/continuity/format.js';
import type { IdempotentResult } from '../idempotency.js';
import type { ContinuityJobEvent } from '../../../schemas/continuity.js';

/**
 * Business continuity (`/api/v1/continuity`): a farm's export to a versioned JSON Lines file, streamed
 * partition by partition (exports.ts); its restore into a new farm with new ids, checked against the
 * figures the export recorded (cycle summaries, KPIs, stock) before the farm becomes usable (restores.ts).
 * Both run in the `continuityWorker` function, started asynchronously (docs/decisions.md, "Continuity").
 * Here: what both kinds of job share.
 */

/** The worker acts for the system on every farm: it reads what it exports and checks what it restored. */
export const continuityCaller = systemCaller('continuity', ['view_analytics', 'manage_continuity', 'manage_farms'], 'all');

export const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** A job runs for minutes: each move of its status is a command of its own instant (its `startedAt`, its `finishedAt`). */
export const nowIn = (ctx: CommandContext): CommandContext => commandContext(ctx.caller, { requestId: ctx.requestId });

export function toExportDto(e: ExportRecord) {
  return {
    id: e.id,
    farmId: e.farmId,
    farmName: e.farmName,
    status: e.status,
    format: `${EXPORT_FORMAT}/v${EXPORT_FORMAT_VERSION}`,
    records: e.records,
    counts: e.counts,
    sha256: e.sha256,
    bytes: e.bytes,
    durationMs: e.durationMs,
    error: e.error,
    createdBy: e.createdBy,
    createdAt: e.createdAt,
    startedAt: e.startedAt,
    finishedAt: e.finishedAt,
    version: e.version,
  };
}

export function toRestoreDto(r: RestoreRecord) {
  return {
    id: r.id,
    exportId: r.exportId,
    sourceFarmId: r.sourceFarmId,
    farmId: r.farmId,
    farmName: r.farmName,
    status: r.status,
    records: r.records,
    counts: r.counts,
    checks: r.checks,
    durationMs: r.durationMs,
    error: r.error,
    createdBy: r.createdBy,
    createdAt: r.createdAt,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    version: r.version,
  };
}

/**
 * Starts the worker on a job just requested (a replayed request started it the first time); a job that
 * cannot be started is failed at once (never left pending).
 */
export async function startJob(ctx: CommandContext, kind: JobKind, requested: IdempotentResult): Promise<void> {
  if (requested.replayed) return;
  const event: ContinuityJobEvent = { kind, id: (requested.data as { id: string }).id };
  try {
    await invokeAsync('continuityWorker', event);
  } catch (err) {
    log.warn('continuity worker not started', { event, error: message(err) });
    await failJob(ctx, kind, event.id, `the ${kind} worker could not be started`).catch(() => undefined);
  }
}

type JobKind = ContinuityJobEvent['kind'];
const jobKey = (kind: JobKind, id: string) => (kind === 'export' ? exportKey(id) : restoreKey(id));

/** The worker takes a pending job (read at `version`): it is running from now on, the instant returned. */
export async function jobStarted(ctx: CommandContext, kind: JobKind, job: { id: string; version: number }): Promise<string> {
  const at = nowIn(ctx);
  const running = jobRunning(at.now);
  const what = `${kind === 'export' ? 'Export' : 'Restore'} ${job.id}`;
  await commit(at, { writes: [jobMove(jobKey(kind, job.id), what, job.version, running)] });
  return running.startedAt;
}

/** Marks a job failed, naming why (a job already completed or failed stays as it is). */
export async function failJob(ctx: CommandContext, kind: JobKind, id: string, error: string): Promise<void> {
  const job = kind === 'export' ? await getExport(id) : await getRestore(id);
  const at = nowIn(ctx);
  const failed = jobFailed(job, error, at.now);
  if (!job || !failed) return;
  await commit(at, { writes: [jobMove(jobKey(kind, id), `${kind} ${id}`, job.version, failed)] });
}

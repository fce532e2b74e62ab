import { commit } from '../../db/commit.js';
import { deleteItems, getExport, getRestore, jobMove, putItems, restoreCreate, restoredFarmOpen } from '../../db/continuity.js';
import { decideRestoreRequest, restoreOpening, type RestoreRecord } from '../../domain/continuity/jobs.js';
import { farmKey, restoreKey, type Key } from '../../db/keys.js';
import { userFarmAdded } from '../../db/users.js';
import { exportLines } from '../../aws/export-store.js';
import type { Caller } from '../../domain/caller.js';
import type { CommandContext } from '../../domain/command.js';
import { visibleTo } from '../../domain/farm-access.js';
import { comparable, differences, fromJsonItem } from '../../domain/continuity/format.js';
import { Conflict, Forbidden, NotFound } from '../../errors.js';
import { MAX_FARMS_PER_USER } from '../farms.js';
import { idempotentCommand } from '../idempotency.js';
import { figuresOf, visibleExport } from './exports.js';
import { failJob, jobStarted, message, nowIn, startJob, toRestoreDto } from './jobs.js';
import { failAfterBatches, readExport, RestoredEggHistory, RestoreRefused, restoredItem, type ReadExport } from './restore-file.js';
import type { CreateRestoreBody } from '../../../schemas/continuity.js';

/** A restore: requested by a user of the exported farm, run by the worker into a new farm, opened once its figures match. */

const restoreNotFound = (id: string) => new NotFound(`Restore ${id} not found`);

/** A restore is the business of the user who asked for it and of the exported farm's users. */
async function visibleRestore(caller: Caller, id: string): Promise<RestoreRecord> {
  const r = await getRestore(id);
  if (r?.createdBy === caller.id) return r;
  return visibleTo(
    caller,
    r,
    () => restoreNotFound(id),
    (r) => r.sourceFarmId,
  );
}

export const restoreFor = async (caller: Caller, id: string) => toRestoreDto(await visibleRestore(caller, id));

export async function requestRestore(ctx: CommandContext, body: CreateRestoreBody) {
  const { caller } = ctx;
  if (!caller.capabilities.has('manage_farms')) throw new Forbidden('A restore creates a farm: it also requires manage_farms');
  const source = await visibleExport(caller, body.exportId);
  const result = await idempotentCommand(ctx, `continuity-restore:${body.exportId}`, body, async (ctx) => {
    const { job, audit, changes } = decideRestoreRequest(caller, source, body.farmName, { maxFarms: MAX_FARMS_PER_USER, now: ctx.now });
    const response = { created: true, message: 'Restore started', data: toRestoreDto(job) };
    await commit(ctx, { writes: [restoreCreate(job)], audit, changes, response });
    return response;
  });
  await startJob(ctx, 'restore', result);
  return result;
}

const BATCH = 100;

/**
 * The restored farm becomes usable, all at once: the farm opens (listed, no longer `restoring`), the job
 * completes, the creator (non-admin) gets the farm in `farmIds`. The audit entry names the user who asked
 * for the restore, not the worker.
 */
async function openRestoredFarm(
  ctx: CommandContext,
  job: RestoreRecord,
  fields: { records: number; counts: Record<string, number>; compared: number; durationMs: number },
) {
  const now = ctx.now.toISOString();
  const changed = () => new Conflict(`Restore of farm ${job.farmId} was changed concurrently`);
  const { completed, audit, changes } = restoreOpening(job, fields, ctx.now);
  await commit(ctx, {
    writes: [
      restoredFarmOpen(job.farmId, job.farmName, now, changed),
      { ...jobMove(restoreKey(job.id), `Restore ${job.id}`, job.version + 1, completed), failed: changed },
      ...(job.assignTo
        ? [userFarmAdded(job.assignTo, job.farmId, MAX_FARMS_PER_USER, now, () => new Conflict(`the user holds ${MAX_FARMS_PER_USER} farms already`))]
        : []),
    ],
    audit,
    changes,
  });
}

/** The worker's restore: checks the file, writes the new farm, compares its figures, then opens it (or removes it). */
export async function runRestore(ctx: CommandContext, id: string): Promise<{ status: string }> {
  const job = await getRestore(id);
  if (!job) throw restoreNotFound(id);
  if (job.status !== 'pending') return { status: job.status };
  const started = performance.now();
  const now = await jobStarted(ctx, 'restore', job);
  const written: Key[] = [];
  const counts: Record<string, number> = {};
  try {
    const source = await getExport(job.exportId);
    if (source?.status !== 'completed') throw new RestoreRefused(`export ${job.exportId} is not completed`);
    const read = await readExport(source.objectKey, job.farmId);
    const failAfter = failAfterBatches(job.farmName);
    let batches = 0;
    let batch: Record<string, unknown>[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const items = batch;
      batch = [];
      await Promise.all([0, 25, 50, 75].map((i) => putItems(items.slice(i, i + 25))));
      for (const item of items) written.push({ PK: String(item.PK), SK: String(item.SK) });
      batches += 1;
      if (failAfter !== undefined && batches >= failAfter) throw new Error(`injected failure after ${batches} batches (CONTINUITY_FAIL_AFTER_BATCHES)`);
    };
    // the farm first: whatever follows is under a farm marked `restoring`
    batch.push(restoredItem(read.ids.value(fromJsonItem(read.farmMeta) as Record<string, unknown>), 'farm', job, now));
    counts.farm = 1;
    await flush();
    const eggs = new RestoredEggHistory();
    for await (const text of exportLines(source.objectKey)) {
      const line = JSON.parse(text) as { type: string; data: Record<string, unknown> };
      if (line.type === 'header' || line.type === 'trailer' || line.type === 'check' || line.type === 'farm') continue;
      const item = restoredItem(read.ids.value(fromJsonItem(line.data) as Record<string, unknown>), line.type, job, now);
      batch.push(item);
      eggs.note(line.type, item);
      counts[line.type] = (counts[line.type] ?? 0) + 1;
      if (batch.length >= BATCH) await flush();
    }
    await flush();
    // eggs recorded before lots existed get their lots (rebuilt from the cycle's egg history), the rest are untouched
    const lots = eggs.items(now);
    written.push(...lots.created);
    await putItems(lots.items);
    const mismatches = await compareFigures(read, job.farmId);
    if (mismatches.length) throw new RestoreRefused(`the restored farm differs from the export: ${mismatches.slice(0, 5).join('; ')}`);
    const records = Object.values(counts).reduce((a, b) => a + b, 0);
    await openRestoredFarm(nowIn(ctx), job, { records, counts, compared: read.checks.length, durationMs: Math.round(performance.now() - started) });
    return { status: 'completed' };
  } catch (err) {
    // nothing half-written stays: every item this restore put is deleted (the farm, marked `restoring`, last)
    const farm = written.findIndex((k) => k.PK === farmKey(job.farmId).PK && k.SK === 'META');
    let cleanup = '';
    try {
      await deleteItems(written.filter((_, i) => i !== farm));
      if (farm >= 0) await deleteItems([written[farm]!]);
    } catch (cleanupError) {
      cleanup = ` (and the clean-up failed: ${message(cleanupError)}; the farm ${job.farmId} stays marked restoring, off every list)`;
    }
    await failJob(ctx, 'restore', id, `${message(err)}${cleanup}`);
    return { status: 'failed' };
  }
}

/** The restored farm's figures, computed by the same services as the export's, for the same instant. */
async function compareFigures(read: ReadExport, newFarmId: string): Promise<string[]> {
  const cycles = read.checks
    .filter((c) => c.kind === 'cycle')
    .map((c) => ({ flockId: read.ids.string(String(c.flockId)), cycleId: read.ids.string(String(c.cycleId)) }));
  const actual = await figuresOf(newFarmId, cycles, read.header.asOf);
  const expected = read.checks.map((c) => read.ids.value(c));
  const problems: string[] = [];
  if (expected.length !== actual.length) problems.push(`${expected.length} figures exported, ${actual.length} computed`);
  for (const [i, e] of expected.entries()) {
    const label = e.kind === 'cycle' ? `cycle ${String(e.cycleId)}` : 'stock';
    for (const d of differences(comparable(e), comparable(actual[i]))) problems.push(`${label} ${d}`);
  }
  return problems;
}

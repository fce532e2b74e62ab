import { decodeTime, ulid } from 'ulidx';
import { auditPut } from '../db/audit.js';
import {
  createJob,
  deleteItems,
  exportPut,
  farmItems,
  getExport,
  getRestore,
  jobUpdate,
  moveJob,
  openRestoredFarm,
  putItems,
  restorePut,
  type ExportRecord,
  type RestoreRecord,
} from '../db/continuity.js';
import { cycleLocator, exportKey, farmKey, restoreKey, type Key } from '../db/keys.js';
import { farmNotFound, getFarm } from '../db/farms.js';
import { invokeAsync } from '../aws/lambda.js';
import { downloadUrlOf, exportLines, exportsInS3, openExportSink, readLocalExport } from '../aws/export-store.js';
import { systemCaller, type Caller } from '../domain/caller.js';
import { canAccessFarm } from '../domain/farm-access.js';
import {
  comparable,
  differences,
  EXPORT_FORMAT,
  EXPORT_FORMAT_VERSION,
  ExportDigest,
  fromJsonItem,
  IdMap,
  lineOf,
  lineProblem,
  ownedIdsOf,
  recordTypeOf,
  toJsonItem,
  type ExportHeader,
  type ExportTrailer,
} from '../domain/continuity/format.js';
import { cycleKpis } from '../domain/analytics/kpis/cycle.js';
import { Conflict, Forbidden, NotFound } from '../errors.js';
import { cycleAnalyticsContext } from './analytics.js';
import { scopedCycleWithBasis, toCycleDto } from './cycles.js';
import { farmOfRequest, MAX_FARMS_PER_USER } from './farms.js';
import { farmStockFor } from './inventory.js';
import { idempotent } from './idempotency.js';
import type { ContinuityJobEvent, CreateExportBody, CreateRestoreBody } from '../../schemas/continuity.js';
import { log } from '../platform/log.js';

/**
 * Business continuity (`/api/v1/continuity`): a farm's export to a versioned JSON Lines file, streamed
 * partition by partition; its restore into a new farm with new ids, checked against the figures the
 * export recorded (cycle summaries, KPIs, stock) before the farm becomes usable. Both run in the
 * `continuityWorker` function, started asynchronously (docs/decisions.md, "Continuity").
 */

/** The worker acts for the system on every farm: it reads what it exports and checks what it restored. */
export const continuityCaller = systemCaller('continuity', ['view_analytics', 'manage_continuity', 'manage_farms'], 'all');

const exportNotFound = (id: string) => new NotFound(`Export ${id} not found`);
const restoreNotFound = (id: string) => new NotFound(`Restore ${id} not found`);
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

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

/** Starts the worker on a job; a job that cannot be started is failed at once (never left pending). */
async function start(event: ContinuityJobEvent, fail: () => Promise<void>): Promise<void> {
  try {
    await invokeAsync('continuityWorker', event);
  } catch (err) {
    log.warn('continuity worker not started', { event, error: message(err) });
    await fail().catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------------
// Export

async function visibleExport(user: Caller, id: string): Promise<ExportRecord> {
  const e = await getExport(id);
  if (!e || !canAccessFarm(user, e.farmId)) throw exportNotFound(id);
  return e;
}

/** An export job not yet started; its file's key is fixed now (`exports/<farmId>/<id>.jsonl`). */
export function pendingExport(of: Pick<ExportRecord, 'farmId' | 'farmName' | 'createdBy'>, now: string): ExportRecord {
  const id = ulid();
  return {
    id,
    ...of,
    status: 'pending',
    createdAt: now,
    startedAt: null,
    finishedAt: null,
    storage: exportsInS3() ? 's3' : 'local',
    objectKey: `exports/${of.farmId}/${id}.jsonl`,
    records: null,
    counts: null,
    sha256: null,
    bytes: null,
    durationMs: null,
    error: null,
    version: 1,
  };
}

export async function requestExport(user: Caller, body: CreateExportBody, requestId: string, idempotencyKey?: string) {
  const farmId = farmOfRequest(user, body.farmId);
  const result = await idempotent(user.id, idempotencyKey, `continuity-export:${farmId}`, body, async (remember) => {
    const farm = await getFarm(farmId);
    if (!farm || (farm as { restoring?: boolean }).restoring) throw farmNotFound(farmId);
    const now = new Date().toISOString();
    const job = pendingExport({ farmId, farmName: farm.name, createdBy: user.id }, now);
    const answer = { created: true, message: 'Export started', data: toExportDto(job) };
    await createJob([
      exportPut(job),
      ...remember(answer),
      auditPut({ actorId: user.id, action: 'continuity.export', targetType: 'farm', targetId: farmId, changes: { exportId: job.id }, requestId }),
    ]);
    return answer;
  });
  if (!result.replayed) {
    const id = (result.data as { id: string }).id;
    await start({ kind: 'export', id }, () => failJob('export', id, 'the export worker could not be started'));
  }
  return result;
}

export async function exportFor(user: Caller, id: string) {
  const e = await visibleExport(user, id);
  const filename = `flockwise-farm-${e.farmId}-${e.id}.jsonl`;
  const download = e.status !== 'completed' ? null : ((await downloadUrlOf(e.objectKey, filename)) ?? `/api/v1/continuity/exports/${e.id}/download`);
  return { ...toExportDto(e), download };
}

/** The local download (no bucket): the file itself. In AWS the export's pre-signed URL is the download. */
export async function exportFileFor(user: Caller, id: string): Promise<{ filename: string; redirect?: string; body?: string }> {
  const e = await visibleExport(user, id);
  if (e.status !== 'completed') throw new Conflict(`Export ${id} is ${e.status}, not completed`);
  const filename = `flockwise-farm-${e.farmId}-${e.id}.jsonl`;
  const url = await downloadUrlOf(e.objectKey, filename);
  if (url) return { filename, redirect: url };
  const body = readLocalExport(e.objectKey);
  if (body === undefined) throw new NotFound(`The file of export ${id} is no longer here`);
  return { filename, body };
}

async function failJob(kind: 'export' | 'restore', id: string, error: string): Promise<void> {
  const job = kind === 'export' ? await getExport(id) : await getRestore(id);
  if (!job || job.status === 'completed' || job.status === 'failed') return;
  const key = kind === 'export' ? exportKey(id) : restoreKey(id);
  await moveJob([jobUpdate(key, job.version, { status: 'failed', error, finishedAt: new Date().toISOString() })], `${kind} ${id}`);
}

/** What the export records about each cycle and the stock, for `asOf`: what a restore must reproduce. */
async function figuresOf(farmId: string, cycles: Array<{ flockId: string; cycleId: string }>, asOf: string) {
  const now = new Date(asOf);
  const checks: Array<Record<string, unknown>> = [];
  for (const { flockId, cycleId } of cycles) {
    const { cycle, basis } = await scopedCycleWithBasis(continuityCaller, flockId, cycleId);
    const ctx = await cycleAnalyticsContext(continuityCaller, flockId, cycleId, now);
    checks.push({ kind: 'cycle', flockId, cycleId, summary: toCycleDto(cycle, basis, now), kpis: cycleKpis(ctx.inputs, ctx.config) });
  }
  const { asOf: _asOf, ...stock } = await farmStockFor(continuityCaller, { farmId });
  checks.push({ kind: 'stock', farmId, stock });
  return checks;
}

/** Writes in chunks of about 64 KB (one await per chunk, not per line). */
function chunked(sink: { write(text: string): Promise<void> }) {
  let pending = '';
  return {
    add: async (line: string) => {
      pending += line;
      if (pending.length >= 65_536) {
        const out = pending;
        pending = '';
        await sink.write(out);
      }
    },
    flush: async () => {
      if (pending) await sink.write(pending);
      pending = '';
    },
  };
}

/** The worker's export: pages through the farm's partitions into the file, line by line. */
export async function runExport(id: string): Promise<{ status: string }> {
  const job = await getExport(id);
  if (!job) throw exportNotFound(id);
  if (job.status !== 'pending') return { status: job.status };
  const started = performance.now();
  const startedAt = new Date().toISOString();
  await moveJob([jobUpdate(exportKey(id), job.version, { status: 'running', startedAt })], `Export ${id}`);
  const sink = openExportSink(job.objectKey);
  try {
    const digest = new ExportDigest();
    const out = chunked(sink);
    const header: ExportHeader = {
      format: EXPORT_FORMAT,
      formatVersion: EXPORT_FORMAT_VERSION,
      exportId: id,
      farmId: job.farmId,
      farmName: job.farmName,
      createdAt: job.createdAt,
      asOf: startedAt,
      service: 'flockwise',
    };
    const emit = async (type: string, data: unknown) => {
      const line = lineOf(type, data);
      digest.add(line, type);
      await out.add(line);
    };
    await emit('header', header);
    const cycles: Array<{ flockId: string; cycleId: string }> = [];
    for await (const item of farmItems(job.farmId)) {
      const type = recordTypeOf(item);
      if (!type) continue;
      if (type === 'cycle') cycles.push({ flockId: String(item.PK).slice('FLOCK#'.length), cycleId: String(item.SK).slice('CYCLE#'.length) });
      await emit(type, toJsonItem(item));
    }
    for (const check of await figuresOf(job.farmId, cycles, startedAt)) await emit('check', check);
    const trailer: ExportTrailer = digest.trailer();
    await out.add(`${JSON.stringify({ type: 'trailer', v: 1, data: trailer })}\n`);
    await out.flush();
    const bytes = await sink.close();
    const fields = {
      status: 'completed',
      finishedAt: new Date().toISOString(),
      records: trailer.records,
      counts: trailer.counts,
      sha256: trailer.sha256,
      bytes,
      durationMs: Math.round(performance.now() - started),
    };
    await moveJob([jobUpdate(exportKey(id), job.version + 1, fields)], `Export ${id}`);
    return { status: 'completed' };
  } catch (err) {
    await sink.abort().catch(() => undefined);
    await failJob('export', id, message(err));
    return { status: 'failed' };
  }
}

// ---------------------------------------------------------------------------------------------------
// Restore

async function visibleRestore(user: Caller, id: string): Promise<RestoreRecord> {
  const r = await getRestore(id);
  if (!r || (r.createdBy !== user.id && !user.allFarms && !canAccessFarm(user, r.sourceFarmId))) throw restoreNotFound(id);
  return r;
}

export const restoreFor = async (user: Caller, id: string) => toRestoreDto(await visibleRestore(user, id));

/** A restore job not yet started: the new farm's id is chosen now, so a retried worker restores into the same farm. */
export function pendingRestore(of: Pick<RestoreRecord, 'exportId' | 'sourceFarmId' | 'farmName' | 'createdBy' | 'assignTo'>, now: string): RestoreRecord {
  return {
    id: ulid(),
    ...of,
    farmId: ulid(),
    status: 'pending',
    createdAt: now,
    startedAt: null,
    finishedAt: null,
    records: null,
    counts: null,
    checks: null,
    durationMs: null,
    error: null,
    version: 1,
  };
}

export async function requestRestore(user: Caller, body: CreateRestoreBody, requestId: string, idempotencyKey?: string) {
  if (!user.capabilities.has('manage_farms')) throw new Forbidden('A restore creates a farm: it also requires manage_farms');
  const source = await visibleExport(user, body.exportId);
  const result = await idempotent(user.id, idempotencyKey, `continuity-restore:${body.exportId}`, body, async (remember) => {
    if (source.status !== 'completed') throw new Conflict(`Export ${source.id} is ${source.status}: only a completed export can be restored`);
    if (!user.allFarms && user.farmIds.length >= MAX_FARMS_PER_USER) throw new Conflict(`You already hold ${MAX_FARMS_PER_USER} farms, the most a user may`);
    const now = new Date().toISOString();
    const job = pendingRestore(
      { exportId: source.id, sourceFarmId: source.farmId, farmName: body.farmName.trim(), createdBy: user.id, assignTo: user.allFarms ? null : user.id },
      now,
    );
    const answer = { created: true, message: 'Restore started', data: toRestoreDto(job) };
    await createJob([
      restorePut(job),
      ...remember(answer),
      auditPut({
        actorId: user.id,
        action: 'continuity.restore',
        targetType: 'farm',
        targetId: source.farmId,
        changes: { restoreId: job.id, exportId: source.id, newFarmId: job.farmId, farmName: job.farmName },
        requestId,
      }),
    ]);
    return answer;
  });
  if (!result.replayed) {
    const id = (result.data as { id: string }).id;
    await start({ kind: 'restore', id }, () => failJob('restore', id, 'the restore worker could not be started'));
  }
  return result;
}

class RestoreRefused extends Error {}

interface ReadExport {
  header: ExportHeader;
  ids: IdMap;
  checks: Array<Record<string, unknown>>;
  trailer: ExportTrailer;
  farmMeta: Record<string, unknown> | undefined;
}

/** A new id with the old one's time: lists ordered by id keep their order. */
const newIdOf = (old: string) => {
  try {
    return ulid(decodeTime(old));
  } catch {
    return ulid();
  }
};

/**
 * Pass 1 over the file, before anything is written: every line parses and follows the format, the
 * counts and checksum match the trailer, and every id the farm owns gets its new id.
 */
async function readExport(objectKey: string, newFarmId: string): Promise<ReadExport> {
  const digest = new ExportDigest();
  const ids = new IdMap(newIdOf);
  const checks: Array<Record<string, unknown>> = [];
  let header: ExportHeader | undefined;
  let trailer: ExportTrailer | undefined;
  let farmMeta: Record<string, unknown> | undefined;
  let position = 0;
  for await (const text of exportLines(objectKey)) {
    position += 1;
    if (trailer) throw new RestoreRefused(`line ${position}: text after the trailer`);
    let line: { type: string; data: Record<string, unknown> };
    try {
      line = JSON.parse(text) as typeof line;
    } catch {
      throw new RestoreRefused(`line ${position}: not JSON`);
    }
    const problem = lineProblem(line, position, position === 1);
    if (problem) throw new RestoreRefused(problem);
    if (line.type === 'trailer') {
      trailer = line.data as unknown as ExportTrailer;
      continue;
    }
    digest.add(`${text}\n`, line.type);
    if (line.type === 'header') {
      header = line.data as unknown as ExportHeader;
      ids.map.set(header.farmId, newFarmId);
    } else if (line.type === 'check') checks.push(line.data);
    else {
      for (const id of ownedIdsOf(line.data)) ids.own(id);
      if (line.type === 'farm') farmMeta = line.data;
    }
  }
  if (!header) throw new RestoreRefused('the file is empty');
  if (!trailer) throw new RestoreRefused('the file has no trailer: it was cut short');
  const read = digest.trailer();
  if (read.sha256 !== trailer.sha256) throw new RestoreRefused(`checksum mismatch: the trailer says ${trailer.sha256}, the content is ${read.sha256}`);
  if (read.records !== trailer.records || differences(trailer.counts, read.counts).length)
    throw new RestoreRefused('the record counts differ from the trailer');
  if (!farmMeta) throw new RestoreRefused('the file holds no farm record');
  return { header, ids, checks, trailer, farmMeta };
}

/**
 * Test hook: `CONTINUITY_FAIL_AFTER_BATCHES=n` makes a restore fail after writing n batches (the clean-up is
 * what is tested); with `CONTINUITY_FAIL_FARM_NAME` set, only a restore into a farm of that name (so one
 * running service can both restore and fail on purpose: tests/e2e/governance.test.ts).
 */
const failAfterBatches = (farmName: string) => {
  const n = Number(process.env.CONTINUITY_FAIL_AFTER_BATCHES ?? '');
  const only = process.env.CONTINUITY_FAIL_FARM_NAME;
  return Number.isInteger(n) && n > 0 && (!only || only === farmName) ? n : undefined;
};

/** A restored item: every owned id replaced; the farm itself renamed, marked `restoring` and off the farm list until checked. */
function restoredItem(item: Record<string, unknown>, type: string, job: RestoreRecord, now: string): Record<string, unknown> {
  if (type === 'farm') {
    const { GSI1PK: _pk, GSI1SK: _sk, ...rest } = item;
    return {
      ...rest,
      name: job.farmName,
      isDefault: false,
      createdBy: job.createdBy,
      createdAt: now,
      updatedAt: now,
      version: 1,
      restoring: true,
      restoredFrom: { exportId: job.exportId, farmId: job.sourceFarmId, restoreId: job.id },
    };
  }
  // a cycle is found by its id alone (an export made before the locator existed has none)
  if (type === 'cycle') return { ...item, ...cycleLocator(String(item.id)) };
  // a receipt's supplier list (GSI2) is the supplier's own history: the copy stays off it
  if (type === 'receipt') {
    const { GSI2PK: _pk, GSI2SK: _sk, ...rest } = item;
    return rest;
  }
  return item;
}

const BATCH = 100;

/** The worker's restore: checks the file, writes the new farm, compares its figures, then opens it (or removes it). */
export async function runRestore(id: string): Promise<{ status: string }> {
  const job = await getRestore(id);
  if (!job) throw restoreNotFound(id);
  if (job.status !== 'pending') return { status: job.status };
  const started = performance.now();
  const now = new Date().toISOString();
  await moveJob([jobUpdate(restoreKey(id), job.version, { status: 'running', startedAt: now })], `Restore ${id}`);
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
    for await (const text of exportLines(source.objectKey)) {
      const line = JSON.parse(text) as { type: string; data: Record<string, unknown> };
      if (line.type === 'header' || line.type === 'trailer' || line.type === 'check' || line.type === 'farm') continue;
      batch.push(restoredItem(read.ids.value(fromJsonItem(line.data) as Record<string, unknown>), line.type, job, now));
      counts[line.type] = (counts[line.type] ?? 0) + 1;
      if (batch.length >= BATCH) await flush();
    }
    await flush();
    const mismatches = await compareFigures(read, job.farmId);
    if (mismatches.length) throw new RestoreRefused(`the restored farm differs from the export: ${mismatches.slice(0, 5).join('; ')}`);
    const records = Object.values(counts).reduce((a, b) => a + b, 0);
    const finished = new Date().toISOString();
    await openRestoredFarm({
      farmId: job.farmId,
      name: job.farmName,
      assignTo: job.assignTo,
      maxFarms: MAX_FARMS_PER_USER,
      now: finished,
      job: jobUpdate(restoreKey(id), job.version + 1, {
        status: 'completed',
        finishedAt: finished,
        records,
        counts,
        checks: { compared: read.checks.length, mismatches: [] },
        durationMs: Math.round(performance.now() - started),
      }),
      audit: [
        auditPut({
          actorId: job.createdBy,
          action: 'farm.restore',
          targetType: 'farm',
          targetId: job.farmId,
          changes: { name: job.farmName, restoreId: id, exportId: job.exportId, sourceFarmId: job.sourceFarmId, records },
          requestId: null,
        }),
      ],
      onRefused: () => new Conflict(`the user holds ${MAX_FARMS_PER_USER} farms already`),
    });
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
    await failJob('restore', id, `${message(err)}${cleanup}`);
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

/** The worker's entry: one job, export or restore. */
export async function runContinuityJob(event: ContinuityJobEvent) {
  return event.kind === 'export' ? runExport(event.id) : runRestore(event.id);
}

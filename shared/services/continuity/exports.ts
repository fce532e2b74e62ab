import { commit } from '../../db/commit.js';
import { exportCreate, farmItems, getExport, jobMove } from '../../db/continuity.js';
import { decideExportRequest, type ExportRecord } from '../../domain/continuity/jobs.js';
import { exportKey } from '../../db/keys.js';
import { getFarm } from '../../db/farms.js';
import { farmNotFound } from '../../domain/references.js';
import { downloadUrlOf, exportsInS3, openExportSink, readLocalExport } from '../../aws/export-store.js';
import type { Caller } from '../../domain/caller.js';
import type { CommandContext } from '../../domain/command.js';
import { visibleTo } from '../../domain/farm-access.js';
import {
  EXPORT_FORMAT,
  EXPORT_FORMAT_VERSION,
  ExportDigest,
  lineOf,
  recordTypeOf,
  toJsonItem,
  type ExportHeader,
  type ExportTrailer,
} from '../../domain/continuity/format.js';
import { cycleKpis } from '../../domain/analytics/kpis/cycle.js';
import { Conflict, NotFound } from '../../errors.js';
import { cycleAnalyticsContext } from '../analytics/cycle-context.js';
import { scopedCycleWithBasis, toCycleDto } from '../flocks/cycles.js';
import { farmOfRequest } from '../farms.js';
import { farmStockFor } from '../inventory.js';
import { idempotentCommand } from '../idempotency.js';
import { continuityCaller, failJob, jobStarted, message, nowIn, startJob, toExportDto } from './jobs.js';
import type { CreateExportBody } from '../../../schemas/continuity.js';

/** A farm's export: requested by a user, written by the worker into a JSON Lines file, then downloaded. */

const exportNotFound = (id: string) => new NotFound(`Export ${id} not found`);

export const visibleExport = async (caller: Caller, id: string): Promise<ExportRecord> => visibleTo(caller, await getExport(id), () => exportNotFound(id));

export async function requestExport(ctx: CommandContext, body: CreateExportBody) {
  const farmId = farmOfRequest(ctx.caller, body.farmId);
  const result = await idempotentCommand(ctx, `continuity-export:${farmId}`, body, async (ctx) => {
    const farm = (await getFarm(farmId)) as { id: string; name: string; restoring?: boolean } | undefined;
    const storage = exportsInS3() ? 's3' : 'local';
    const { job, audit, changes } = decideExportRequest(ctx.caller, farm, { storage, now: ctx.now, notFound: () => farmNotFound(farmId) });
    const response = { created: true, message: 'Export started', data: toExportDto(job) };
    await commit(ctx, { writes: [exportCreate(job)], audit, changes, response });
    return response;
  });
  await startJob(ctx, 'export', result);
  return result;
}

export async function exportFor(caller: Caller, id: string) {
  const e = await visibleExport(caller, id);
  const filename = `flockwise-farm-${e.farmId}-${e.id}.jsonl`;
  const download = e.status !== 'completed' ? null : ((await downloadUrlOf(e.objectKey, filename)) ?? `/api/v1/continuity/exports/${e.id}/download`);
  return { ...toExportDto(e), download };
}

/** The local download (no bucket): the file itself. In AWS the export's pre-signed URL is the download. */
export async function exportFileFor(caller: Caller, id: string): Promise<{ filename: string; redirect?: string; body?: string }> {
  const e = await visibleExport(caller, id);
  if (e.status !== 'completed') throw new Conflict(`Export ${id} is ${e.status}, not completed`);
  const filename = `flockwise-farm-${e.farmId}-${e.id}.jsonl`;
  const url = await downloadUrlOf(e.objectKey, filename);
  if (url) return { filename, redirect: url };
  const body = readLocalExport(e.objectKey);
  if (body === undefined) throw new NotFound(`The file of export ${id} is no longer here`);
  return { filename, body };
}

/** What the export records about each cycle and the stock, for `asOf`: what a restore must reproduce. */
export async function figuresOf(farmId: string, cycles: Array<{ flockId: string; cycleId: string }>, asOf: string) {
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
export async function runExport(ctx: CommandContext, id: string): Promise<{ status: string }> {
  const job = await getExport(id);
  if (!job) throw exportNotFound(id);
  if (job.status !== 'pending') return { status: job.status };
  const started = performance.now();
  const startedAt = await jobStarted(ctx, 'export', job);
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
    const finishing = nowIn(ctx);
    const fields = {
      status: 'completed',
      finishedAt: finishing.now.toISOString(),
      records: trailer.records,
      counts: trailer.counts,
      sha256: trailer.sha256,
      bytes,
      durationMs: Math.round(performance.now() - started),
    };
    await commit(finishing, { writes: [jobMove(exportKey(id), `Export ${id}`, job.version + 1, fields)] });
    return { status: 'completed' };
  } catch (err) {
    await sink.abort().catch(() => undefined);
    await failJob(ctx, 'export', id, message(err));
    return { status: 'failed' };
  }
}

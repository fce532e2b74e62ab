import { commit } from '../../db/commit.js';
import { consumedOn, drillCreate, latestExportOf, listDrills } from '../../db/continuity.js';
import { decideDrill, type DrillRecord } from '../../domain/continuity/jobs.js';
import { getFarm, getFarmsByIds, listAllFarms } from '../../db/farms.js';
import { farmNotFound } from '../../domain/references.js';
import { continuousBackups } from '../../aws/export-store.js';
import type { Caller } from '../../domain/caller.js';
import type { CommandContext } from '../../domain/command.js';
import { canAccessFarm } from '../../domain/farm-access.js';
import { drillStatus, feedDays, trailingDays, waterDays } from '../../domain/continuity/readiness.js';
import { farmOfRequest } from '../farms.js';
import { farmStockFor } from '../inventory.js';
import { silosOfFarm } from '../predictive/feed.js';
import { idempotentCommand } from '../idempotency.js';
import type { CreateDrillBody, ListDrillsQuery } from '../../../schemas/continuity.js';
import { DRILL_KINDS } from '../../../schemas/compiled/constants/continuity.js';
import { isoDate } from '../../platform/calendar.js';

/**
 * Continuity, the reading side: backups (point-in-time recovery, the objectives, the last export per
 * farm), preparedness drills and a farm's readiness (days of feed, drills up to date).
 */

/** What the service states it can recover (docs/runbook-restore.md explains both figures). */
export const OBJECTIVES = {
  rpo: '≈ 5 minutes: point-in-time recovery restores to any second of the last 35 days; LatestRestorableDateTime trails the present by about 5 minutes',
  rto: '≈ 1–4 hours: a point-in-time restore into a new table (minutes to hours with the table size) plus the cut-over of TABLE_NAME and a redeploy',
  runbook: 'docs/runbook-restore.md',
} as const;

export function toDrillDto(d: DrillRecord) {
  return {
    id: d.id,
    farmId: d.farmId,
    kind: d.kind,
    date: d.date,
    durationMinutes: d.durationMinutes,
    result: d.result,
    notes: d.notes,
    recordedBy: d.recordedBy,
    createdAt: d.createdAt,
  };
}

export async function recordDrill(ctx: CommandContext, body: CreateDrillBody) {
  const farmId = farmOfRequest(ctx.caller, body.farmId);
  return idempotentCommand(ctx, `continuity-drill:${farmId}`, body, async (ctx) => {
    const { drill, changes } = decideDrill(ctx.caller, farmId, body, ctx.now);
    const response = { created: true, message: 'Drill recorded', data: toDrillDto(drill) };
    await commit(ctx, {
      writes: drillCreate(drill),
      audit: [{ action: 'continuity.drill', targetType: 'farm', targetId: farmId, changes: toDrillDto(drill) }],
      changes,
      response,
    }).catch(async (err: unknown) => {
      // a second read, after the commit failed: its farm check cannot say whether the farm is missing or the write raced
      if (!(await getFarm(farmId))) throw farmNotFound(farmId);
      throw err;
    });
    return response;
  });
}

export async function listDrillsFor(user: Caller, query: ListDrillsQuery) {
  const farmId = farmOfRequest(user, query.farmId);
  const [farm, drills] = await Promise.all([getFarm(farmId), listDrills(farmId)]);
  if (!farm) throw farmNotFound(farmId);
  return drills.filter((d) => !query.kind || d.kind === query.kind).map(toDrillDto);
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** Days of feed (the silo sensors' kg ÷ their outflow when the farm has some with a reading, else the farm's stock ÷ the active cycles' mean consumption over the last 3 complete days), of water (the declared reserve, likewise), drills. */
export async function readinessFor(user: Caller, farmId: string) {
  if (!canAccessFarm(user, farmId)) throw farmNotFound(farmId);
  const today = isoDate(new Date());
  const [stock, drills, farm, silos] = await Promise.all([farmStockFor(user, { farmId }), listDrills(farmId), getFarm(farmId), silosOfFarm(farmId, today)]);
  const days = trailingDays(today);
  const cycleIds = stock.birds.flocks.flatMap((f) => (f.cycleId ? [f.cycleId] : []));
  const consumed = cycleIds.length ? await consumedOn(cycleIds, days) : { feedKg: {}, waterLiters: {} };
  // silo sensors with a reading measure what is in the bins; else the ledger's stock and consumption
  const measured = silos.filter((s) => s.kg !== null);
  const feed = measured.length
    ? {
        source: 'silos' as const,
        ...feedDays(sum(measured.map((s) => s.kg!)), measured.some((s) => s.dailyKg !== null) ? [sum(measured.map((s) => s.dailyKg ?? 0))] : []),
      }
    : { source: 'stock' as const, ...feedDays(stock.feed.totalKg, cycleIds.length ? days.map((d) => consumed.feedKg[d] ?? 0) : []) };
  const water = waterDays(farm?.waterReserveLiters ?? null, cycleIds.length ? days.map((d) => consumed.waterLiters[d] ?? 0) : []);
  const statuses = DRILL_KINDS.map((kind) => drillStatus(kind, drills, today, farm?.createdAt));
  return {
    farmId,
    asOf: today,
    feed,
    water,
    drills: statuses,
    ready: !feed.low && statuses.every((s) => !s.overdue),
  };
}

/** Point-in-time recovery, the objectives, and the last export of each farm the caller sees (at most 100). */
export async function continuityStatusFor(user: Caller) {
  const [backups, farms] = await Promise.all([
    continuousBackups(),
    user.allFarms ? listAllFarms({ limit: 100 }).then((p) => p.items) : getFarmsByIds(user.farmIds.slice(0, 100)),
  ]);
  const exports = await Promise.all(farms.map((f) => latestExportOf(f.id)));
  return {
    pointInTimeRecovery: {
      available: backups.available,
      status: backups.pointInTimeRecovery,
      earliestRestorableDateTime: backups.earliestRestorableDateTime,
      latestRestorableDateTime: backups.latestRestorableDateTime,
      recoveryPeriodInDays: backups.recoveryPeriodInDays,
      note: backups.note,
    },
    objectives: OBJECTIVES,
    farms: farms.map((f, i) => {
      const e = exports[i];
      return {
        farmId: f.id,
        name: f.name,
        lastExport: e ? { id: e.id, status: e.status, createdAt: e.createdAt, finishedAt: e.finishedAt, records: e.records } : null,
      };
    }),
  };
}

import { allFarmIds } from '../../db/flocks.js';
import { allSchedulesOfFarm } from '../../db/schedules.js';
import { systemCaller } from '../../domain/caller.js';
import type { CommandContext } from '../../domain/command.js';
import { addDays, daysBetween } from '../../platform/calendar.js';
import { raiseAnomaly } from '../anomalies/raising.js';
import { farmToday, occurrencesOf, withAgeOrigins } from './agenda.js';

/** How far back the overdue job looks for vaccinations not done (older ones were flagged already). */
export const OVERDUE_LOOKBACK_DAYS = 30;

/** Who the schedules job acts as. */
export const schedulesJobCaller = systemCaller('schedules', ['view_analytics', 'manage_incidents'], 'all');

/**
 * Daily: every vaccination occurrence of the last OVERDUE_LOOKBACK_DAYS days (before the farm's today,
 * on its own clock, at the job's instant) neither done nor skipped raises an anomaly, one per schedule
 * occurrence (its dedup key): a repeat run updates the open anomaly instead of opening another.
 */
export async function flagOverdueVaccinations(
  ctx: CommandContext,
): Promise<{ farms: number; flagged: number; failed: Array<{ farmId: string; error: string }> }> {
  let flagged = 0;
  const failed: Array<{ farmId: string; error: string }> = [];
  const farmIds = await allFarmIds();
  for (const farmId of farmIds) {
    try {
      flagged += await flagFarm(ctx, farmId);
    } catch (err) {
      // one farm's failure is recorded and the job goes on with the others (the next run retries it)
      failed.push({ farmId, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return { farms: farmIds.length, flagged, failed };
}

async function flagFarm(ctx: CommandContext, farmId: string): Promise<number> {
  const schedules = await withAgeOrigins(await allSchedulesOfFarm(farmId, 'vaccination'));
  if (schedules.length === 0) return 0;
  const { today } = await farmToday(farmId, ctx.now);
  const overdue = (await occurrencesOf(schedules, addDays(today, -OVERDUE_LOOKBACK_DAYS), addDays(today, -1), today)).filter((o) => o.status === 'overdue');
  for (const o of overdue) {
    const s = schedules.find((x) => x.id === o.scheduleId)!;
    const late = daysBetween(o.date, today);
    await raiseAnomaly(ctx, {
      farmId,
      houseId: s.houseId,
      flockId: s.flockId,
      cycleId: s.cycleId,
      source: 'schedule',
      ruleId: null,
      detector: null,
      metric: 'vaccination_overdue',
      unit: 'days',
      observed: late,
      expected: 0,
      deviation: late,
      window: { from: `${o.date}T00:00:00.000Z`, to: ctx.now.toISOString(), duration: `P${late}D` },
      startedOn: o.date,
      severity: late >= 3 ? 'critical' : 'warning',
      title: `Vaccination overdue: ${s.title} (due ${o.date}, ${late} day(s) late)`,
      evidence: { scheduleId: s.id, date: o.date, vaccine: s.details.vaccine ?? null, method: s.details.method ?? null },
      hypotheses: [],
      dedupKey: `schedule-overdue:${s.id}:${o.date}`,
      at: ctx.now.toISOString(),
    });
  }
  return overdue.length;
}

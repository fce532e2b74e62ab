import { listDrills } from '../../db/continuity.js';
import { allDevicesOfFarm } from '../../db/devices.js';
import type { DeviceRecord } from '../../domain/iot/records.js';
import { getFarm, getHouse } from '../../db/farms.js';
import { activeFlocksOfFarm } from '../../db/inventory.js';
import { rollupsBetween } from '../../db/sensor-readings.js';
import { dailySeries } from '../../domain/analytics/kpis/daily.js';
import type { DailyKpis } from '../../domain/analytics/kpis/types.js';
import { climateOf, climateOfDay, NO_CLIMATE, type ClimateSignals } from '../../domain/diagnosis/signals.js';
import { ageOn } from '../../domain/age.js';
import { systemCaller } from '../../domain/caller.js';
import type { BucketStats } from '../../domain/iot/rollups.js';
import type { FarmFacts } from '../../domain/rules/farm-points.js';
import { cycleAnalyticsContext, type CycleAnalyticsContext } from '../analytics/cycle-context.js';
import { flockOn, houseFlock, type HouseFlock } from '../flocks/house-flocks.js';
import type { SensorMetric } from '../../../schemas/vocabulary.js';
import { isoDate, isoHour } from '../../platform/calendar.js';

/**
 * What alarms are judged on, read once per pass: a farm's active flocks and devices, a cycle's analytics
 * context and daily series, a house's hourly rollups, a farm's own facts (its drills) and the climate
 * around an instant. Shared by the
 * rules (./evaluation.ts) and the statistical detectors (../detections.ts), so new data of a flock
 * is read once for both.
 */

/** Who rules act as: they read every farm's data and open incidents, nothing else. */
export const rulesCaller = systemCaller('rules', ['view_analytics', 'manage_incidents'], 'all');

const HOUR_MS = 3_600_000;

export interface Target {
  id: string;
  kind: 'flock' | 'house' | 'farm';
  farmId: string;
  houseId: string | null;
  flockId: string | null;
  cycleId: string | null;
}

export interface FarmData {
  flocks: Awaited<ReturnType<typeof activeFlocksOfFarm>>;
  devices: DeviceRecord[];
}

function memo<T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let p = cache.get(key);
  if (!p) {
    p = load();
    cache.set(key, p);
  }
  return p;
}

/**
 * The facts a pass reads, each once: a farm's active flocks and devices, a cycle's analytics context
 * and series, a house's hourly rollups over the widest period any of its rules needs.
 */
export class AlarmData {
  private flockLists = new Map<string, Promise<FarmData['flocks']>>();
  private deviceLists = new Map<string, Promise<DeviceRecord[]>>();
  private farmFacts = new Map<string, Promise<FarmFacts & { name: string | null }>>();
  private cycles = new Map<string, Promise<{ ctx: CycleAnalyticsContext; series: DailyKpis[] }>>();
  private houses = new Map<
    string,
    { fromMs: number; toMs: number; data: Promise<{ hours: Array<{ hour: string; stats: BucketStats }>; flock: HouseFlock | null }> }
  >();
  constructor(private readonly now: Date) {}

  /** A farm's active flocks (one Query). */
  flocks(farmId: string): Promise<FarmData['flocks']> {
    return memo(this.flockLists, farmId, () => activeFlocksOfFarm(farmId));
  }

  /** A farm's devices (one Query per page; only read when a sensor rule or a firing's climate needs them). */
  devices(farmId: string): Promise<DeviceRecord[]> {
    return memo(this.deviceLists, farmId, () => allDevicesOfFarm(farmId));
  }

  /** What farm-level inputs read: the farm's drills (one Query) and the day it was created (one GetItem). */
  farm(farmId: string): Promise<FarmFacts & { name: string | null }> {
    return memo(this.farmFacts, farmId, async () => {
      const [farm, drills] = await Promise.all([getFarm(farmId), listDrills(farmId)]);
      return { drills, createdAt: farm?.createdAt ?? null, name: farm?.name ?? null };
    });
  }

  cycle(flockId: string, cycleId: string) {
    const key = `${flockId}/${cycleId}`;
    let p = this.cycles.get(key);
    if (!p) {
      p = cycleAnalyticsContext(rulesCaller, flockId, cycleId, this.now, { withFarmFeed: true }).then((ctx) => ({
        ctx,
        series: dailySeries(ctx.inputs, ctx.config),
      }));
      this.cycles.set(key, p);
    }
    return p;
  }

  /** The hourly rollups of every device of the house over [fromMs, toMs) (read again only when a rule needs an earlier or later hour). */
  house(farmId: string, houseId: string, fromMs: number, toMs: number) {
    const cached = this.houses.get(houseId);
    if (cached && cached.fromMs <= fromMs && cached.toMs >= toMs) return cached.data;
    const range = { fromMs: Math.min(fromMs, cached?.fromMs ?? fromMs), toMs: Math.max(toMs, cached?.toMs ?? toMs) };
    const data = this.devices(farmId).then(async (all) => {
      const devices = all.filter((d) => d.houseId === houseId);
      const [rollups, flock] = await Promise.all([
        Promise.all(devices.map((d) => rollupsBetween(d.id, 'hour', isoHour(range.fromMs), isoHour(range.toMs - 1)))),
        houseFlock(farmId, houseId),
      ]);
      return { hours: rollups.flat().map((r) => ({ hour: r.bucket, stats: r.stats })), flock };
    });
    this.houses.set(houseId, { ...range, data });
    return data;
  }
}

/**
 * The climate of the farm-local day a flock's (daily) alarm is about: its hottest hour against the age
 * curve, and the day's NH₃, humidity and CO₂. The hours of the house's climate sensors are kept on the
 * cycle's days by ingestion and read with them (the cycle's analytics need each day's house temperature
 * for the expected water): the day's climate costs the alarm no read of its own.
 */
async function climateOfFlockDay(target: Target, data: AlarmData, day: string): Promise<{ climate: ClimateSignals; houseName: string | null }> {
  const { ctx } = await data.cycle(target.flockId!, target.cycleId!);
  const houseDay = ctx.inputs.houseDays?.find((d) => d.date === day) ?? null;
  const flock = day < ctx.cycle.startDate ? null : { birdType: ctx.cycle.birdType, ageDays: ageOn(ctx.cycle, day) };
  return { climate: climateOfDay(houseDay, flock), houseName: ctx.houseName };
}

/**
 * The house climate around an instant. A flock's alarm is about a day (it is judged at the end of it, `at`):
 * the climate of that day. A house's alarm is about an hour: the averages of the hour that ended at `at`,
 * else the devices' newest readings.
 */
export async function climateAround(target: Target, data: AlarmData, at: string): Promise<{ climate: ClimateSignals; houseName: string | null }> {
  if (!target.houseId) return { climate: NO_CLIMATE, houseName: null };
  if (target.kind === 'flock' && target.flockId && target.cycleId) return climateOfFlockDay(target, data, isoDate(Date.parse(at) - 1));
  const devices = await data.devices(target.farmId);
  const [house, flock] = await Promise.all([getHouse(target.farmId, target.houseId), houseFlock(target.farmId, target.houseId)]);
  const hour = isoHour(Date.parse(at) - 1);
  const values: Partial<Record<SensorMetric, number>> = {};
  const sums = new Map<SensorMetric, { sum: number; n: number }>();
  const cached = target.kind === 'house' ? await data.house(target.farmId, target.houseId, Date.parse(at) - HOUR_MS, Date.parse(at)) : null;
  for (const h of cached?.hours ?? []) {
    if (h.hour !== hour) continue;
    for (const [m, s] of Object.entries(h.stats) as [SensorMetric, { sum: number; n: number }][]) {
      const acc = sums.get(m) ?? { sum: 0, n: 0 };
      sums.set(m, { sum: acc.sum + s.sum, n: acc.n + s.n });
    }
  }
  for (const [m, s] of sums) if (s.n > 0) values[m] = s.sum / s.n;
  if (sums.size === 0) {
    for (const d of devices.filter((dev) => dev.houseId === target.houseId)) {
      for (const [m, v] of Object.entries(d.latest) as [SensorMetric, { value: number; ts: string }][]) values[m] ??= v.value;
    }
  }
  return { climate: climateOf(values, flockOn(flock, at.slice(0, 10))), houseName: house?.name ?? null };
}

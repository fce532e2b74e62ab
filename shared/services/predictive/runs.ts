import { log } from '../../platform/log.js';
import { ulid } from 'ulidx';
import { settings } from '../../config/env.js';
import { allDevicesOfFarm } from '../../db/devices.js';
import type { DeviceRecord } from '../../domain/iot/records.js';
import { getFarm } from '../../db/farms.js';
import { farmNotFound } from '../../domain/references.js';
import { allFarmIds } from '../../db/flocks.js';
import { deviceRiskItem, farmForecastItem, flockForecastItems, latestForecastsOf, putItems, runItem } from '../../db/forecasts.js';
import { activeFlocksOfFarm, farmStock, type FlockSummary } from '../../db/inventory.js';
import { rollupsBetween } from '../../db/sensor-readings.js';
import { addDays } from '../../platform/calendar.js';
import { systemCaller, type Caller } from '../../domain/caller.js';
import type { CommandContext } from '../../domain/command.js';
import type { HealthFactors } from '../../domain/iot/device-health.js';
import { deviceFailureRisks, riskWindow, type DeviceSeries } from '../../domain/predictive/devices.js';
import { addConsumption, trailingConsumption, TRAILING_DAYS, type TrailingConsumption } from '../../domain/predictive/feed.js';
import { flockForecast } from '../../domain/predictive/forecast.js';
import { PREDICTIVE_MODEL_VERSION } from '../../domain/predictive/model.js';
import type { DeviceRisk, FlockForecast, PredictiveRun, RunError } from '../../domain/predictive/records.js';
import { Conflict } from '../../errors.js';
import { cycleAnalyticsContext, type CycleAnalyticsContext } from '../analytics/cycle-context.js';
import { healthFactors } from '../iot/devices.js';
import { farmOfRequest } from '../farms.js';
import { scopedFlock } from '../flocks/flocks.js';
import { farmFeedForecast, siloOf, supplyOf, type Silo } from './feed.js';
import type { PredictiveJobResult, RunTrigger } from '../../../schemas/predictive.js';

/**
 * Predictive (`/api/v1/predictive`) and its hourly job: the runs (what they answer: ./reads.ts; the feed
 * figures: ./feed.ts). The forecasts come from the Analytics V2 engine (one engine: shared/domain/predictive
 * builds on `predictions`, the KPIs and the threshold breaches) fed by `cycleAnalyticsContext` — two round
 * trips per cycle, whatever its number of movements.
 *
 * Finding the active cycles without a Scan: the farms (GSI1 `FARMS`, one Query per 1 MB of farms), then
 * per farm its active flocks (GSI1 `FLOCKS#<farmId>` / `active#…`: one Query) — flocks with an
 * `activeCycleId` are the active cycles. Per farm the run also reads its feed stock (one Query) and its
 * devices (one Query), then per device its last 24 hourly rollups (one Query; silos one more for their
 * daily rollups). Per flock: `cycleAnalyticsContext` (a BatchGetItem, then the days, the weighings and
 * the house in parallel: 4 calls, 3 without a house) and one BatchWriteItem (latest + the day's
 * history). Per farm once more: one BatchWriteItem of the device risks, the farm's feed forecast and the
 * run (25 items a call). A farm with neither an active cycle nor a device costs the job its 3 Queries
 * and writes nothing.
 *
 * A flock that fails (its data makes the engine throw, its cycle vanished, a read failed) is recorded on
 * the run with its message and the run goes on with the others; so does a device. A farm that fails as
 * a whole (its flock list cannot be read) is logged and the job goes on with the next farm.
 *
 * The forecasts are a computation's output, not a decision: every write is a plain Put (the last
 * computation wins, nothing is conditioned or counted), batched 25 to a BatchWriteItem rather than
 * committed as one transaction.
 */

/** The hourly job acts as this caller: it reads every farm's cycles and recomputes their forecasts. */
export const predictiveJobCaller = systemCaller('predictive', ['view_analytics', 'manage_flocks'], 'all');

/** Daily forecasts are kept this long (accuracy reads at most 365 days back). */
export const HISTORY_TTL_DAYS = 400;
export const RUN_TTL_DAYS = 90;
/** Cycles of one farm evaluated at once. */
const FLOCK_CONCURRENCY = 4;
/** A flock-only run takes the other flocks' consumption from their forecasts computed within this time. */
const FRESH_MS = 26 * 3_600_000;
const DAY_S = 86_400;

const ttl = (days: number) => Math.floor(Date.now() / 1000) + days * DAY_S;
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

interface FarmRunOptions {
  now: Date;
  runId: string;
  trigger: RunTrigger;
  health: HealthFactors;
  /** A run of one flock (and the devices of its house) instead of the whole farm. */
  only?: FlockSummary;
}

/** The devices' hourly rollups of the risk window, and the silos' trailing outflow; a device that cannot be read is an error of the run. */
async function readDevices(devices: readonly DeviceRecord[], nowMs: number, asOf: string, errors: RunError[]) {
  const window = riskWindow(nowMs);
  const read = await Promise.all(
    devices.map(async (device) => {
      try {
        const silo = device.metrics.includes('siloKg');
        const [hours, days] = await Promise.all([
          rollupsBetween(device.id, 'hour', window.buckets[0]!, window.buckets.at(-1)!),
          silo ? rollupsBetween(device.id, 'day', addDays(asOf, -TRAILING_DAYS), addDays(asOf, -1)) : Promise.resolve([]),
        ]);
        const siloInfo: Silo | null = silo ? siloOf(device, days) : null;
        return { series: { device, hours } satisfies DeviceSeries, silo: siloInfo };
      } catch (err) {
        errors.push({ flockId: null, deviceId: device.id, message: messageOf(err) });
        return null;
      }
    }),
  );
  const ok = read.filter((r) => r !== null);
  return { series: ok.map((r) => r.series), silos: ok.flatMap((r) => (r.silo ? [r.silo] : [])) };
}

/** One farm's run: its active cycles (or one flock), its devices, its feed forecast, and the run record. */
async function runFarm(caller: Caller, farmId: string, o: FarmRunOptions): Promise<PredictiveRun> {
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const computedAt = o.now.toISOString();
  const asOf = computedAt.slice(0, 10);
  const errors: RunError[] = [];
  const houseFilter = o.only ? o.only.houseId : undefined;
  const [flocks, stock, devices, others] = await Promise.all([
    o.only ? Promise.resolve([o.only]) : activeFlocksOfFarm(farmId).then((all) => all.filter((f) => f.activeCycleId)),
    farmStock(farmId),
    houseFilter === null ? Promise.resolve([]) : allDevicesOfFarm(farmId, houseFilter ? { houseId: houseFilter } : {}),
    o.only ? latestForecastsOf(farmId) : Promise.resolve([] as FlockForecast[]),
  ]);

  const idle = flocks.length === 0 && devices.length === 0;

  const [contexts, deviceData] = await Promise.all([
    mapLimit(flocks, FLOCK_CONCURRENCY, async (f): Promise<{ ctx: CycleAnalyticsContext; consumption: TrailingConsumption } | null> => {
      try {
        const ctx = await cycleAnalyticsContext(caller, f.id, f.activeCycleId!, o.now);
        return { ctx, consumption: trailingConsumption(ctx.inputs.days, ctx.inputs.asOf) };
      } catch (err) {
        errors.push({ flockId: f.id, deviceId: null, message: messageOf(err) });
        return null;
      }
    }),
    readDevices(devices, o.now.getTime(), asOf, errors),
  ]);
  const evaluated = contexts.filter((c) => c !== null);

  // The farm's trailing consumption: every active cycle's (a flock-only run: the others' from their recent forecasts).
  const fresh = others.filter((f) => f.flockId !== o.only?.id && Date.parse(f.computedAt) >= o.now.getTime() - FRESH_MS);
  const farmConsumption = addConsumption([...evaluated.map((c) => c.consumption), ...fresh.map((f) => f.feed)]);
  const notes = o.only
    ? [
        `the farm's consumption adds ${fresh.length} other flock${fresh.length === 1 ? '' : 's'}' trailing consumption from their forecasts of the last 26 hours`,
      ]
    : [];
  const stockKgByType = Object.fromEntries(stock.feed.map((f) => [f.feedType, f.kg]));

  const forecasts: FlockForecast[] = [];
  for (const { ctx, consumption } of evaluated) {
    try {
      const { forecast, history } = flockForecast({
        flock: { id: ctx.flock.id, name: ctx.flock.name, farmId: ctx.flock.farmId, houseId: ctx.flock.houseId },
        inputs: ctx.inputs,
        config: ctx.config,
        configVersion: ctx.configVersion,
        computedAt,
        supply: supplyOf(ctx.flock.houseId, deviceData.silos, stockKgByType, farmConsumption),
        consumption,
        notes,
      });
      await putItems(flockForecastItems(forecast, history, ttl(HISTORY_TTL_DAYS)));
      forecasts.push(forecast);
    } catch (err) {
      errors.push({ flockId: ctx.flock.id, deviceId: null, message: messageOf(err) });
    }
  }

  let risks: DeviceRisk[] = [];
  try {
    risks = deviceFailureRisks(deviceData.series, o.now.getTime(), o.health, computedAt, PREDICTIVE_MODEL_VERSION);
  } catch (err) {
    errors.push({ flockId: null, deviceId: null, message: `device risks: ${messageOf(err)}` });
  }
  const farmFeed = o.only ? null : farmFeedForecast(farmId, asOf, computedAt, stockKgByType, farmConsumption, deviceData.silos, forecasts, errors);

  for (const e of errors) log.warn('predictive: not evaluated', { runId: o.runId, farmId, ...e });
  const finished = Date.now();
  const run: PredictiveRun = {
    id: o.runId,
    farmId,
    trigger: o.trigger,
    actorId: caller.id,
    scope: { flockId: o.only?.id ?? null },
    startedAt,
    finishedAt: new Date(finished).toISOString(),
    durationMs: finished - started,
    items: { flocks: flocks.length, forecasts: forecasts.length, devices: risks.length },
    errors,
  };
  // A scheduled run of a farm with neither an active cycle nor a device has nothing to record.
  if (!(idle && o.trigger === 'schedule'))
    await putItems([...risks.map(deviceRiskItem), ...(farmFeed ? [farmForecastItem(farmFeed)] : []), runItem(run, ttl(RUN_TTL_DAYS))]);
  return run;
}

const summaryOf = (f: {
  id: string;
  name: string;
  birdType: FlockSummary['birdType'];
  breed: string | null;
  houseId: string | null;
  activeCycleId: string | null;
}) => ({
  id: f.id,
  name: f.name,
  birdType: f.birdType,
  breed: f.breed,
  houseId: f.houseId,
  activeCycleId: f.activeCycleId,
});

/**
 * Recomputes now: every active cycle and device of a farm, or one flock's active cycle (and the devices
 * of its house). Another farm's farm or flock is NotFound; a flock without an active cycle is a
 * Conflict. The command's instant (`ctx.now`) is the time of the computation (tests forecast from a past day).
 */
export async function runForecasts(ctx: CommandContext, target: { farmId?: string; flockId?: string }, trigger: RunTrigger = 'manual'): Promise<PredictiveRun> {
  const { caller } = ctx;
  const base = { now: ctx.now, runId: ulid(), trigger };
  if (target.flockId !== undefined) {
    const flock = await scopedFlock(caller, target.flockId);
    if (!flock.activeCycleId) throw new Conflict(`Flock ${flock.id} has no active cycle to forecast`);
    return runFarm(caller, flock.farmId, { ...base, health: await healthFactors(), only: summaryOf(flock) });
  }
  const farmId = farmOfRequest(caller, target.farmId);
  const [farm, health] = await Promise.all([getFarm(farmId), healthFactors()]);
  if (!farm) throw farmNotFound(farmId);
  return runFarm(caller, farmId, { ...base, health });
}

/**
 * The hourly job (a `schedule` event): every farm, one after the other, as the job's caller (`predictiveJobCaller`).
 * PREDICTIVE_JOB_ENABLED=false makes it skip.
 */
export async function runPredictiveJob(ctx: CommandContext): Promise<PredictiveJobResult> {
  if (!settings().predictiveJobEnabled) return { skipped: 'disabled' };
  const started = Date.now();
  const runId = ulid();
  const [farmIds, health] = await Promise.all([allFarmIds(), healthFactors()]);
  const totals = { farms: farmIds.length, flocks: 0, forecasts: 0, devices: 0, errors: 0 };
  for (const farmId of farmIds) {
    try {
      const run = await runFarm(ctx.caller, farmId, { now: ctx.now, runId, trigger: 'schedule', health });
      totals.flocks += run.items.flocks;
      totals.forecasts += run.items.forecasts;
      totals.devices += run.items.devices;
      totals.errors += run.errors.length;
    } catch (err) {
      totals.errors++;
      log.error('predictive: farm not evaluated', { runId, farmId, error: messageOf(err) });
    }
  }
  return { runId, startedAt: new Date(started).toISOString(), durationMs: Date.now() - started, ...totals };
}

import { ulid } from 'ulidx';
import { settings } from '../config/env.js';
import { allDevicesOfFarm, type DeviceRecord } from '../db/devices.js';
import { farmNotFound, getFarm } from '../db/farms.js';
import { allFarmIds } from '../db/flocks.js';
import {
  deviceRiskItem,
  deviceRisksOf,
  farmForecastItem,
  farmWithForecast,
  flockForecastItems,
  flockWithForecast,
  forecastHistory,
  latestForecastsOf,
  listRuns,
  putItems,
  runItem,
  weighingsAfter,
} from '../db/forecasts.js';
import { activeFlocksOfFarm, farmStock, type FlockSummary } from '../db/inventory.js';
import { rollupsBetween } from '../db/sensor-readings.js';
import { effectiveWeighings } from '../domain/analytics/kpis/context.js';
import { systemCaller, type Caller } from '../domain/caller.js';
import { canAccessFarm } from '../domain/farm-access.js';
import { feedKgOfDay } from '../domain/iot/house-figures.js';
import type { HealthFactors } from '../domain/iot/device-health.js';
import { forecastAccuracy } from '../domain/predictive/accuracy.js';
import { byRisk, deviceFailureRisks, riskWindow, type DeviceSeries } from '../domain/predictive/devices.js';
import {
  addConsumption,
  farmStockRunOut,
  runOutOf,
  trailingConsumption,
  TRAILING_DAYS,
  type FeedSupply,
  type TrailingConsumption,
} from '../domain/predictive/feed.js';
import { flockForecast } from '../domain/predictive/forecast.js';
import { PREDICTIVE_MODEL_VERSION, round3 } from '../domain/predictive/model.js';
import type { DeviceRisk, FarmFeedForecast, FlockForecast, PredictiveRun, RunError } from '../domain/predictive/records.js';
import { confidenceOf } from '../domain/weights.js';
import { Conflict, NotFound } from '../errors.js';
import { cycleAnalyticsContext, type CycleAnalyticsContext } from './analytics.js';
import { healthFactors } from './devices.js';
import { farmOfListRequest, farmOfRequest } from './farms.js';
import { scopedFlock } from './flocks.js';
import type { PredictiveAccuracyQuery, PredictiveDevicesQuery, PredictiveJobResult, PredictiveRunsQuery, RunTrigger } from '../../schemas/predictive.js';
import { addDays, isoDate } from '../platform/calendar.js';
import { log } from '../platform/log.js';

/**
 * Predictive (`/api/v1/predictive`) and its hourly job: forecasts from the Analytics V2 engine fed by
 * `cycleAnalyticsContext`, active cycles found without a Scan (the farms, then each farm's active flocks).
 * What the job reads and costs: docs/data-model.md ("Predictive"); its failure isolation: docs/decisions.md
 * ("Predictive"); the models: docs/predictive.md.
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

interface Silo {
  device: DeviceRecord;
  kg: number | null;
  dailyKg: number | null;
}

/** A silo sensor's latest kg and its mean daily outflow over the trailing days' rollups. */
function siloOf(device: DeviceRecord, days: ReadonlyArray<{ stats: Parameters<typeof feedKgOfDay>[0] }>): Silo {
  const outflow = days.map((d) => feedKgOfDay(d.stats)).filter((kg): kg is number => kg !== null);
  return { device, kg: device.latest.siloKg?.value ?? null, dailyKg: outflow.length ? round3(outflow.reduce((a, b) => a + b, 0) / TRAILING_DAYS) : null };
}

/** The farm's silo sensors (devices reporting `siloKg`): each one's latest kg and mean daily outflow (continuity readiness). */
export async function silosOfFarm(
  farmId: string,
  asOf: string,
): Promise<Array<{ deviceId: string; houseId: string | null; kg: number | null; dailyKg: number | null }>> {
  const devices = (await allDevicesOfFarm(farmId, {})).filter((d) => d.metrics.includes('siloKg'));
  return Promise.all(
    devices.map(async (device) => {
      const s = siloOf(device, await rollupsBetween(device.id, 'day', addDays(asOf, -TRAILING_DAYS), addDays(asOf, -1)));
      return { deviceId: device.id, houseId: device.houseId, kg: s.kg, dailyKg: s.dailyKg };
    }),
  );
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

/** What feeds a flock: its house's silos when it has some with a reading, else the farm's stock (none when the farm records no stock). */
function supplyOf(
  houseId: string | null,
  silos: readonly Silo[],
  stockKgByType: Record<string, number>,
  farm: { dailyKg: number; dailyKgByType: Record<string, number> },
): FeedSupply | null {
  const own = silos.filter((s) => s.device.houseId === houseId && s.kg !== null);
  if (houseId && own.length) {
    const measured = own.filter((s) => s.dailyKg !== null);
    return {
      source: 'silo',
      stockKg: own.reduce((a, s) => a + s.kg!, 0),
      dailyKg: measured.length ? measured.reduce((a, s) => a + s.dailyKg!, 0) : null,
    };
  }
  if (Object.keys(stockKgByType).length === 0) return null;
  return { source: 'farm_stock', stockKgByType, farmDailyKg: farm.dailyKg, farmDailyKgByType: farm.dailyKgByType };
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

function farmFeedForecast(
  farmId: string,
  asOf: string,
  computedAt: string,
  stockKgByType: Record<string, number>,
  consumption: { dailyKg: number; dailyKgByType: Record<string, number> },
  silos: readonly Silo[],
  forecasts: readonly FlockForecast[],
  errors: readonly RunError[],
): FarmFeedForecast {
  const stock = farmStockRunOut(stockKgByType, consumption, asOf);
  const siloList = silos.map((s) => {
    const r = s.kg !== null && s.dailyKg !== null ? runOutOf(s.kg, s.dailyKg, asOf) : { daysLeft: null, date: null };
    return {
      deviceId: s.device.id,
      houseId: s.device.houseId,
      name: s.device.name,
      kg: s.kg,
      dailyKg: s.dailyKg ?? 0,
      daysLeft: r.daysLeft,
      runOutDate: r.date,
    };
  });
  const needed = round3(forecasts.reduce((a, f) => a + (f.feed.neededKg ?? 0), 0));
  const available = stock.totalKg + siloList.reduce((a, s) => a + (s.kg ?? 0), 0);
  return {
    farmId,
    asOf,
    computedAt,
    modelVersion: PREDICTIVE_MODEL_VERSION,
    window: { from: addDays(asOf, -TRAILING_DAYS), to: addDays(asOf, -1) },
    stock,
    silos: siloList,
    neededUntilHarvestKg: needed,
    shortfallKg: round3(Math.max(0, needed - available)),
    flocksEvaluated: forecasts.length,
    flocksFailed: [...new Set(errors.flatMap((e) => (e.flockId ? [e.flockId] : [])))],
  };
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
 * Conflict. `now` stands for the time of the computation (tests forecast from a past day).
 */
export async function runForecasts(
  caller: Caller,
  target: { farmId?: string; flockId?: string },
  opts: { now?: Date; trigger?: RunTrigger } = {},
): Promise<PredictiveRun> {
  const now = opts.now ?? new Date();
  const base = { now, runId: ulid(), trigger: opts.trigger ?? ('manual' as const) };
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
 * The hourly job (a `schedule` event): every farm, one after the other, as `predictiveJobCaller`.
 * PREDICTIVE_JOB_ENABLED=false makes it skip.
 */
export async function runPredictiveJob(now = new Date()): Promise<PredictiveJobResult> {
  if (!settings().predictiveJobEnabled) return { skipped: 'disabled' };
  const started = Date.now();
  const runId = ulid();
  const [farmIds, health] = await Promise.all([allFarmIds(), healthFactors()]);
  const totals = { farms: farmIds.length, flocks: 0, forecasts: 0, devices: 0, errors: 0 };
  for (const farmId of farmIds) {
    try {
      const run = await runFarm(predictiveJobCaller, farmId, { now, runId, trigger: 'schedule', health });
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

// ---------------------------------------------------------------------------------------------------
// Reads

/** The flock's latest forecast (`current`: still of its active cycle). Another farm's flock is NotFound like a missing one. */
export async function flockForecastFor(caller: Caller, flockId: string): Promise<FlockForecast & { current: boolean }> {
  const { flock, forecast } = await flockWithForecast(flockId);
  if (!flock || !canAccessFarm(caller, flock.farmId)) throw new NotFound(`Flock ${flockId} not found`);
  if (!forecast) throw new NotFound(`Flock ${flockId} has no forecast yet: the hourly job forecasts active cycles, or POST /api/v1/predictive/run`);
  return { ...forecast, current: flock.activeCycleId === forecast.cycleId };
}

/** The farm's feed forecast and its active cycles' health risks, highest first: one BatchGetItem and two Queries, in parallel. */
export async function farmForecastFor(caller: Caller, farmId: string) {
  if (!canAccessFarm(caller, farmId)) throw farmNotFound(farmId);
  const [{ farmExists, feed }, forecasts, flocks] = await Promise.all([farmWithForecast(farmId), latestForecastsOf(farmId), activeFlocksOfFarm(farmId)]);
  if (!farmExists) throw farmNotFound(farmId);
  const activeCycle = new Map(flocks.map((f) => [f.id, f.activeCycleId]));
  const healthRisks = forecasts
    .filter((f) => activeCycle.get(f.flockId) === f.cycleId)
    .map((f) => ({
      flockId: f.flockId,
      flockName: f.flockName,
      cycleId: f.cycleId,
      houseId: f.houseId,
      asOf: f.asOf,
      computedAt: f.computedAt,
      score: f.health.score,
      level: f.health.level,
      factors: f.health.factors.slice(0, 3),
      harvestDate: f.harvest.date,
      feedRunOutDate: f.feed.runOut?.date ?? null,
    }))
    .sort((a, b) => b.score - a.score || a.flockName.localeCompare(b.flockName) || a.flockId.localeCompare(b.flockId));
  return { farmId, feed: feed ?? null, healthRisks };
}

/** The device failure risks of a farm (of one house), highest first; devices deleted since are left out. Two Queries in parallel. */
export async function deviceRisksFor(caller: Caller, query: PredictiveDevicesQuery) {
  const farmId = await farmOfListRequest(caller, query.farmId, { houseId: query.houseId });
  const [risks, devices] = await Promise.all([deviceRisksOf(farmId, query.houseId), allDevicesOfFarm(farmId, query.houseId ? { houseId: query.houseId } : {})]);
  const registered = new Set(devices.map((d) => d.id));
  return { farmId, houseId: query.houseId ?? null, devices: risks.filter((r) => registered.has(r.deviceId)).sort(byRisk) };
}

/** A page of the farm's runs, newest first. */
export async function listRunsFor(caller: Caller, query: PredictiveRunsQuery) {
  const farmId = farmOfRequest(caller, query.farmId);
  const limit = query.limit ?? 25;
  const page = await listRuns(farmId, { limit, cursor: query.cursor });
  return { ...page, limit };
}

/**
 * How far off past forecasts were (../domain/predictive/accuracy.ts): the daily forecasts made in the
 * last `days` days (one Query) against the weighings of their cycles since (one Query per cycle).
 */
export async function forecastAccuracyFor(caller: Caller, query: PredictiveAccuracyQuery, now = new Date()) {
  let farmId: string;
  if (query.flockId !== undefined) {
    const flock = await scopedFlock(caller, query.flockId);
    if (query.farmId !== undefined && query.farmId !== flock.farmId) throw new NotFound(`Flock ${query.flockId} not found`);
    farmId = flock.farmId;
  } else farmId = farmOfRequest(caller, query.farmId);
  const to = isoDate(now);
  const from = addDays(to, -(query.days ?? 90));
  const history = await forecastHistory(farmId, from, query.flockId);
  const cycles = [...new Set(history.map((h) => h.cycleId))];
  const earliest = history.reduce((a, h) => (h.asOf < a ? h.asOf : a), to);
  const facts = cycles.length ? await weighingsAfter(cycles, earliest) : [];
  const actuals = cycles.flatMap((cycleId) =>
    effectiveWeighings(
      facts.filter((f) => f.cycleId === cycleId).map((f) => ({ ...f, confidence: confidenceOf({ method: f.method, n: f.sampleSize, cv: f.cv }) })),
    ).map((w) => ({ cycleId, date: w.date, grams: w.grams })),
  );
  return { farmId, flockId: query.flockId ?? null, from, to, ...forecastAccuracy(history, actuals) };
}

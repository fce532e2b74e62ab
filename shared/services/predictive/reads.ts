import { flockNotFound } from '../../domain/references.js';
import { isoDate } from '../../platform/calendar.js';
import { allDevicesOfFarm } from '../../db/devices.js';
import { farmNotFound } from '../../domain/references.js';
import { deviceRisksOf, farmWithForecast, flockWithForecast, forecastHistory, latestForecastsOf, listRuns, weighingsAfter } from '../../db/forecasts.js';
import { activeFlocksOfFarm } from '../../db/inventory.js';
import { addDays } from '../../platform/calendar.js';
import { effectiveWeighings } from '../../domain/analytics/kpis/context.js';
import type { Caller } from '../../domain/caller.js';
import { canAccessFarm, visibleTo } from '../../domain/farm-access.js';
import { forecastAccuracy } from '../../domain/predictive/accuracy.js';
import { byRisk } from '../../domain/predictive/devices.js';
import type { FlockForecast } from '../../domain/predictive/records.js';
import { confidenceOf } from '../../domain/weights.js';
import { NotFound } from '../../errors.js';
import { farmOfListRequest, farmOfRequest } from '../farms.js';
import { scopedFlock } from '../flocks/flocks.js';
import type { PredictiveAccuracyQuery, PredictiveDevicesQuery, PredictiveRunsQuery } from '../../../schemas/predictive.js';

/** What predictive answers (`GET /api/v1/predictive/…`): the forecasts the runs wrote (./runs.ts), their runs and their accuracy. */

/** The flock's latest forecast (`current`: still of its active cycle). Another farm's flock is NotFound like a missing one. */
export async function flockForecastFor(caller: Caller, flockId: string): Promise<FlockForecast & { current: boolean }> {
  const found = await flockWithForecast(flockId);
  const flock = visibleTo(caller, found.flock, () => flockNotFound(flockId));
  const { forecast } = found;
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

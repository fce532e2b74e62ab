import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { farmPricingKeys, farmPricingReadIn } from './farm-pricing.js';
import { BATCH_BACKOFF, batchGet, db, queryAll, tableName } from './client.js';
import { pause } from '../platform/retry.js';
import {
  cyclePartition,
  deviceRiskKey,
  deviceRisksOfFarm,
  farmForecastKey,
  farmKey,
  FORECAST_DAY_SK_PREFIX,
  forecastDayKey,
  forecastHistoryOfFarm,
  forecastPartition,
  flockKey,
  latestForecastKey,
  latestForecastsOfFarm,
  predictiveRunKey,
  predictiveRunsPartition,
  WEIGHT_SK_PREFIX,
} from './keys.js';
import { flockFromItem } from './flocks.js';
import type { FlockRecord } from '../domain/flocks/records.js';
import { queryPage } from './pagination.js';
import type { DeviceRisk, FarmFeedForecast, FlockForecast, ForecastHistory, PredictiveRun } from '../domain/predictive/records.js';
import type { WeightMethod } from '../domain/weights.js';

/**
 * Predictive records (docs/data-model.md, "Predictive"):
 * - `PREDICT#FLOCK#<flockId>` / `LATEST`: the flock's latest forecast (`data`), on GSI1 `FORECASTS#<farmId>`;
 * - `PREDICT#FLOCK#<flockId>` / `DAY#<asOf>`: what the day's last forecast predicted (daily weight path,
 *   harvest), on GSI1 `FORECASTHISTORY#<farmId>` / `<asOf>#<flockId>`, TTL: what accuracy scores;
 * - `PREDICT#FARM#<farmId>` / `LATEST`: the farm's feed forecast (stock and silo run-out);
 * - `PREDICT#DEVICE#<deviceId>` / `LATEST`: a device's failure risk, on GSI1 `DEVICERISKS#<farmId>` / `<houseId>#<deviceId>`;
 * - `PREDICT#RUNS#<farmId>` / `<startedAt>#<runId>`: one item per run and farm, TTL.
 * Every write is a plain Put (the last computation wins; nothing is incremented), batched 25 to a call.
 */

type Item = Record<string, unknown>;

export const flockForecastItems = (forecast: FlockForecast, history: ForecastHistory, expiresAt: number): Item[] => [
  {
    ...latestForecastKey(forecast.flockId),
    ...latestForecastsOfFarm(forecast.farmId),
    GSI1SK: forecast.flockId,
    type: 'FlockForecast',
    flockId: forecast.flockId,
    cycleId: forecast.cycleId,
    computedAt: forecast.computedAt,
    data: forecast,
  },
  {
    ...forecastDayKey(history.flockId, history.asOf),
    ...forecastHistoryOfFarm(history.farmId),
    GSI1SK: `${history.asOf}#${history.flockId}`,
    type: 'ForecastHistory',
    expiresAt,
    ...history,
  },
];

export const deviceRiskItem = (risk: DeviceRisk): Item => ({
  ...deviceRiskKey(risk.deviceId),
  ...deviceRisksOfFarm(risk.farmId),
  GSI1SK: `${risk.houseId}#${risk.deviceId}`,
  type: 'DeviceRisk',
  computedAt: risk.computedAt,
  data: risk,
});

export const farmForecastItem = (feed: FarmFeedForecast): Item => ({
  ...farmForecastKey(feed.farmId),
  type: 'FarmForecast',
  computedAt: feed.computedAt,
  data: feed,
});

export const runItem = (run: PredictiveRun, expiresAt: number): Item => ({
  ...predictiveRunKey(run.farmId, run.startedAt, run.id),
  type: 'PredictiveRun',
  expiresAt,
  data: run,
});

/** Puts the items, 25 to a BatchWriteItem, retrying what DynamoDB leaves unprocessed. */
export async function putItems(items: readonly Item[]): Promise<void> {
  const T = tableName();
  for (let i = 0; i < items.length; i += 25) {
    let pending = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt === 6) throw new Error('BatchWriteItem left items unprocessed after 6 attempts');
      if (attempt > 0) await pause(attempt, BATCH_BACKOFF);
      const res = await db().send(new BatchWriteCommand({ RequestItems: { [T]: pending } }));
      pending = (res.UnprocessedItems?.[T] as typeof pending | undefined) ?? [];
    }
  }
}

/** The flock and its latest forecast: one BatchGetItem (consistent). */
export async function flockWithForecast(flockId: string): Promise<{ flock: FlockRecord | undefined; forecast: FlockForecast | undefined }> {
  const items = await batchGet([flockKey(flockId), latestForecastKey(flockId)], { consistent: true });
  return {
    flock: flockFromItem(items.find((i) => i.SK === 'META')),
    forecast: items.find((i) => i.SK === 'LATEST')?.data as FlockForecast | undefined,
  };
}

/** Whether the farm exists, and its feed forecast: one BatchGetItem (consistent). */
export async function farmWithForecast(farmId: string): Promise<{ farmExists: boolean; feed: FarmFeedForecast | undefined }> {
  const items = await batchGet([farmKey(farmId), farmForecastKey(farmId)], { consistent: true });
  return farmAndForecastIn(items, farmId);
}

const farmAndForecastIn = (items: readonly Record<string, unknown>[], farmId: string) => ({
  farmExists: items.some((i) => i.PK === farmKey(farmId).PK && i.SK === 'META'),
  feed: items.find((i) => i.PK === farmForecastKey(farmId).PK)?.data as FarmFeedForecast | undefined,
});

/** The same, with what the farm's prices come from (its currency), in the same BatchGetItem. */
export async function farmWithForecastAndPricing(farmId: string) {
  const items = await batchGet([farmKey(farmId), farmForecastKey(farmId), ...farmPricingKeys(farmId)], { consistent: true });
  return { ...farmAndForecastIn(items, farmId), pricing: farmPricingReadIn(items, farmId) };
}

/** The latest forecast of every flock of the farm that has one (one Query on GSI1, more past 1 MB). */
export async function latestForecastsOf(farmId: string): Promise<FlockForecast[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': latestForecastsOfFarm(farmId).GSI1PK },
  });
  return items.map((i) => i.data as FlockForecast);
}

/** The device risks of a farm (of one house): one Query on GSI1. */
export async function deviceRisksOf(farmId: string, houseId?: string): Promise<DeviceRisk[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: 'GSI1',
    KeyConditionExpression: houseId ? 'GSI1PK = :pk AND begins_with(GSI1SK, :house)' : 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': deviceRisksOfFarm(farmId).GSI1PK, ...(houseId ? { ':house': `${houseId}#` } : {}) },
  });
  return items.map((i) => i.data as DeviceRisk);
}

/** A page of a farm's runs, newest first (one Query). */
export async function listRuns(farmId: string, opts: { limit: number; cursor?: string }): Promise<{ items: PredictiveRun[]; nextCursor: string | null }> {
  const page = await queryPage(
    { KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': predictiveRunsPartition(farmId) }, ScanIndexForward: false },
    opts,
  );
  return { items: page.items.map((i) => i.data as PredictiveRun), nextCursor: page.nextCursor };
}

const HISTORY_FIELDS = ['flockId', 'flockName', 'farmId', 'cycleId', 'asOf', 'computedAt', 'modelVersion', 'path', 'harvest'] as const;
const historyOf = (i: Item): ForecastHistory => Object.fromEntries(HISTORY_FIELDS.map((f) => [f, i[f] ?? null])) as unknown as ForecastHistory;

/**
 * The daily forecasts made since `since` (inclusive): a farm's (one Query on GSI1 by date) or one
 * flock's (one Query of its partition). More calls only past 1 MB.
 */
export async function forecastHistory(farmId: string, since: string, flockId?: string): Promise<ForecastHistory[]> {
  const items = flockId
    ? await queryAll({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': forecastPartition(flockId), ':from': `${FORECAST_DAY_SK_PREFIX}${since}`, ':to': `${FORECAST_DAY_SK_PREFIX}~` },
      })
    : await queryAll({
        TableName: tableName(),
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK >= :since',
        ExpressionAttributeValues: { ':pk': forecastHistoryOfFarm(farmId).GSI1PK, ':since': since },
      });
  return items.filter((i) => i.farmId === farmId).map(historyOf);
}

export interface WeighingFact {
  cycleId: string;
  date: string;
  grams: number;
  method: WeightMethod;
  sampleSize: number | null;
  cv: number | null;
  uniformityPct: number | null;
}

/** The weighing sessions of these cycles dated after `after`: one Query per cycle, in parallel (no samples, no histograms). */
export async function weighingsAfter(cycleIds: readonly string[], after: string): Promise<WeighingFact[]> {
  const lists = await Promise.all(
    cycleIds.map((cycleId) =>
      queryAll({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        ExpressionAttributeNames: { '#d': 'date', '#g': 'grams', '#m': 'method', '#n': 'sampleSize', '#cv': 'cv', '#u': 'uniformityPct' },
        ExpressionAttributeValues: { ':pk': cyclePartition(cycleId), ':from': `${WEIGHT_SK_PREFIX}${after}#~`, ':to': `${WEIGHT_SK_PREFIX}~` },
        ProjectionExpression: '#d, #g, #m, #n, #cv, #u',
      }).then((items) =>
        items.map((i) => ({
          cycleId,
          date: String(i.date),
          grams: Number(i.grams),
          method: i.method as WeightMethod,
          sampleSize: (i.sampleSize as number | null | undefined) ?? null,
          cv: (i.cv as number | null | undefined) ?? null,
          uniformityPct: (i.uniformityPct as number | null | undefined) ?? null,
        })),
      ),
    ),
  );
  return lists.flat();
}

import { GetCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { batchGet, db, eachLimited, queryAll, tableName } from './client.js';
import {
  analyticsConfigKey,
  cycleKey,
  cyclePartition,
  DAY_SK_PREFIX,
  dayRollupKey,
  DELIVERY_SK_PREFIX,
  farmKey,
  farmPricingKey,
  flockKey,
  houseKey,
  WEIGHT_SK_PREFIX,
  CLIMATE_HOUR_ATTR,
} from './keys.js';
import { farmPricingIn } from './farm-pricing.js';
import { deliveryFactOf } from './farm-movements.js';
import { cycleFromItem } from './cycles.js';
import type { CycleRecord } from '../domain/flocks/records.js';
import { flockFromItem } from './flocks.js';
import type { FlockRecord } from '../domain/flocks/records.js';
import { weightFromItem } from './weights.js';
import type { WeightRecord } from '../domain/flocks/records.js';
import { DAY_COUNTER_MAPS, emptyDay, isDayCounter, type DayTotals } from '../domain/analytics/inputs.js';
import { dayFigure, type SensorDayFigures } from '../domain/iot/house-figures.js';
import type { ClimateHour } from '../domain/iot/house-days.js';
import type { FeedDeliveryFact } from '../domain/analytics/suppliers.js';
import type { AnalyticsSections } from '../../schemas/analytics-config.js';

/**
 * The reads behind every analytics answer for one cycle, in two round trips whatever the number of
 * movements: (1) one BatchGetItem of the flock, the cycle and the analytics configuration; (2) in
 * parallel, the cycle's daily rollups (`DAY#<date>`, one item per day with movements), its weighing
 * sessions (`WEIGHT#…`) and one BatchGetItem of the flock's house with its farm (the house's area for the
 * stocking density, its name, and the farm's time zone, which decides the farm-local day of a sensor
 * hour) and the farm's pricing override. The day items also carry the house's climate hours (ingestion
 * keeps them there: `sensorClimate.<deviceId>.<HH>`). Raw movements are never read.
 */
export interface CycleHead {
  flock: FlockRecord | undefined;
  cycle: CycleRecord | undefined;
  storedConfig: { config: Partial<AnalyticsSections>; version: number } | undefined;
}

export async function readCycleHead(flockId: string, cycleId: string): Promise<CycleHead> {
  const items = await batchGet([flockKey(flockId), cycleKey(flockId, cycleId), analyticsConfigKey()], { consistent: true });
  const find = (key: { PK: string; SK: string }) => items.find((i) => i.PK === key.PK && i.SK === key.SK);
  return {
    flock: flockFromItem(find(flockKey(flockId))),
    cycle: cycleFromItem(find(cycleKey(flockId, cycleId))),
    storedConfig: storedConfigOf(find(analyticsConfigKey())),
  };
}

const storedConfigOf = (item: Record<string, unknown> | undefined) =>
  item ? { config: item.config as Partial<AnalyticsSections>, version: Number(item.version) } : undefined;

const prefixQuery = (cycleId: string, prefix: string): QueryCommandInput => ({
  TableName: tableName(),
  KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
  ExpressionAttributeValues: { ':pk': cyclePartition(cycleId), ':prefix': prefix },
  ConsistentRead: true,
});

/** A rollup item as a day: its counters; attributes named `<map>.<key>` (e.g. `deathsByCause.heat`) become maps of the day. */
export function dayFromItem(item: Record<string, unknown>): DayTotals {
  const day = emptyDay(String(item.date ?? String(item.SK).slice(DAY_SK_PREFIX.length)));
  if (Array.isArray(item.waterPh)) day.waterPh = item.waterPh.filter((v): v is number => typeof v === 'number');
  const sensor: SensorDayFigures = { waterLiters: {}, feedKg: {} };
  for (const [attr, value] of Object.entries(item)) {
    if (typeof value !== 'number') continue;
    const dot = attr.indexOf('.');
    const prefix = dot > 0 ? attr.slice(0, dot) : '';
    const map = DAY_COUNTER_MAPS.find((m) => m === prefix);
    if (map) day[map][attr.slice(dot + 1)] = value;
    else if (prefix === 'sensorWaterLiters') sensor.waterLiters[attr.slice(dot + 1)] = value;
    else if (prefix === 'sensorFeedKg') sensor.feedKg[attr.slice(dot + 1)] = value;
    else if (isDayCounter(attr)) day[attr] = value;
  }
  // The house's meters and silos stand in for a figure only on a day without a manual one (the source is named).
  const water = dayFigure(day.waterLiters, sensor.waterLiters);
  const feed = dayFigure(day.feedConsumedKg, sensor.feedKg);
  day.waterLiters = water.value;
  day.feedConsumedKg = feed.value;
  day.sources = { waterLiters: water.source, feedConsumedKg: feed.source };
  return day;
}

/** The climate hours kept on the cycle's days, per sensor (`<date>T<HH>` buckets): what the house's days are made of. */
function climateHoursOf(items: readonly Record<string, unknown>[]): Array<Array<{ bucket: string; stats: ClimateHour }>> {
  const bySensor = new Map<string, Array<{ bucket: string; stats: ClimateHour }>>();
  for (const item of items) {
    const date = String(item.date ?? String(item.SK).slice(DAY_SK_PREFIX.length));
    for (const [attr, value] of Object.entries(item)) {
      if (!attr.startsWith(`${CLIMATE_HOUR_ATTR}.`) || typeof value !== 'object' || value === null) continue;
      const [, deviceId, hour] = attr.split('.');
      if (!deviceId || !hour) continue;
      const list = bySensor.get(deviceId) ?? [];
      list.push({ bucket: `${date}T${hour}`, stats: value as ClimateHour });
      bySensor.set(deviceId, list);
    }
  }
  return [...bySensor.values()];
}

/**
 * The second round trip: the days, the weighings and, in one BatchGetItem, the flock's house, its farm
 * (its time zone: the farm-local today) and the farm's pricing override. The override's key needs the
 * farm id, which only the flock read in the first round trip gives, so it rides with the house (a flock
 * without a house: this BatchGetItem reads the farm and the override).
 */
export async function readCycleSeries(cycleId: string, houseRef: { farmId: string; houseId: string | null }) {
  const hk = houseRef.houseId ? houseKey(houseRef.farmId, houseRef.houseId) : undefined;
  const fk = farmKey(houseRef.farmId);
  const [dayItems, weightItems, farmItems] = await Promise.all([
    queryAll(prefixQuery(cycleId, DAY_SK_PREFIX)),
    queryAll(prefixQuery(cycleId, WEIGHT_SK_PREFIX)),
    batchGet([...(hk ? [hk] : []), fk, farmPricingKey(houseRef.farmId)], { consistent: true }),
  ]);
  const house = hk ? farmItems.find((i) => i.PK === hk.PK && i.SK === hk.SK) : undefined;
  const farm = farmItems.find((i) => i.PK === fk.PK && i.SK === fk.SK);
  return {
    days: dayItems.map(dayFromItem).sort((a, b) => a.date.localeCompare(b.date)),
    weights: weightItems.map((i) => weightFromItem(i)!) as WeightRecord[],
    houseAreaM2: typeof house?.usableAreaM2 === 'number' ? house.usableAreaM2 : null,
    houseName: typeof house?.name === 'string' ? house.name : null,
    timeZone: typeof farm?.timezone === 'string' ? farm.timezone : 'UTC',
    climateHours: climateHoursOf(dayItems),
    farmPricing: farmPricingIn(farmItems, houseRef.farmId),
  };
}

/**
 * The daily rollups of each cycle, by cycle id (one Query each, at most 10 at a time): what the layer
 * figures of flock analytics and the dashboard count, read as the cycle analytics read them (`dayFromItem`).
 */
export async function readCyclesDays(cycleIds: readonly string[]): Promise<Map<string, DayTotals[]>> {
  const ids = [...new Set(cycleIds)];
  const lists = await eachLimited(ids, 10, (id) => queryAll(prefixQuery(id, DAY_SK_PREFIX)));
  return new Map(ids.map((id, i) => [id, lists[i]!.map(dayFromItem).sort((a, b) => a.date.localeCompare(b.date))]));
}

/** The time zone of each farm (UTC when unknown): one BatchGetItem (none without a farm). */
export async function readFarmTimeZones(farmIds: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(farmIds)];
  const items = ids.length ? await batchGet(ids.map(farmKey), { consistent: true }) : [];
  const zones = new Map(items.map((i) => [String(i.id), typeof i.timezone === 'string' ? i.timezone : 'UTC']));
  return new Map(ids.map((id) => [id, zones.get(id) ?? 'UTC']));
}

/** The supplier facts of a cycle's feed deliveries (DELIVERY# copies kept by the ledger): one Query. */
export async function readCycleDeliveries(cycleId: string): Promise<FeedDeliveryFact[]> {
  const items = await queryAll(prefixQuery(cycleId, DELIVERY_SK_PREFIX));
  return items.map(deliveryFactOf);
}

/** One day of a cycle's ledger (its rollup, with the sensor figures of a day without manual ones); a day without an item is a day of zeros. */
export async function readCycleDay(cycleId: string, date: string): Promise<DayTotals> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: dayRollupKey(cycleId, date), ConsistentRead: true }));
  return res.Item ? dayFromItem(res.Item) : emptyDay(date);
}

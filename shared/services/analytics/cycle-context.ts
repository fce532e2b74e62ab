import { confidenceOf } from '../../domain/weights.js';
import type { CycleInputs, WeighingPoint } from '../../domain/analytics/inputs.js';
import { readCycleSeries } from '../../db/analytics.js';
import { datedFarmStock } from '../../db/inventory.js';
import { farmFeedOf } from '../../domain/stock-dates.js';
import { scopedCycleHead } from '../flocks/cycles.js';
import type { CycleRecord } from '../../domain/flocks/records.js';
import type { FlockRecord } from '../../domain/flocks/records.js';
import type { WeightRecord } from '../../domain/flocks/records.js';
import { BREED_STANDARDS } from '../../domain/analytics/breed-standards.js';
import type { Caller } from '../../domain/caller.js';
import { completeAll } from './config.js';
import { effectivePricing } from '../../domain/pricing/farm-pricing.js';
import type { AnalyticsSections } from '../../../schemas/analytics-config.js';
import { localToday } from '../../platform/calendar.js';
import { asOfFor } from '../../domain/analytics/kpis/context.js';
import { houseDaysOf } from '../../domain/iot/house-days.js';

/**
 * Loads what the analytics of one cycle compute from (shared/db/analytics.ts: two round trips, four
 * DynamoDB calls, whatever the number of movements; the farm's prices ride with the house) and hands it to the pure engine in
 * shared/domain/analytics. Another farm's cycle is NotFound, like one that does not exist.
 * The house's climate per farm-local day (the expected water's temperature, the alarms' hottest hour)
 * comes with the cycle's days: ingestion keeps the climate sensors' hours on them.
 */
export interface CycleAnalyticsContext {
  flock: FlockRecord;
  cycle: CycleRecord;
  /** The analytics configuration, its `pricing` the farm's prices in force (the farm's override over the service's pricing). */
  config: AnalyticsSections;
  /** The analytics configuration version the figures were computed with (0: the defaults). */
  configVersion: number;
  /** The farm's pricing version the money figures were computed with (0: the farm has no override). */
  pricingVersion: number;
  inputs: CycleInputs;
  /** The flock's house's name (null: no house). */
  houseName: string | null;
}

const toWeighing = (w: WeightRecord): WeighingPoint => ({
  date: w.date,
  grams: w.grams,
  method: w.method,
  confidence: confidenceOf({ method: w.method, n: w.sampleSize, cv: w.cv }),
  sampleSize: w.sampleSize,
  cv: w.cv,
  uniformityPct: w.uniformityPct,
});

/**
 * `withFarmFeed`: also the farm's feed stock (one more Query, beside the series): the alarms' days of feed
 * left judge the farm's stock, which deliveries fill without a cycle.
 */
export async function cycleAnalyticsContext(
  user: Caller,
  flockId: string,
  cycleId: string,
  now = new Date(),
  opts: { withFarmFeed?: boolean } = {},
): Promise<CycleAnalyticsContext> {
  const { flock, cycle, storedConfig } = await scopedCycleHead(user, flockId, cycleId);
  const [series, farmFeed] = await Promise.all([
    readCycleSeries(cycleId, { farmId: flock.farmId, houseId: flock.houseId }),
    opts.withFarmFeed ? datedFarmStock(flock.farmId).then((s) => farmFeedOf(s.feed)) : undefined,
  ]);
  // the farm's own day: a day is over once the farm's clock has passed its midnight
  const today = localToday(now, series.timeZone);
  const asOf = asOfFor(cycle, today);
  const houseDays = houseDaysOf(series.climateHours, series.timeZone).filter((d) => d.date >= cycle.startDate && d.date <= asOf);
  const config = completeAll(storedConfig?.config);
  config.pricing = effectivePricing(config.pricing, series.farmPricing?.override).pricing;
  return {
    houseName: series.houseName,
    flock,
    cycle,
    config,
    configVersion: storedConfig?.version ?? 0,
    pricingVersion: series.farmPricing?.version ?? 0,
    inputs: {
      cycle: {
        cycleId: cycle.id,
        flockId: flock.id,
        birdType: cycle.birdType,
        breed: flock.breed,
        hatchDate: cycle.hatchDate ?? flock.hatchDate,
        placedOn: cycle.placedOn ?? null,
        startDate: cycle.startDate,
        endDate: cycle.endDate,
        status: cycle.status,
        targetAgeDays: cycle.targetAgeDays,
        targetWeightGrams: cycle.targetWeightGrams,
        houseAreaM2: series.houseAreaM2,
      },
      days: series.days.filter((d) => d.date <= asOf),
      weighings: series.weights.map(toWeighing),
      asOf,
      today,
      ...(farmFeed ? { farmFeed } : {}),
      houseDays,
    },
  };
}

/** The breeds whose published standards the analytics compare against. */
export const breedStandardNames = () => BREED_STANDARDS.map((s) => s.name);

import type { ChartKind } from '../../presentation/charts/analytics.js';
import { thresholdBreaches } from '../../domain/analytics/threshold-breaches.js';
import { detectCycleDays } from '../../domain/detection/daily.js';
import { listBreedStandards } from '../../domain/analytics/breed-standards.js';
import { compareWithStandard } from '../../domain/analytics/comparison.js';
import { eggQualityTrend, type EggQualityWindow } from '../../domain/analytics/egg-quality.js';
import { cycleFinancials } from '../../domain/analytics/financials/cycle.js';
import { cycleKpis } from '../../domain/analytics/kpis/cycle.js';
import { dailySeries } from '../../domain/analytics/kpis/daily.js';
import { predictions } from '../../domain/analytics/predictions.js';
import type { PredictionOptions } from '../../domain/analytics/weight-prediction.js';
import { supplierReliability } from '../../domain/analytics/suppliers.js';
import { readCycleDeliveries } from '../../db/analytics.js';
import { readFarmDeliveries } from '../../db/farm-movements.js';
import { ValidationFailed } from '../../errors.js';
import type { Caller } from '../../domain/caller.js';
import { cycleAnalyticsContext, type CycleAnalyticsContext } from './cycle-context.js';
import { scopedFlock } from '../flocks/flocks.js';
import { farmPeriodDays } from '../periods.js';

/**
 * The Analytics V2 reads of one cycle. Each loads the cycle's facts once (cycleAnalyticsContext: two
 * round trips, whatever the number of movements) and runs the pure engine of shared/domain/analytics.
 * Every answer starts with the same `cycle` header, so clients know what the figures cover.
 */
function header(ctx: CycleAnalyticsContext) {
  const { cycle, flock, inputs } = ctx;
  return {
    flockId: flock.id,
    flockName: flock.name,
    cycleId: cycle.id,
    farmId: cycle.farmId,
    birdType: cycle.birdType,
    breed: flock.breed,
    status: cycle.status,
    startDate: cycle.startDate,
    endDate: cycle.endDate,
    asOf: inputs.asOf,
    configVersion: ctx.configVersion,
    pricingVersion: ctx.pricingVersion,
    currency: ctx.config.pricing.currency,
  };
}

export async function dailyReport(user: Caller, flockId: string, cycleId: string) {
  const ctx = await cycleAnalyticsContext(user, flockId, cycleId);
  return { cycle: header(ctx), days: dailySeries(ctx.inputs, ctx.config) };
}

export async function cycleReport(user: Caller, flockId: string, cycleId: string) {
  const ctx = await cycleAnalyticsContext(user, flockId, cycleId);
  return { cycle: header(ctx), kpis: cycleKpis(ctx.inputs, ctx.config) };
}

export async function breedReport(user: Caller, flockId: string, cycleId: string) {
  const ctx = await cycleAnalyticsContext(user, flockId, cycleId);
  return { cycle: header(ctx), comparison: compareWithStandard(ctx.inputs, ctx.config) };
}

export async function financialReport(user: Caller, flockId: string, cycleId: string) {
  const ctx = await cycleAnalyticsContext(user, flockId, cycleId);
  const kpis = cycleKpis(ctx.inputs, ctx.config);
  const live = kpis.liveWeightKg;
  // one more Query than the other reports: the farm's deliveries price the feed the cycle drew from the farm's stock
  const farmDeliveries = await readFarmDeliveries(ctx.cycle.farmId, { to: ctx.inputs.asOf });
  const liveWeight = { kg: live.value, reason: live.reason, assumptions: live.assumptions };
  return { cycle: header(ctx), financials: cycleFinancials(ctx.inputs, ctx.config, liveWeight, farmDeliveries) };
}

export async function predictionReport(user: Caller, flockId: string, cycleId: string, options: PredictionOptions) {
  const ctx = await cycleAnalyticsContext(user, flockId, cycleId);
  return { cycle: header(ctx), predictions: predictions(ctx.inputs, ctx.config, options) };
}

export async function anomalyReport(user: Caller, flockId: string, cycleId: string, query: { severity?: 'warning' | 'critical'; from?: string; to?: string }) {
  const ctx = await cycleAnalyticsContext(user, flockId, cycleId);
  const { from, to } = await farmPeriodDays(ctx.cycle.farmId, query);
  const series = dailySeries(ctx.inputs, ctx.config);
  const wanted = (date: string, severity: string) => (!query.severity || severity === query.severity) && (!from || date >= from) && (!to || date <= to);
  const anomalies = thresholdBreaches(ctx.inputs, ctx.config, { series }).filter((a) => wanted(a.date, a.severity));
  // the same detection code the detector job stores as anomalies (source detector)
  const detections = detectCycleDays(ctx.inputs, series, ctx.config.thresholds.significance).filter((d) => wanted(d.bucket, d.severity));
  return { cycle: header(ctx), thresholds: ctx.config.thresholds, anomalies, detections };
}

export async function supplierReport(user: Caller, flockId: string, cycleId: string) {
  const ctx = await cycleAnalyticsContext(user, flockId, cycleId);
  // the cycle's own deliveries, and those booked on its farm (no cycle) while it ran
  const [own, farm] = await Promise.all([
    readCycleDeliveries(cycleId),
    readFarmDeliveries(ctx.cycle.farmId, { from: ctx.cycle.startDate, to: ctx.inputs.asOf }),
  ]);
  return { cycle: header(ctx), ...supplierReliability([...own, ...farm], { currency: ctx.config.pricing.currency }) };
}

/** The egg-quality trend of a flock: its active cycle by default, or `cycleId`. */
export async function eggQualityReport(user: Caller, flockId: string, query: { cycleId?: string; window?: EggQualityWindow; periods?: number }) {
  const flock = await scopedFlock(user, flockId);
  const cycleId = query.cycleId ?? flock.activeCycleId;
  if (!cycleId) throw new ValidationFailed([{ field: 'cycleId', message: `is required: flock ${flockId} has no active cycle` }]);
  const ctx = await cycleAnalyticsContext(user, flockId, cycleId);
  const series = dailySeries(ctx.inputs, ctx.config);
  const hens = Object.fromEntries(series.map((d) => [d.date, d.birds.present]));
  const trend = eggQualityTrend(ctx.inputs.days, hens, {
    window: query.window ?? 'week',
    to: ctx.inputs.asOf,
    trendPeriods: query.periods,
    ...(ctx.inputs.today ? { today: ctx.inputs.today } : {}),
    birdType: ctx.cycle.birdType,
  });
  return { cycle: header(ctx), ...trend };
}

/** One chart of the cycle as an SVG document (daily and breed reads with `Accept: image/svg+xml`). */
export async function cycleChart(user: Caller, flockId: string, cycleId: string, kind: ChartKind): Promise<string> {
  // Loaded on first use: the JSON answers of these routes do not pay for d3 at cold start.
  const [{ analyticsChart }, ctx] = await Promise.all([import('../../presentation/charts/analytics.js'), cycleAnalyticsContext(user, flockId, cycleId)]);
  const series = dailySeries(ctx.inputs, ctx.config);
  return analyticsChart(kind, { flockName: ctx.flock.name, breed: ctx.flock.breed, series, comparison: compareWithStandard(ctx.inputs, ctx.config, series) });
}

export const breedStandards = () => listBreedStandards();

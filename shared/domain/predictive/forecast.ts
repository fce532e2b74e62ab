/**
 * The forecast of one active cycle (pure), built on the Analytics V2 engine (no second model): the weight
 * band, the points, the harvest, feed, run-out, health risk and the history the accuracy score reads.
 * How each is computed: docs/predictive.md ("The forecast of an active cycle").
 */
import type { AnalyticsSections } from '../../../schemas/analytics-config.js';
import { thresholdBreaches } from '../analytics/threshold-breaches.js';
import { ageInDays, findBreedStandard, standardValue } from '../analytics/breed-standards.js';
import type { CycleInputs } from '../analytics/inputs.js';
import { effectiveWeighings, isLayingType, seriesEnd } from '../analytics/kpis/context.js';
import { cycleKpis } from '../analytics/kpis/cycle.js';
import { dateOfAge } from '../age.js';
import { dailySeries } from '../analytics/kpis/daily.js';
import { predictions } from '../analytics/predictions.js';
import { DEFAULT_FORECAST_WEEKS } from '../analytics/production-forecast.js';
import { predictWeight } from '../analytics/weight-prediction.js';
import { agesAt, type Confidence } from '../weights.js';
import { feedNeeded, flockRunOut, trailingConsumption, type FeedSupply, type TrailingConsumption } from './feed.js';
import { healthRisk } from './health.js';
import { PREDICTIVE_MODEL_VERSION, round1, round3 } from './model.js';
import type { FlockForecast, ForecastHistory, WeightPoint } from './records.js';

/** Horizon of the weekly points, the egg forecast and the layers' feed need, in weeks. */
export const HORIZON_WEEKS = DEFAULT_FORECAST_WEEKS;
const HORIZON_DAYS = HORIZON_WEEKS * 7;
/** The daily path kept for accuracy runs at most this many days ahead. */
export const MAX_PATH_DAYS = 84;
const BAND_FLOOR_PCT: Record<Confidence, number> = { high: 3, medium: 5, low: 10 };
const BAND_MAX_PCT = 50;
const BAND_DOUBLING_DAYS = 28;

/** Half-width of the weight band, % of the forecast (see the module note). */
export function bandPct(confidence: Confidence | null, residualRmsPct: number | null, horizonDays: number): number {
  const base = Math.max(2 * (residualRmsPct ?? 0), BAND_FLOOR_PCT[confidence ?? 'low']);
  return Math.min(BAND_MAX_PCT, base * (1 + Math.max(0, horizonDays) / BAND_DOUBLING_DAYS));
}

export interface FlockForecastInput {
  flock: { id: string; name: string; farmId: string; houseId: string | null };
  inputs: CycleInputs;
  config: AnalyticsSections;
  configVersion: number;
  computedAt: string;
  /** Where the flock's feed comes from (null: no stock known). */
  supply: FeedSupply | null;
  /** The flock's trailing consumption, when the caller already computed it (`trailingConsumption`). */
  consumption?: TrailingConsumption;
  /** Notes the caller adds to the assumptions (how the farm's consumption was put together). */
  notes?: readonly string[];
}

export interface FlockForecastResult {
  forecast: FlockForecast;
  history: ForecastHistory;
}

/** The forecast of the cycle in `inputs` as of `inputs.asOf` (see the module note). */
export function flockForecast(x: FlockForecastInput): FlockForecastResult {
  const { inputs, config } = x;
  const cycle = inputs.cycle;
  const asOf = seriesEnd(inputs);
  const age = agesAt(asOf, cycle).ageDays;
  const series = dailySeries(inputs, config);
  const kpis = cycleKpis(inputs, config, series);
  const laying = isLayingType(cycle.birdType);

  const cycleTarget = cycle.targetWeightGrams;
  const configTarget = cycle.birdType === 'broiler' ? config.ratios.correctedFcrReferenceGrams : null;
  const targetGrams = cycleTarget ?? configTarget;
  const targetSource = cycleTarget !== null ? ('cycle' as const) : configTarget !== null ? ('configuration' as const) : null;
  const base = predictions(inputs, config, { ...(targetGrams !== null ? { targetWeightGrams: targetGrams } : {}), forecastWeeks: HORIZON_WEEKS }, series);
  const fit = base.weight.fit;

  // The weight engine at any age (one fit per age: the same code path as the v2 predictions route).
  const memo = new Map<number, number | null>();
  const weightAt = (ageDays: number): number | null => {
    if (!memo.has(ageDays)) memo.set(ageDays, predictWeight(inputs, config, { targetAgeDays: ageDays }).atTargetAge.weight.value);
    return memo.get(ageDays)!;
  };
  const point = (ageDays: number): WeightPoint | null => {
    const grams = weightAt(ageDays);
    if (grams === null) return null;
    const p = bandPct(fit.confidence, fit.residualRmsPct.value, ageDays - age) / 100;
    return { date: dateOfAge(cycle, ageDays), ageDays, grams, low: round1(grams * (1 - p)), high: round1(grams * (1 + p)) };
  };

  // Harvest
  const plannedAge = cycle.targetAgeDays;
  const reachAge = base.weight.targetWeight.ageDays;
  const basis = plannedAge !== null ? ('target_age' as const) : targetGrams !== null && reachAge !== null ? ('target_weight' as const) : null;
  const harvestAge = basis === 'target_age' ? plannedAge : basis === 'target_weight' ? reachAge : null;
  const ahead = harvestAge !== null && harvestAge > age;
  const harvestPoint = ahead ? point(harvestAge) : null;
  const harvestReason =
    harvestAge === null
      ? laying
        ? 'layers and breeders: no harvest unless the cycle plans one (targetAgeDays)'
        : (base.weight.targetWeight.reason ?? base.weight.reason ?? 'no target age or weight')
      : !ahead
        ? `the harvest age (day ${harvestAge}) is not after asOf (day ${age})`
        : harvestPoint === null
          ? `no weight forecast at day ${harvestAge}: ${base.weight.reason ?? 'outside the breed table (no extrapolation)'}`
          : null;

  // Weekly points to the harvest (at most the horizon), then the harvest itself.
  const pointsEnd = ahead ? Math.min(harvestAge, age + HORIZON_DAYS) : age + HORIZON_DAYS;
  const points: WeightPoint[] = [];
  for (let a = age + 7; a <= pointsEnd; a += 7) {
    const p = point(a);
    if (p) points.push(p);
  }
  if (harvestPoint && !points.some((p) => p.ageDays === harvestPoint.ageDays)) points.push(harvestPoint);

  // Feed
  const consumption = x.consumption ?? trailingConsumption(inputs.days, asOf);
  const feedEnd = ahead ? harvestAge : laying ? age + HORIZON_DAYS : null;
  const standard = findBreedStandard(cycle.breed, cycle.birdType);
  const fcrSeries = standard?.series.find((s) => s.key === 'cumulativeFcr');
  const need =
    feedEnd === null
      ? null
      : feedNeeded({
          asOfAge: age,
          untilAge: feedEnd,
          alive: kpis.birds.alive,
          cumulativeFeedKg: kpis.feedConsumedKg.value ?? 0,
          weightAt,
          standardFcrAt: standard && fcrSeries ? (a) => standardValue(standard, 'cumulativeFcr', a)?.value ?? null : null,
          firstFcrAge: standard && fcrSeries ? ageInDays(fcrSeries.points[0]![0], standard.ageUnit) : null,
          actualFcr: kpis.fcr.value !== null && kpis.performanceDate ? { value: kpis.fcr.value, ageDays: agesAt(kpis.performanceDate, cycle).ageDays } : null,
          trailingDailyKg: consumption.dailyKg,
          fcrAtEnd: cycle.birdType === 'broiler',
        });

  // Eggs
  const production = base.production;
  const weeks = production.weeks.map((w) => ({ week: w.week, from: w.from, to: w.to, henDayPct: w.henDayPct.value, eggs: w.eggs.value }));
  const allKnown = weeks.length > 0 && weeks.every((w) => w.eggs !== null);

  // History for accuracy: the daily path and the harvest.
  const pathEnd = Math.min(age + MAX_PATH_DAYS, Math.max(age + HORIZON_DAYS, ahead ? harvestAge : 0));
  const path = { from: dateOfAge(cycle, age + 1), grams: Array.from({ length: pathEnd - age }, (_, i) => weightAt(age + 1 + i)) };

  const weighings = effectiveWeighings(inputs.weighings).filter((w) => w.date <= asOf);
  const forecast: FlockForecast = {
    flockId: x.flock.id,
    flockName: x.flock.name,
    farmId: x.flock.farmId,
    houseId: x.flock.houseId,
    cycleId: cycle.cycleId,
    birdType: cycle.birdType,
    breed: cycle.breed,
    asOf,
    ageDays: age,
    computedAt: x.computedAt,
    modelVersion: PREDICTIVE_MODEL_VERSION,
    configVersion: x.configVersion,
    window: { from: cycle.startDate, to: asOf, days: series.length, weighings: weighings.length, lastWeighingDate: weighings.at(-1)?.date ?? null },
    weight: {
      method: fit.method,
      standard: fit.standard?.name ?? null,
      confidence: fit.confidence,
      fitRatio: fit.ratio.value,
      residualRmsPct: fit.residualRmsPct.value,
      points,
      reason: base.weight.reason ?? null,
    },
    harvest: {
      basis,
      targetAgeDays: plannedAge,
      targetWeight: {
        grams: targetGrams,
        source: targetSource,
        reached: base.weight.targetWeight.reached,
        date: base.weight.targetWeight.date,
        ageDays: base.weight.targetWeight.ageDays,
      },
      date: harvestAge === null ? null : dateOfAge(cycle, harvestAge),
      ageDays: harvestAge,
      daysFromAsOf: harvestAge === null ? null : harvestAge - age,
      weight: harvestPoint,
      fcr: ahead && need ? need.fcrAtEnd : null,
      reason: harvestReason,
    },
    feed: {
      window: consumption.window,
      dailyKg: consumption.dailyKg,
      dailyKgByType: consumption.dailyKgByType,
      method: need?.method ?? null,
      neededKg: need?.neededKg ?? null,
      neededUntil: feedEnd === null ? null : dateOfAge(cycle, feedEnd),
      runOut: flockRunOut(x.supply, consumption, asOf),
      assumptions: [...(need?.assumptions ?? []), ...(x.notes ?? [])],
      reason: feedEnd === null ? `no feed need without a harvest ahead: ${harvestReason}` : null,
    },
    eggs: {
      method: production.method,
      hensAlive: production.hensAlive,
      weeks,
      totalEggs: allKnown ? round3(weeks.reduce((a, w) => a + w.eggs!, 0)) : null,
      reason: production.reason ?? (weeks.length && !allKnown ? 'some weeks are outside the breed’s hen-day table' : null),
    },
    health: healthRisk(thresholdBreaches(inputs, config, { series }), asOf),
    assumptions: [...base.weight.assumptions, ...production.assumptions],
  };
  return {
    forecast,
    history: {
      flockId: forecast.flockId,
      flockName: forecast.flockName,
      farmId: forecast.farmId,
      cycleId: forecast.cycleId,
      asOf,
      computedAt: x.computedAt,
      modelVersion: PREDICTIVE_MODEL_VERSION,
      path,
      harvest: harvestPoint ? { date: harvestPoint.date, grams: harvestPoint.grams } : null,
    },
  };
}

/**
 * The shapes of what the predictive models produce and the repository stores: the static types of the
 * group's schemas (schemas/predictive.ts), so a stored record, what the domain computes and what the API
 * documents are one type. Plus the compact history a forecast leaves for the accuracy score.
 */
import type { Static } from '@sinclair/typebox';
import type {
  AccuracyDto,
  DeviceRiskDto,
  FarmFeedDto,
  FlockForecastDto,
  HealthRiskDto,
  PredictiveRunDto,
  RunErrorDto,
  RunOutDto,
  WeightPointDto,
} from '../../../schemas/predictive.js';

export type FlockForecast = Static<typeof FlockForecastDto>;
export type WeightPoint = Static<typeof WeightPointDto>;
export type RunOut = Static<typeof RunOutDto>;
export type HealthRisk = Static<typeof HealthRiskDto>;
export type FarmFeedForecast = Static<typeof FarmFeedDto>;
export type DeviceRisk = Static<typeof DeviceRiskDto>;
export type PredictiveRun = Static<typeof PredictiveRunDto>;
export type RunError = Static<typeof RunErrorDto>;
export type Accuracy = Static<typeof AccuracyDto>;

/**
 * What a forecast keeps for scoring it later (one per flock and day: the day's last run wins): the
 * daily weight path from the day after asOf (`grams[i]` is the forecast for `from` + i days; null
 * outside the breed table) and the harvest forecast.
 */
export interface ForecastHistory {
  flockId: string;
  flockName: string;
  farmId: string;
  cycleId: string;
  asOf: string;
  computedAt: string;
  modelVersion: string;
  path: { from: string; grams: Array<number | null> };
  harvest: { date: string; grams: number } | null;
}

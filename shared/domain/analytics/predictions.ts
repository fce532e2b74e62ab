/**
 * Predictions (GET /api/v2/analytics/predictions/{flockId}/{cycleId}), pure: body weight fitted to the
 * breed curve, and layer production.
 * The two halves: ./weight-prediction.ts and ./production-forecast.ts.
 * The fit, its confidence and the fallbacks: docs/analytics-reports.md ("Predictions").
 */
import type { AnalyticsSections } from '../../../schemas/analytics-config.js';
import type { CycleInputs } from './inputs.js';
import type { DailyKpis } from './kpis/types.js';
import { forecastProduction, type ProductionForecast } from './production-forecast.js';
import { predictWeight, type PredictionOptions, type WeightPrediction } from './weight-prediction.js';

export interface Predictions {
  weight: WeightPrediction;
  production: ProductionForecast;
}

/** Both predictions of a cycle. */
export function predictions(inputs: CycleInputs, config: AnalyticsSections, options: PredictionOptions = {}, series?: readonly DailyKpis[]): Predictions {
  return { weight: predictWeight(inputs, config, options), production: forecastProduction(inputs, config, options, series) };
}

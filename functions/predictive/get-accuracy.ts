import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { forecastAccuracyFor } from '../../shared/services/predictive/reads.js';
import { predictiveAccuracyQuery } from '../../schemas/compiled/predictive.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'Accuracy of past forecasts: mean absolute percentage error of the weight and harvest forecasts, per flock and overall',
    description:
      'Requires view_analytics. Every forecast of the last `days` days (one per flock and day) is scored against the weighings dated after it: ' +
      'weight = each weighing against the forecast for its date, harvest = the harvest weight against the weighing on the forecast harvest date; `n` counts the pairs.',
    query: predictiveAccuracyQuery,
    responses: {
      200: { description: 'The forecasts’ errors', schema: 'AccuracyResponse' },
      404: { description: 'No such farm or flock, or not one of yours' },
    },
  },
  async ({ query, user }) => ok(await forecastAccuracyFor(user, query)),
);

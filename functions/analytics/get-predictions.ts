import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { predictionReport } from '../../shared/services/analytics/reports.js';
import { cycleParams } from '../../schemas/compiled/cycles.js';
import { predictionsQuery } from '../../schemas/compiled/analytics.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'Weight at the target age and the date the target weight is reached (weighings fitted to the breed curve); layers: production forecast',
    description:
      'Targets default to the cycle’s targetAgeDays / targetWeightGrams. Without a breed standard the recent ADG is extended linearly (said in `assumptions`, confidence low).',
    params: cycleParams,
    query: predictionsQuery,
    responses: { 200: { description: 'Predictions', schema: 'PredictionsResponse' }, 404: { description: 'No such cycle, or not one of yours' } },
  },
  async ({ params, query, user }) => ok(await predictionReport(user, params.flockId, params.cycleId, query), 'Predictions'),
);

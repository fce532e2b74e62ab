import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { farmForecastFor } from '../../shared/services/predictive/reads.js';
import { predictiveFarmParams } from '../../schemas/compiled/predictive.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'A farm’s feed run-out (stock and silos) and its active cycles’ health risks, highest first',
    description: 'Requires view_analytics. `feed` is null until a farm-wide run (the hourly job, or POST /api/v1/predictive/run with farmId) computed it.',
    params: predictiveFarmParams,
    responses: {
      200: { description: 'The farm’s forecasts', schema: 'FarmForecastResponse' },
      404: { description: 'No such farm, or not one of yours' },
    },
  },
  async ({ params, user }) => ok(await farmForecastFor(user, params.farmId)),
);

import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { flockForecastFor } from '../../shared/services/predictive/reads.js';
import { predictiveFlockParams } from '../../schemas/compiled/predictive.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'The latest forecast of a flock: weight and harvest, FCR at harvest, eggs, feed need and run-out, health risk',
    description:
      'Requires view_analytics. Computed by the hourly job (or POST /api/v1/predictive/run) from the same engine as GET /api/v2/analytics/predictions; ' +
      'it names its model version, the data window it used and `computedAt`. `current` is false once the cycle it is of has closed.',
    params: predictiveFlockParams,
    responses: {
      200: { description: 'The latest forecast', schema: 'FlockForecastResponse' },
      404: { description: 'No such flock, one of a farm you cannot see, or no forecast yet' },
    },
  },
  async ({ params, user }) => ok(await flockForecastFor(user, params.flockId)),
);

import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { runForecasts } from '../../shared/services/predictive/runs.js';
import { predictiveRunBody } from '../../schemas/compiled/predictive.js';

export const handler = httpHandler(
  {
    capability: 'manage_flocks',
    summary: 'Recompute the forecasts now: every active cycle and device of a farm, or one flock',
    description:
      'Requires manage_flocks (the farm’s managers; the hourly job recomputes everything anyway). Send exactly one of `farmId` and `flockId`. ' +
      'The answer is the run as recorded: a flock or device that failed is named in `errors` and the others are still written.',
    body: predictiveRunBody,
    responses: {
      200: { description: 'The run', schema: 'PredictiveRunResponse' },
      404: { description: 'No such farm or flock, or not one of yours' },
      409: { description: 'The flock has no active cycle' },
    },
  },
  async ({ body, ctx }) => ok(await runForecasts(ctx, body), 'Forecasts recomputed'),
);

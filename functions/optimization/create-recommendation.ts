import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { createRecommendationFor } from '../../shared/services/recommendations.js';
import { createRecommendationBody } from '../../schemas/compiled/optimization.js';

export const handler = httpHandler(
  {
    capability: 'manage_system',
    summary: 'Write an optimization recommendation for a flock (body: {flockId, category, description, expectedBenefit})',
    description: 'Attached to the flock’s active cycle unless `cycleId` names another of its cycles. Starts `open`; `Idempotency-Key` makes retries safe.',
    body: createRecommendationBody,
    headers: IDEMPOTENCY_KEY,
    responses: {
      201: { description: 'Created', schema: 'RecommendationResponse' },
      404: { description: 'No such flock, or not one of yours' },
    },
  },
  async ({ body, ctx }) => replayable(await createRecommendationFor(ctx, body)),
);

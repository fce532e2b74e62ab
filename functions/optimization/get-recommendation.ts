import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { scopedRecommendation, toRecommendationDto } from '../../shared/services/recommendations.js';
import { recommendationParams } from '../../schemas/compiled/optimization.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'Get one recommendation with its evidence (ETag: its version)',
    description:
      'Requires view_analytics. A recommendation of a farm you are not assigned to answers 404. The ETag header carries its version for a decision with If-Match.',
    params: recommendationParams,
    responses: {
      200: { headers: ['ETag'], description: 'The recommendation', schema: 'RecommendationResponse' },
      404: { description: 'No such recommendation, or not one of yours' },
    },
  },
  async ({ params, user }) => {
    const rec = await scopedRecommendation(user, params.recommendationId);
    return ok(toRecommendationDto(rec), 'OK', { ETag: `"${rec.version}"` });
  },
);

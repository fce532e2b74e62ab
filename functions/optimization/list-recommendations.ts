import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { listRecommendationsFor, toRecommendationDto } from '../../shared/services/recommendations.js';
import { listRecommendationsQuery } from '../../schemas/compiled/optimization.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'List recommendations of a flock (`flockId`) or of a farm (`farmId`, or your only farm), newest first; filter by status, category, source',
    description: 'Filters apply within each page, so a filtered page may hold fewer than `limit` items while `page.nextCursor` is set.',
    query: listRecommendationsQuery,
    responses: {
      200: { description: 'A page of recommendations', schema: 'RecommendationListResponse' },
      404: { description: 'No such flock or farm, or not one of yours' },
    },
  },
  async ({ query, user }) => {
    const { items, nextCursor, limit } = await listRecommendationsFor(user, query);
    return list(items.map(toRecommendationDto), { limit, nextCursor });
  },
);

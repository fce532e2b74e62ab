import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { farmPricingHistory, toFarmPricingVersionDto } from '../../shared/services/analytics/farm-pricing.js';
import { farmIdParams } from '../../schemas/compiled/farms.js';
import { farmPricingHistoryQuery } from '../../schemas/compiled/farm-pricing.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'Versions of a farm’s pricing, newest first: who set or removed which fields, when, and the override as of each version',
    description:
      'Requires view_analytics. A page of at most `limit` versions; send `page.nextCursor` back as `cursor` for the next page. A farm you are not assigned to answers 404.',
    params: farmIdParams,
    query: farmPricingHistoryQuery,
    responses: {
      200: { description: 'A page of versions', schema: 'FarmPricingHistoryResponse' },
      404: { description: 'No such farm, or not one of yours (same answer)' },
    },
  },
  async ({ params, query, user }) => {
    const { items, nextCursor, limit } = await farmPricingHistory(user, params.farmId, query);
    return list(items.map(toFarmPricingVersionDto), { limit, nextCursor });
  },
);

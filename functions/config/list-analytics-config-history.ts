import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { analyticsConfigHistory, toAnalyticsConfigVersionDto } from '../../shared/services/analytics/config.js';
import { analyticsConfigHistoryQuery } from '../../schemas/compiled/analytics-config.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'Versions of the analytics configuration, newest first: who changed which sections, when, and the whole configuration as of each version',
    description: 'Requires view_analytics. A page of at most `limit` versions; send `page.nextCursor` back as `cursor` for the next page.',
    query: analyticsConfigHistoryQuery,
    responses: { 200: { description: 'A page of versions', schema: 'AnalyticsConfigHistoryResponse' } },
  },
  async ({ query }) => {
    const { items, nextCursor, limit } = await analyticsConfigHistory(query);
    return list(items.map(toAnalyticsConfigVersionDto), { limit, nextCursor });
  },
);

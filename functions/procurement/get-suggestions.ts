import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { reorderSuggestionsFor } from '../../shared/services/procurement/suggestions.js';
import { suggestionsQuery } from '../../schemas/compiled/procurement.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'Feed reorder suggestions of a farm: draft order bodies with their reasoning',
    description:
      'Requires view_analytics. From the farm’s feed stock, the mean feed consumption of the last 3 full days and, where stored, the predictive feed run-out date of each feed type. A feed type whose stock does not last a 3-day lead time plus `coverDays` gets a suggestion: an order body for POST /api/v1/procurement/orders (place it yourself) and why. Writes nothing.',
    query: suggestionsQuery,
    responses: { 200: { description: 'The suggestions', schema: 'SuggestionsResponse' }, 404: { description: 'No such farm, or not one of yours' } },
  },
  async ({ query, user }) => ok(await reorderSuggestionsFor(user, query), 'Reorder suggestions'),
);

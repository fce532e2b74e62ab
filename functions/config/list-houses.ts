import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { listHousesFor, toHouseDto } from '../../shared/services/farms.js';
import { farmIdParams, listHousesQuery } from '../../schemas/compiled/farms.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'List the houses of a farm (in creation order)',
    description: 'Requires view_analytics. A page of at most `limit` houses of the farm; send `page.nextCursor` back as `cursor` for the next page.',
    params: farmIdParams,
    query: listHousesQuery,
    responses: {
      200: { description: 'A page of houses', schema: 'HouseListResponse' },
      404: { description: 'No such farm, or not one of yours (same answer)' },
    },
  },
  async ({ params, query, user }) => {
    const limit = query.limit ?? 25;
    const { items, nextCursor } = await listHousesFor(user, params.farmId, { limit, cursor: query.cursor });
    return list(items.map(toHouseDto), { limit, nextCursor });
  },
);

import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { listFlocksFor, toFlockDto } from '../../shared/services/flocks/flocks.js';
import { listFlocksQuery } from '../../schemas/compiled/flocks.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'List the flocks of your farms (active by default; filter by farm, status, bird type, house)',
    description:
      'Requires view_analytics. A page of at most `limit` flocks of the farms you may see; send `page.nextCursor` back as `cursor` for the next page.',
    query: listFlocksQuery,
    responses: {
      200: { description: 'A page of flocks', schema: 'FlockListResponse' },
      404: { description: 'farmId or houseId names a farm or house you may not see (as for one that does not exist)' },
    },
  },
  async ({ query, user }) => {
    const { items, nextCursor, limit } = await listFlocksFor(user, query);
    return list(items.map(toFlockDto), { limit, nextCursor });
  },
);

import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { listCyclesFor, toCycleDto } from '../../shared/services/flocks/cycles.js';
import { flockIdParams } from '../../schemas/compiled/flocks.js';
import { listCyclesQuery } from '../../schemas/compiled/cycles.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'The cycles of a flock, newest first, each with its summary',
    description: 'Requires view_analytics. A page of at most `limit` cycles; send `page.nextCursor` back as `cursor` for the next page.',
    params: flockIdParams,
    query: listCyclesQuery,
    responses: { 200: { description: 'A page of cycles', schema: 'CycleListResponse' } },
  },
  async ({ params, query, user }) => {
    const { items, nextCursor, limit, basis } = await listCyclesFor(user, params.flockId, query);
    return list(
      items.map((c) => toCycleDto(c, basis)),
      { limit, nextCursor },
    );
  },
);

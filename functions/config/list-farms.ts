import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { listFarmsFor, toFarmDto } from '../../shared/services/farms.js';
import { listFarmsQuery } from '../../schemas/compiled/farms.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'List the farms you may see (admins: every farm, by name; others: their farms, in the order of their assignment)',
    description: 'Requires view_analytics. A page of at most `limit` farms; send `page.nextCursor` back as `cursor` for the next page.',
    query: listFarmsQuery,
    responses: { 200: { description: 'A page of farms', schema: 'FarmListResponse' } },
  },
  async ({ query, user }) => {
    const limit = query.limit ?? 25;
    const { items, nextCursor } = await listFarmsFor(user, { limit, cursor: query.cursor });
    return list(items.map(toFarmDto), { limit, nextCursor });
  },
);

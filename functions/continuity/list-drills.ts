import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { listDrillsFor } from '../../shared/services/continuity/readiness.js';
import { listDrillsQuery } from '../../schemas/compiled/continuity.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'A farm’s drills, newest first',
    description:
      'Requires view_analytics. `farmId` may be left out when you are assigned to one farm. One page holds every drill (a farm records a few a week).',
    query: listDrillsQuery,
    responses: { 200: { description: 'The drills', schema: 'DrillListResponse' }, 404: { description: 'No such farm, or not one of yours' } },
  },
  async ({ query, user }) => {
    const items = await listDrillsFor(user, query);
    return list(items, { limit: items.length, nextCursor: null });
  },
);

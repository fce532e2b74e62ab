import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { listMovementsFor } from '../../shared/services/movements/movement-reads.js';
import { cycleParams } from '../../schemas/compiled/cycles.js';
import { listMovementsQuery } from '../../schemas/compiled/movements.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'The movements of a cycle by date (filter by type and date range)',
    description: 'Requires view_analytics. A page of at most `limit` movements; send `page.nextCursor` back as `cursor` for the next page.',
    params: cycleParams,
    query: listMovementsQuery,
    responses: { 200: { description: 'A page of movements', schema: 'MovementListResponse' } },
  },
  async ({ params, query, user }) => {
    const { items, nextCursor, limit } = await listMovementsFor(user, params.flockId, params.cycleId, query);
    return list(items, { limit, nextCursor });
  },
);

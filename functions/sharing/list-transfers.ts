import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { listTransfersFor } from '../../shared/services/transfers/reads.js';
import { listTransfersQuery } from '../../schemas/compiled/sharing.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'List a farm’s transfers, incoming (default) or outgoing, newest first',
    description:
      'Requires view_analytics. `farmId` may be left out when you are assigned to one farm. By default both directions, newest first (each transfer says `from` and `to`); `direction=incoming` lists what the farm receives (what its manager approves), `outgoing` what it sends. A page filtered by `status` may hold fewer than `limit` transfers while `page.nextCursor` is set.',
    query: listTransfersQuery,
    responses: { 200: { description: 'A page of transfers', schema: 'TransferListResponse' }, 404: { description: 'No such farm, or not one of yours' } },
  },
  async ({ query, user }) => {
    const { items, limit, nextCursor } = await listTransfersFor(user, query);
    return list(items, { limit, nextCursor });
  },
);

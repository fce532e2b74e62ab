import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { listOrdersFor } from '../../shared/services/procurement/orders.js';
import { listOrdersQuery } from '../../schemas/compiled/procurement.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'List a farm’s purchase orders, newest first (filters: status, supplierId)',
    description:
      'Requires view_analytics. `farmId` may be left out when you are assigned to one farm. A filtered page may hold fewer than `limit` orders while `page.nextCursor` is set.',
    query: listOrdersQuery,
    responses: { 200: { description: 'A page of purchase orders', schema: 'OrderListResponse' }, 404: { description: 'No such farm, or not one of yours' } },
  },
  async ({ query, user }) => {
    const { items, limit, nextCursor } = await listOrdersFor(user, query);
    return list(items, { limit, nextCursor });
  },
);

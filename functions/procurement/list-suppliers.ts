import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { listSuppliersFor } from '../../shared/services/procurement/suppliers.js';
import { listSuppliersQuery } from '../../schemas/compiled/procurement.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'List the suppliers serving a farm, by name (filter: kind; archived ones on request)',
    description:
      'Requires view_analytics. `farmId` may be left out when you are assigned to one farm. A filtered page may hold fewer than `limit` suppliers while `page.nextCursor` is set. `farmIds` lists only the farms you can see.',
    query: listSuppliersQuery,
    responses: { 200: { description: 'A page of suppliers', schema: 'SupplierListResponse' }, 404: { description: 'No such farm, or not one of yours' } },
  },
  async ({ query, user }) => {
    const { items, limit, nextCursor } = await listSuppliersFor(user, query);
    return list(items, { limit, nextCursor });
  },
);

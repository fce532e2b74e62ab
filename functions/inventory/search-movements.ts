import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { searchMovementsFor } from '../../shared/services/inventory.js';
import { inventoryMovementsQuery } from '../../schemas/compiled/inventory.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'Search the movements of a farm across its flocks and cycles (type, date range, flock), newest first',
    description:
      'Ordered by movement date then id: newest first by default, `order=asc` for oldest first. `from`/`to` are inclusive dates. ' +
      'With a type or flock filter a page may come back shorter than `limit` while `page.nextCursor` is set; the list ends when it is null. ' +
      'A cursor is only valid for the farm and date range it was issued for.',
    query: inventoryMovementsQuery,
    responses: {
      200: { description: 'A page of movements', schema: 'InventoryMovementListResponse' },
      404: { description: 'Unknown farm, or a farm you are not assigned to' },
    },
  },
  async ({ query, user }) => {
    const { items, nextCursor, limit } = await searchMovementsFor(user, query);
    return list(items, { limit, nextCursor });
  },
);

import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { farmStockFor } from '../../shared/services/inventory.js';
import { inventoryStockQuery } from '../../schemas/compiled/inventory.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'Current stock of a farm: birds alive per active flock, feed per feed type (kg), eggs, and totals',
    description:
      'Birds come from each active flock’s active cycle (placed, alive); feed and eggs from the farm’s running stock balances, ' +
      'which the movement ledger keeps in the same transaction as every movement. `farmId` may be omitted when you are assigned to exactly one farm.',
    query: inventoryStockQuery,
    responses: {
      200: { description: 'The farm’s stock', schema: 'InventoryStockResponse' },
      404: { description: 'Unknown farm, or a farm you are not assigned to' },
    },
  },
  async ({ query, user }) => ok(await farmStockFor(user, query)),
);

import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { supplierReliabilityFor } from '../../shared/services/procurement/reliability.js';
import { supplierParams } from '../../schemas/compiled/procurement.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'A supplier’s reliability from its receipts: on-time rate, fill rate, quality-issue rate and score',
    description:
      'Requires view_analytics. Computed from the feed receipts of your farms with the same code as the analytics supplier scores (`reliability` is the entry GET /api/v2/analytics/cycle/{flockId}/{cycleId}/suppliers gives for the same deliveries). Fill rate = Σ min(received, ordered) ÷ Σ ordered kg over the CLOSED feed lines of the orders with a receipt (fully received, of a cancelled order, or past due: the order’s expected date before its farm’s today); lines still being delivered are left out and counted in `fill.openLines`. Figures are { value, unit } or { value: null, reason }.',
    params: supplierParams,
    responses: {
      200: { description: 'The reliability', schema: 'ReliabilityResponse' },
      404: { description: 'No such supplier, or one serving none of your farms' },
    },
  },
  async ({ params, user }) => ok(await supplierReliabilityFor(user, params.supplierId), 'Supplier reliability'),
);

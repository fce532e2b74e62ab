import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { supplierReport } from '../../shared/services/analytics/reports.js';
import { cycleParams } from '../../schemas/compiled/cycles.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary:
      'Supplier reliability from the cycle’s feed deliveries: on-time rate vs the promised date, quantity accuracy vs the ordered kg, quality issues, a 0–100 score',
    description:
      'Requires view_analytics. One entry per supplier of the cycle’s feed deliveries, scored 0–100 from punctuality, quantity accuracy and quality issues. A cycle you may not see answers 404.',
    params: cycleParams,
    responses: { 200: { description: 'Supplier reliability', schema: 'SuppliersResponse' }, 404: { description: 'No such cycle, or not one of yours' } },
  },
  async ({ params, user }) => ok(await supplierReport(user, params.flockId, params.cycleId), 'Supplier reliability'),
);

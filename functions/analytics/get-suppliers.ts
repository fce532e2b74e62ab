import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { supplierReport } from '../../shared/services/analytics-reports.js';
import { cycleParams } from '../../schemas/compiled/cycles.js';
import { SuppliersResponse } from '../../schemas/analytics.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary:
      'Supplier reliability from the cycle’s feed deliveries: on-time rate vs the promised date, quantity accuracy vs the ordered kg, quality issues, a 0–100 score',
    params: cycleParams,
    responses: { 200: { description: 'Supplier reliability', schema: SuppliersResponse }, 404: { description: 'No such cycle, or not one of yours' } },
  },
  async ({ params, user }) => ok(await supplierReport(user, params.flockId, params.cycleId), 'Supplier reliability'),
);

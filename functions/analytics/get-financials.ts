import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { financialReport } from '../../shared/services/analytics/reports.js';
import { cycleParams } from '../../schemas/compiled/cycles.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary:
      'Costs and revenue of the cycle from its movements × the pricing configuration (a price on a movement wins), margin, cost per kg live weight, per bird and per egg',
    description:
      'Requires view_analytics. Prices come from the analytics configuration in force unless a movement states its own price. Birds transferred in with a unitCost are the cycle’s pullet cost; birds transferred out with one leave with their cost (costs.transferredOut). costPerBirdAlive is a rearing cycle’s cost per pullet so far, the unitCost to send with the move; `layer` gives margin and feed per hen housed, egg mass, cost per dozen and per kg of eggs, each with its basis. A cycle you may not see answers 404.',
    params: cycleParams,
    responses: { 200: { description: 'Cycle financials', schema: 'FinancialsResponse' }, 404: { description: 'No such cycle, or not one of yours' } },
  },
  async ({ params, user }) => ok(await financialReport(user, params.flockId, params.cycleId), 'Cycle financials'),
);

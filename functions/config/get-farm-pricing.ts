import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { farmPricingFor, toFarmPricingDto } from '../../shared/services/analytics/farm-pricing.js';
import { farmIdParams } from '../../schemas/compiled/farms.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'The prices in force for a farm: its override over the service’s pricing, and where each field comes from (ETag: the override’s version)',
    description:
      'Requires view_analytics. `effective` is the analytics configuration’s `pricing` section with the farm’s `override` over it (`sources` names the origin of each field); ' +
      'every money figure computed for the farm (financials, supplier prices, recommendations, rule calculations) is in `currency`. Version 0: the farm never had an override. ' +
      'A farm you are not assigned to answers 404, like one that does not exist.',
    params: farmIdParams,
    responses: {
      200: { headers: ['ETag'], description: 'The farm’s pricing', schema: 'FarmPricingResponse' },
      404: { description: 'No such farm, or not one of yours (same answer)' },
    },
  },
  async ({ params, user }) => {
    const state = await farmPricingFor(user, params.farmId);
    return ok(toFarmPricingDto(state), 'OK', { ETag: `"${state.version}"` });
  },
);

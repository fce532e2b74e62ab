import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH, IF_MATCH_RESPONSES } from '../../shared/http/request-headers.js';
import { ok } from '../../shared/http/responses.js';
import { putFarmPricing, toFarmPricingDto } from '../../shared/services/analytics/farm-pricing.js';
import { farmIdParams } from '../../schemas/compiled/farms.js';
import { putFarmPricingBody } from '../../schemas/compiled/farm-pricing.js';

export const handler = httpHandler(
  {
    capability: 'manage_farms',
    summary: 'Set a farm’s own prices over the service’s pricing',
    description:
      'Requires manage_farms (the farm’s managers and admins set the farm’s prices, as they set its houses); another farm answers 404 like a missing one. ' +
      'The body names the pricing fields the farm sets (any of the analytics configuration’s `pricing` section: currency, chick, feed and feed by type, live weight, bird, egg, water, medication, vaccination, other costs); ' +
      'it replaces the farm’s override as a whole, and every field it leaves out falls back to the service’s pricing in force. A currency must be an ISO 4217 code. ' +
      'A change creates a new version (see …/history) and an audit entry. Send the version you read as `If-Match` (412 on mismatch) or `version` (409 on mismatch); ' +
      'without either the write is still conditional on the version read. A PUT that changes nothing answers the current version.',
    params: farmIdParams,
    body: putFarmPricingBody,
    headers: IF_MATCH,
    responses: {
      200: { headers: ['ETag'], description: 'The farm’s pricing after the change', schema: 'FarmPricingResponse' },
      403: { description: 'Without manage_farms, or account locked or unverified' },
      404: { description: 'No such farm, or not one of yours (same answer)' },
      ...IF_MATCH_RESPONSES,
    },
  },
  async ({ params, body, ctx }) => {
    const state = await putFarmPricing(ctx, params.farmId, body);
    return ok(toFarmPricingDto(state), 'Farm pricing updated', { ETag: `"${state.version}"` });
  },
);

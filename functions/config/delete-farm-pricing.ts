import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH, IF_MATCH_RESPONSES } from '../../shared/http/request-headers.js';
import { ok } from '../../shared/http/responses.js';
import { removeFarmPricing, toFarmPricingDto } from '../../shared/services/analytics/farm-pricing.js';
import { farmIdParams } from '../../schemas/compiled/farms.js';

export const handler = httpHandler(
  {
    capability: 'manage_farms',
    summary: 'Remove a farm’s own prices: the farm takes the service’s pricing again',
    description:
      'Requires manage_farms (the farm’s managers and admins set the farm’s prices, as they set its houses); another farm answers 404 like a missing one. ' +
      'The removal is a new version of the farm’s pricing that sets nothing (the history keeps the earlier ones) and an audit entry. `If-Match` makes it conditional (412). ' +
      'A farm without an override answers its pricing unchanged.',
    params: farmIdParams,
    headers: IF_MATCH,
    responses: {
      200: { headers: ['ETag'], description: 'The farm’s pricing after the removal (every field from the service)', schema: 'FarmPricingResponse' },
      403: { description: 'Without manage_farms, or account locked or unverified' },
      404: { description: 'No such farm, or not one of yours (same answer)' },
      ...IF_MATCH_RESPONSES,
    },
  },
  async ({ params, ctx }) => {
    const state = await removeFarmPricing(ctx, params.farmId);
    return ok(toFarmPricingDto(state), 'Farm pricing removed', { ETag: `"${state.version}"` });
  },
);

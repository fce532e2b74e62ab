import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH } from '../../shared/http/request-headers.js';
import { ok } from '../../shared/http/responses.js';
import { toFarmDto, updateFarmFor } from '../../shared/services/farms.js';
import { farmIdParams, updateFarmBody } from '../../schemas/compiled/farms.js';

export const handler = httpHandler(
  {
    capability: 'manage_farms',
    summary: 'Change a farm (name, location, countryCode, timezone, totalAreaHa, notes; null clears an optional field)',
    description:
      'Send the version you read as `If-Match` (412 on mismatch) or `version` (409 on mismatch); without either the write is still conditional on the version read, so a concurrent change answers 409.',
    params: farmIdParams,
    body: updateFarmBody,
    headers: IF_MATCH,
    responses: {
      200: { headers: ['ETag'], description: 'The updated farm', schema: 'FarmResponse' },
      404: { description: 'No such farm, or not one of yours (same answer)' },
      409: { description: 'Changed concurrently (or stale `version`)' },
      412: { description: 'If-Match does not match' },
    },
  },
  async ({ params, body, ctx }) => {
    const farm = await updateFarmFor(ctx, params.farmId, body);
    return ok(toFarmDto(farm), 'Farm updated', { ETag: `"${farm.version}"` });
  },
);

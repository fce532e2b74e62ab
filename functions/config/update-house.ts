import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH } from '../../shared/http/request-headers.js';
import { ok } from '../../shared/http/responses.js';
import { toHouseDto, updateHouseFor } from '../../shared/services/farms.js';
import { houseParams, updateHouseBody } from '../../schemas/compiled/farms.js';

export const handler = httpHandler(
  {
    capability: 'manage_farms',
    summary: 'Change a house (name, usableAreaM2, capacity, type, cageAreaM2, rangeAreaM2, notes; null clears type, the cage or range area, or notes)',
    description:
      'Send the version you read as `If-Match` (412 on mismatch) or `version` (409 on mismatch); without either the write is still conditional on the version read. A rename to a name another house of the farm has answers 409.',
    params: houseParams,
    body: updateHouseBody,
    headers: IF_MATCH,
    responses: {
      200: { headers: ['ETag'], description: 'The updated house', schema: 'HouseResponse' },
      404: { description: 'No such farm or house, or not your farm' },
      409: { description: 'Changed concurrently (or stale `version`), or the new name is taken in this farm' },
      412: { description: 'If-Match does not match' },
    },
  },
  async ({ params, body, ctx }) => {
    const house = await updateHouseFor(ctx, params.farmId, params.houseId, body);
    return ok(toHouseDto(house), 'House updated', { ETag: `"${house.version}"` });
  },
);

import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { getHouseFor, toHouseDto } from '../../shared/services/farms.js';
import { houseParams } from '../../schemas/compiled/farms.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'Get one house of a farm (ETag: its version)',
    description:
      'Requires view_analytics. A house of a farm you are not assigned to answers 404, like one that does not exist. The ETag header carries its version for a later PATCH with If-Match.',
    params: houseParams,
    responses: {
      200: { headers: ['ETag'], description: 'The house', schema: 'HouseResponse' },
      404: { description: 'No such farm or house, or not your farm' },
    },
  },
  async ({ params, user }) => {
    const house = await getHouseFor(user, params.farmId, params.houseId);
    return ok(toHouseDto(house), 'OK', { ETag: `"${house.version}"` });
  },
);

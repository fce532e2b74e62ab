import { httpHandler } from '../../shared/http/handler.js';
import { created } from '../../shared/http/responses.js';
import { createHouseFor, toHouseDto } from '../../shared/services/farms.js';
import { createHouseBody, farmIdParams } from '../../schemas/compiled/farms.js';
import { HouseResponse } from '../../schemas/farms.js';

export const handler = httpHandler(
  {
    capability: 'manage_farms',
    summary: 'Add a house to a farm (name unique within the farm, usable area in m², capacity in birds)',
    params: farmIdParams,
    body: createHouseBody,
    responses: {
      201: { description: 'House created', schema: HouseResponse },
      404: { description: 'No such farm, or not one of yours (same answer)' },
      409: { description: 'The farm already has a house of this name (compared case- and space-insensitively)' },
    },
  },
  async ({ params, body, user, requestId }) => {
    const house = await createHouseFor(user, params.farmId, body, requestId);
    return created(toHouseDto(house), 'House created', { ETag: `"${house.version}"` });
  },
);

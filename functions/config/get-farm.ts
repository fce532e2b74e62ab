import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { getFarmFor, toFarmDto } from '../../shared/services/farms.js';
import { farmIdParams } from '../../schemas/compiled/farms.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'Get one farm (ETag: its version)',
    description:
      'Requires view_analytics. A farm you are not assigned to answers 404, like one that does not exist. The ETag header carries its version for a later PATCH with If-Match.',
    params: farmIdParams,
    responses: {
      200: { headers: ['ETag'], description: 'The farm', schema: 'FarmResponse' },
      404: { description: 'No such farm, or not one of yours (same answer)' },
    },
  },
  async ({ params, user }) => {
    const farm = await getFarmFor(user, params.farmId);
    return ok(toFarmDto(farm), 'OK', { ETag: `"${farm.version}"` });
  },
);

import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { createHouseFor } from '../../shared/services/farms.js';
import { createHouseBody, farmIdParams } from '../../schemas/compiled/farms.js';

export const handler = httpHandler(
  {
    capability: 'manage_farms',
    summary: 'Add a house to a farm (name unique within the farm, usable area in m², capacity in birds)',
    description:
      'Requires manage_farms. Send an Idempotency-Key to make retries safe: a retry with the same key and body gets the first answer with `Idempotent-Replayed: true`.',
    params: farmIdParams,
    body: createHouseBody,
    headers: IDEMPOTENCY_KEY,
    responses: {
      201: { description: 'House created', schema: 'HouseResponse' },
      404: { description: 'No such farm, or not one of yours (same answer)' },
      409: { description: 'The farm already has a house of this name (compared case- and space-insensitively)' },
    },
  },
  async ({ params, body, ctx }) => replayable(await createHouseFor(ctx, params.farmId, body)),
);

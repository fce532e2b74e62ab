import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { createMovementFor } from '../../shared/services/movements.js';
import { cycleParams } from '../../schemas/compiled/cycles.js';
import { createMovementBody } from '../../schemas/compiled/movements.js';
import { MovementResponse } from '../../schemas/movements.js';

export const handler = httpHandler(
  {
    capability: 'create_movement',
    summary: 'Record a movement (see GET /api/v1/inventory/input-schema for every type and its fields)',
    description:
      'Updates the cycle counters, the farm’s feed or egg stock and the daily rollup in the same transaction. A movement that would make birds alive, ' +
      'a feed stock or the egg stock negative is refused with 409 naming the balance. Transfers write both flocks’ sides at once. ' +
      'Send `Idempotency-Key` to make retries safe: the same key and body return the first response (header `Idempotent-Replayed: true`), another body 422.',
    params: cycleParams,
    body: createMovementBody,
    headers: IDEMPOTENCY_KEY,
    responses: {
      201: { description: 'Recorded', schema: MovementResponse },
      409: { description: 'A balance would go negative, or the cycle is closed' },
      422: { description: 'Idempotency-Key reused with another body' },
    },
  },
  async ({ params, body, headers, user }) => {
    const result = await createMovementFor(user, params.flockId, params.cycleId, body, headers['idempotency-key']);
    return replayable(result);
  },
);

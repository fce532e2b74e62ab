import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { farmMovementFor } from '../../shared/services/movements/farm-movements.js';
import { farmMovementParams } from '../../schemas/compiled/inventory.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'One delivery booked on the farm (without a cycle), with the lock in force',
    description: 'The ETag header carries the movement’s version: send it as If-Match to correct or delete it. A movement of a cycle is read under its cycle.',
    params: farmMovementParams,
    responses: {
      200: { headers: ['ETag'], description: 'The movement', schema: 'MovementResponse' },
      404: { description: 'Unknown movement or farm, or a farm you are not assigned to' },
    },
  },
  async ({ params, user }) => {
    const movement = await farmMovementFor(user, params.farmMovementId);
    return ok(movement, 'OK', { ETag: `"${movement.version}"` });
  },
);

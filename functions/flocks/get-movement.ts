import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { movementFor } from '../../shared/services/movements/movement-reads.js';
import { movementParams } from '../../schemas/compiled/movements.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'One movement, with the lock in force',
    description: 'Requires view_analytics. The ETag header carries the movement’s version: send it as If-Match to correct or delete it.',
    params: movementParams,
    responses: { 200: { headers: ['ETag'], description: 'The movement', schema: 'MovementResponse' } },
  },
  async ({ params, user }) => {
    const movement = await movementFor(user, params.flockId, params.cycleId, params.movementId);
    return ok(movement, 'OK', { ETag: `"${movement.version}"` });
  },
);

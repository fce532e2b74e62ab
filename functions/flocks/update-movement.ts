import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH } from '../../shared/http/request-headers.js';
import { ok } from '../../shared/http/responses.js';
import { updateMovementFor } from '../../shared/services/movements.js';
import { movementParams, updateMovementBody } from '../../schemas/compiled/movements.js';
import { MovementResponse } from '../../schemas/movements.js';

export const handler = httpHandler(
  {
    capability: 'create_movement',
    summary: 'Correct an unlocked movement (its type stays); balances are re-checked on the net change',
    description:
      'Requires create_movement. Send only the fields to change; send the ETag you read as If-Match (or `version` in the body). A locked movement answers 409.',
    params: movementParams,
    body: updateMovementBody,
    headers: IF_MATCH,
    responses: {
      200: { headers: ['ETag'], description: 'The corrected movement', schema: MovementResponse },
      409: { description: 'Locked, changed concurrently, a transfer, or a balance would go negative' },
      412: { description: 'If-Match does not match' },
    },
  },
  async ({ params, body, ifMatch, user, requestId }) => {
    const movement = await updateMovementFor(user, params.flockId, params.cycleId, params.movementId, body, ifMatch, requestId);
    return ok(movement, 'Movement updated', { ETag: `"${movement.version}"` });
  },
);

import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH } from '../../shared/http/request-headers.js';
import { json } from '../../shared/http/responses.js';
import { updateFarmMovement } from '../../shared/services/movements/farm-movements.js';
import { farmMovementParams } from '../../schemas/compiled/inventory.js';
import { updateMovementBody } from '../../schemas/compiled/movements.js';

export const handler = httpHandler(
  {
    capability: 'create_movement',
    summary: 'Correct a delivery booked on the farm; the stock follows',
    description:
      'The same rules as correcting a cycle movement: the fields of its type (and `houseId`, a house of the farm), `version` or If-Match, never the read-only metadata; ' +
      'its old effect on the stock is reversed and the new one applied in one write. A correction that would take the stock below zero answers 409 naming the feed type (or product) and the balance, and writes nothing. ' +
      'A movement written by a purchase-order receipt, or older than the auto-lock period, answers 409.',
    params: farmMovementParams,
    body: updateMovementBody,
    headers: IF_MATCH,
    responses: {
      200: {
        headers: ['ETag'],
        description: 'The corrected movement (with `warnings` when the correction leaves the stock short at a past date)',
        schema: 'MovementWrittenResponse',
      },
      409: { description: 'Locked, a receipt’s, changed concurrently, or the stock would go negative' },
      412: { description: 'If-Match does not match' },
    },
  },
  async ({ params, body, ctx }) => {
    const { movement, warnings } = await updateFarmMovement(ctx, params.farmMovementId, body);
    return json(200, { message: 'Movement updated', data: movement, ...(warnings.length ? { warnings } : {}) }, { ETag: `"${movement.version}"` });
  },
);

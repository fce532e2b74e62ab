import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH } from '../../shared/http/request-headers.js';
import { noContent } from '../../shared/http/responses.js';
import { deleteFarmMovement } from '../../shared/services/movements/farm-movements.js';
import { farmMovementParams } from '../../schemas/compiled/inventory.js';

export const handler = httpHandler(
  {
    capability: 'create_movement',
    summary: 'Delete a delivery booked on the farm and take it back from the stock',
    description:
      'Send the ETag you read as If-Match to be sure you delete what you saw. A movement written by a receipt, one older than the auto-lock period, or one whose removal would take the stock below zero answers 409.',
    params: farmMovementParams,
    headers: IF_MATCH,
    responses: { 204: { description: 'Deleted' }, 409: { description: 'Locked, a receipt’s, or the stock would go negative' } },
  },
  async ({ params, ctx }) => {
    await deleteFarmMovement(ctx, params.farmMovementId);
    return noContent();
  },
);

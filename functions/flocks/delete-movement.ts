import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH } from '../../shared/http/request-headers.js';
import { noContent } from '../../shared/http/responses.js';
import { deleteMovement } from '../../shared/services/movements/change-movement.js';
import { movementParams } from '../../schemas/compiled/movements.js';

export const handler = httpHandler(
  {
    capability: 'create_movement',
    summary: 'Delete an unlocked movement and reverse its effects (a transfer goes with its other side)',
    description:
      'Requires create_movement. Send the ETag you read as If-Match to be sure you delete what you saw. A locked movement, or one whose removal would drive a balance negative, answers 409.',
    params: movementParams,
    headers: IF_MATCH,
    responses: { 204: { description: 'Deleted' }, 409: { description: 'Locked, or a balance would go negative' } },
  },
  async ({ params, ctx }) => {
    await deleteMovement(ctx, params.flockId, params.cycleId, params.movementId);
    return noContent();
  },
);

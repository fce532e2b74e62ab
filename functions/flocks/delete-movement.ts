import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH } from '../../shared/http/request-headers.js';
import { noContent } from '../../shared/http/responses.js';
import { deleteMovementFor } from '../../shared/services/movements.js';
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
  async ({ params, ifMatch, user, requestId }) => {
    await deleteMovementFor(user, params.flockId, params.cycleId, params.movementId, ifMatch, requestId);
    return noContent();
  },
);

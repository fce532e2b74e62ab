import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { unlockMovement } from '../../shared/services/movements.js';
import { lockBody, movementParams } from '../../schemas/compiled/movements.js';
import { MovementResponse } from '../../schemas/movements.js';

export const handler = httpHandler(
  {
    capability: 'create_movement',
    summary: 'Unlock a manually locked movement (reason required); automatic locks cannot be unlocked (409)',
    description: 'Requires create_movement. Locks the system set (automatic) stay: they answer 409.',
    params: movementParams,
    body: lockBody,
    responses: { 200: { description: 'Unlocked', schema: MovementResponse }, 409: { description: 'Not locked, or locked automatically' } },
  },
  async ({ params, body, user, requestId }) =>
    ok(await unlockMovement(user, params.flockId, params.cycleId, params.movementId, body.reason, requestId), 'Movement unlocked'),
);

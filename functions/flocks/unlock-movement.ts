import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { unlockMovement } from '../../shared/services/movements/lock-movement.js';
import { lockBody, movementParams } from '../../schemas/compiled/movements.js';

export const handler = httpHandler(
  {
    capability: 'create_movement',
    summary: 'Unlock a manually locked movement (reason required); automatic locks cannot be unlocked (409)',
    description:
      'Requires create_movement, and for the lock itself: manage_flocks (who locks for review), or the role of whoever locked it (`lock.byRole`) or a higher one ' +
      '(viewer < worker < veterinarian < manager < admin): a worker lifts a worker’s lock, never a manager’s (403). ' +
      'Locks the system set (older than the auto-lock period, or the cycle closed) stay for everyone: they answer 409.',
    params: movementParams,
    body: lockBody,
    responses: {
      200: { description: 'Unlocked', schema: 'MovementResponse' },
      403: { description: 'Missing capability create_movement, account locked or unverified, or the lock was set at a higher level than yours' },
      409: { description: 'Not locked, or locked automatically' },
    },
  },
  async ({ params, body, ctx }) => ok(await unlockMovement(ctx, params.flockId, params.cycleId, params.movementId, body.reason), 'Movement unlocked'),
);

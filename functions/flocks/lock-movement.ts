import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { lockMovement } from '../../shared/services/movements/lock-movement.js';
import { lockBody, movementParams } from '../../schemas/compiled/movements.js';

export const handler = httpHandler(
  {
    capability: 'create_movement',
    summary: 'Lock a movement manually (it can then be unlocked with a reason)',
    description:
      'Requires create_movement. A locked movement can be neither corrected nor deleted by anyone until unlocked; the reason and the locker’s role (`lock.byRole`) are kept with the lock. ' +
      'Only manage_flocks, or the locker’s role or a higher one, unlocks it (see PUT …/unlock).',
    params: movementParams,
    body: lockBody,
    responses: { 200: { description: 'Locked', schema: 'MovementResponse' }, 409: { description: 'Already locked' } },
  },
  async ({ params, body, ctx }) => ok(await lockMovement(ctx, params.flockId, params.cycleId, params.movementId, body.reason), 'Movement locked'),
);

import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH } from '../../shared/http/request-headers.js';
import { json } from '../../shared/http/responses.js';
import { updateMovement } from '../../shared/services/movements/change-movement.js';
import { createMovementBody, movementParams, updateMovementBody } from '../../schemas/compiled/movements.js';

export const handler = httpHandler(
  {
    capability: 'create_movement',
    summary: 'Correct an unlocked movement (its type stays); balances are re-checked on the net change',
    description:
      'Requires create_movement. Send the fields to change, or the movement as you read it (GET) with your changes: a movement is read and written with the same flat fields. ' +
      'What may be sent back: `type`, `date`, the fields of the type (null removes an optional one), `version` (the expected version) and the fields the service sets (`transferId`, `counterpartCycleId`, `counterpartMovementId`, `dailyRecordDate`); ' +
      '`type` and the service’s fields only unchanged (a different value is a 400 naming it). The read-only metadata (`id`, `flockId`, `cycleId`, `farmId`, `lock`, `createdAt`, `createdBy`, `updatedAt`) must be left out: it is refused (400 naming each). ' +
      'Send the ETag you read as If-Match (or `version` in the body). A locked movement, a transfer or a movement written by a daily record answers 409.',
    params: movementParams,
    body: updateMovementBody,
    headers: IF_MATCH,
    responses: {
      200: {
        headers: ['ETag'],
        description: 'The corrected movement (with `warnings` when the correction leaves a farm stock short at a past date)',
        schema: 'MovementWrittenResponse',
      },
      409: { description: 'Locked, changed concurrently, a transfer, or a balance would go negative' },
      412: { description: 'If-Match does not match' },
    },
  },
  async ({ params, body, ctx }) => {
    const { movement, warnings } = await updateMovement(ctx, params.flockId, params.cycleId, params.movementId, body, createMovementBody);
    return json(200, { message: 'Movement updated', data: movement, ...(warnings.length ? { warnings } : {}) }, { ETag: `"${movement.version}"` });
  },
);

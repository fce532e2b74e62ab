import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { requestTransfer } from '../../shared/services/transfers.js';
import { createTransferBody } from '../../schemas/compiled/sharing.js';
import { TransferResponse } from '../../schemas/sharing.js';

export const handler = httpHandler(
  {
    capability: 'manage_transfers',
    summary: 'Request a transfer of birds, feed, eggs or equipment to another farm',
    description:
      'Requires manage_transfers, as a user of the sending farm (`from.farmId`). Birds, feed and eggs name a flock on each side (its active cycle unless `cycleId` is given): ' +
      'the completion records the movements there. Equipment lists `items`: registered pieces by `equipmentId` (held by the sending farm) or new ones by `name`. ' +
      'Status starts `requested`; a manager of the receiving farm approves it. A farm under a movement restriction (an open disease-suspicion incident) cannot send: 409 naming the incident. ' +
      'Send an Idempotency-Key to make retries safe: a retry gets the first answer with `Idempotent-Replayed: true`.',
    body: createTransferBody,
    headers: IDEMPOTENCY_KEY,
    responses: {
      201: { description: 'Requested', schema: TransferResponse },
      404: { description: 'No such sending or receiving farm, or a sending farm not of yours' },
      409: { description: 'The sending farm is under a movement restriction (names the incident)' },
    },
  },
  async ({ body, headers, user, requestId }) => replayable(await requestTransfer(user, body, requestId, headers['idempotency-key'])),
);

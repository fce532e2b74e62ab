import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { requestTransfer } from '../../shared/services/transfers/requests.js';
import { createTransferBody } from '../../schemas/compiled/sharing.js';

export const handler = httpHandler(
  {
    capability: 'manage_transfers',
    summary: 'Request a transfer of birds, feed, eggs or equipment to another farm',
    description:
      'Requires manage_transfers, as a user of the sending farm (`from.farmId`). Birds, feed and eggs name the sending flock (`from.flockId`; its active cycle unless `from.cycleId` is given: ' +
      'a flock or cycle not of the sending farm answers 404, as a missing one). The receiving end names only the farm (`to.farmId`) and maybe a flock proposed there (`to.flockId`): ' +
      'neither is looked up, so the answer is the same for a real and a made-up one, and `to.cycleId` stays null until the receiving farm approves, choosing its flock and cycle. ' +
      'Equipment lists `items`: registered pieces by `equipmentId` (held by the sending farm; any other id answers 404) or new ones by `name`. ' +
      '`date` names the day a past transfer took place (not in the future: 400): its movements are dated on it when it is completed. ' +
      'Status starts `requested`; a manager of the receiving farm approves it. A farm under a movement restriction (an open disease-suspicion incident) cannot send: 409 naming the incident. ' +
      'Send an Idempotency-Key to make retries safe: a retry gets the first answer with `Idempotent-Replayed: true`.',
    body: createTransferBody,
    headers: IDEMPOTENCY_KEY,
    responses: {
      201: { description: 'Requested', schema: 'TransferResponse' },
      404: { description: 'A sending farm not of yours, or a flock, cycle or piece of equipment not of the sending farm (as a missing one)' },
      409: { description: 'The sending farm is under a movement restriction (names the incident)' },
    },
  },
  async ({ body, ctx }) => replayable(await requestTransfer(ctx, body)),
);

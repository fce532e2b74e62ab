import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { transferFor } from '../../shared/services/transfers/reads.js';
import { transferParams } from '../../schemas/compiled/sharing.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'A transfer, with who took each step and the movements its completion wrote',
    description: 'Requires view_analytics, as a user of either farm. The ETag is the version to send as If-Match when moving it along its lifecycle.',
    params: transferParams,
    responses: {
      200: { headers: ['ETag'], description: 'The transfer', schema: 'TransferResponse' },
      404: { description: 'No such transfer, or one between farms you cannot see' },
    },
  },
  async ({ params, user }) => {
    const transfer = await transferFor(user, params.transferId);
    return ok(transfer, 'OK', { ETag: `"${transfer.version}"` });
  },
);

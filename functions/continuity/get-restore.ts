import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { restoreFor } from '../../shared/services/continuity/restores.js';
import { restoreParams } from '../../schemas/compiled/continuity.js';

export const handler = httpHandler(
  {
    capability: 'manage_continuity',
    summary: 'A restore: its status, records written per type, the figures compared and, when failed, why',
    description: 'Requires manage_continuity, as the user who asked for it or a user of the exported farm.',
    params: restoreParams,
    responses: { 200: { description: 'The restore', schema: 'RestoreResponse' }, 404: { description: 'No such restore, or not one of yours' } },
  },
  async ({ params, user }) => ok(await restoreFor(user, params.restoreId)),
);

import { httpHandler } from '../../shared/http/handler.js';
import { noContent } from '../../shared/http/responses.js';
import { archiveFlockFor } from '../../shared/services/flocks/flocks.js';
import { flockIdParams } from '../../schemas/compiled/flocks.js';

export const handler = httpHandler(
  {
    capability: 'manage_flocks',
    summary: 'Archive a flock (kept with its history, hidden from default lists); refused while a cycle is active',
    description: 'Requires manage_flocks. Close the active cycle first (409 otherwise). The flock and its cycles stay readable by id.',
    params: flockIdParams,
    responses: { 204: { description: 'Archived' }, 409: { description: 'The flock has an active cycle' } },
  },
  async ({ params, ctx }) => {
    await archiveFlockFor(ctx, params.flockId);
    return noContent();
  },
);

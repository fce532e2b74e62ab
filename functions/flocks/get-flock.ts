import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { scopedFlock, toFlockDto } from '../../shared/services/flocks/flocks.js';
import { flockIdParams } from '../../schemas/compiled/flocks.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'Get one flock',
    description:
      'Requires view_analytics. A flock of a farm you are not assigned to answers 404, like one that does not exist. The ETag header carries its version for a later PATCH with If-Match.',
    params: flockIdParams,
    responses: { 200: { headers: ['ETag'], description: 'The flock', schema: 'FlockResponse' } },
  },
  async ({ params, user }) => {
    const flock = await scopedFlock(user, params.flockId);
    return ok(toFlockDto(flock), 'OK', { ETag: `"${flock.version}"` });
  },
);

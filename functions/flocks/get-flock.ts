import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { scopedFlock, toFlockDto } from '../../shared/services/flocks.js';
import { flockIdParams } from '../../schemas/compiled/flocks.js';
import { FlockResponse } from '../../schemas/flocks.js';

export const handler = httpHandler(
  { capability: 'view_analytics', summary: 'Get one flock', params: flockIdParams, responses: { 200: { description: 'The flock', schema: FlockResponse } } },
  async ({ params, user }) => {
    const flock = await scopedFlock(user, params.flockId);
    return ok(toFlockDto(flock), 'OK', { ETag: `"${flock.version}"` });
  },
);

import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH } from '../../shared/http/request-headers.js';
import { ok } from '../../shared/http/responses.js';
import { toFlockDto, updateFlockFor } from '../../shared/services/flocks/flocks.js';
import { flockIdParams, updateFlockBody } from '../../schemas/compiled/flocks.js';

export const handler = httpHandler(
  {
    capability: 'manage_flocks',
    summary: 'Update a flock (name, breed, house, hatch date, source, notes)',
    description: 'Send the version you read as `If-Match` (412 on mismatch) or `version` (409 on mismatch). Farm and bird type are fixed once created.',
    params: flockIdParams,
    body: updateFlockBody,
    headers: IF_MATCH,
    responses: {
      200: { headers: ['ETag'], description: 'The updated flock', schema: 'FlockResponse' },
      409: { description: 'Changed concurrently' },
      412: { description: 'If-Match does not match' },
    },
  },
  async ({ params, body, ctx }) => {
    const saved = await updateFlockFor(ctx, params.flockId, body);
    return ok(toFlockDto(saved), 'Flock updated', { ETag: `"${saved.version}"` });
  },
);

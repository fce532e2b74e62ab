import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { createFlockFor } from '../../shared/services/flocks/flocks.js';
import { createFlockBody } from '../../schemas/compiled/flocks.js';

export const handler = httpHandler(
  {
    capability: 'manage_flocks',
    summary: 'Create a flock (without farmId it joins the default farm)',
    description:
      'Requires manage_flocks. Send an Idempotency-Key to make retries safe: a retry with the same key and body gets the first answer with `Idempotent-Replayed: true`.',
    body: createFlockBody,
    headers: IDEMPOTENCY_KEY,
    responses: { 201: { description: 'Flock created', schema: 'FlockResponse' } },
  },
  async ({ body, ctx }) => replayable(await createFlockFor(ctx, body)),
);

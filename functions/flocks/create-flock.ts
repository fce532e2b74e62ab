import { httpHandler } from '../../shared/http/handler.js';
import { replayable } from '../../shared/http/responses.js';
import { createFlockFor } from '../../shared/services/flocks.js';
import { createFlockBody } from '../../schemas/compiled/flocks.js';
import { FlockResponse } from '../../schemas/flocks.js';

export const handler = httpHandler(
  {
    capability: 'manage_flocks',
    summary: 'Create a flock (without farmId it joins the default farm)',
    body: createFlockBody,
    headers: { 'Idempotency-Key': 'Makes retries safe: the same key and body return the first response (Idempotent-Replayed: true), another body 422' },
    responses: { 201: { description: 'Flock created', schema: FlockResponse } },
  },
  async ({ body, headers, user, requestId }) => replayable(await createFlockFor(user, body, requestId, headers['idempotency-key'])),
);

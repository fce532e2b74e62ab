import { httpHandler } from '../../shared/http/handler.js';
import { created } from '../../shared/http/responses.js';
import { createFlockFor, toFlockDto } from '../../shared/services/flocks.js';
import { createFlockBody } from '../../schemas/compiled/flocks.js';
import { FlockResponse } from '../../schemas/flocks.js';

export const handler = httpHandler(
  {
    capability: 'manage_flocks',
    summary: 'Create a flock (without farmId it joins the default farm)',
    body: createFlockBody,
    responses: { 201: { description: 'Flock created', schema: FlockResponse } },
  },
  async ({ body, user, requestId }) => created(toFlockDto(await createFlockFor(user, body, requestId)), 'Flock created'),
);

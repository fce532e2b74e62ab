import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { createFarmFor } from '../../shared/services/farms.js';
import { createFarmBody } from '../../schemas/compiled/farms.js';

export const handler = httpHandler(
  {
    capability: 'manage_farms',
    summary: 'Create a farm (a non-admin creator is assigned to it in the same transaction)',
    description:
      'Farm names need not be unique. `timezone` is an IANA zone (default "UTC"), stored in its canonical spelling. A non-admin creator gets the farm added to its `farmIds` atomically (at most 100 farms per user: 409 beyond).',
    body: createFarmBody,
    headers: IDEMPOTENCY_KEY,
    responses: { 201: { description: 'Farm created', schema: 'FarmResponse' }, 409: { description: 'The creator cannot be assigned another farm' } },
  },
  async ({ body, ctx }) => replayable(await createFarmFor(ctx, body)),
);

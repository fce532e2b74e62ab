import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { startCycle } from '../../shared/services/flocks/cycles.js';
import { flockIdParams } from '../../schemas/compiled/flocks.js';
import { createCycleBody } from '../../schemas/compiled/cycles.js';

export const handler = httpHandler(
  {
    capability: 'manage_flocks',
    summary: 'Start a production cycle (one active cycle per flock)',
    description: 'Requires manage_flocks. A flock that already has an active cycle, or is archived, answers 409. Send an Idempotency-Key to make retries safe.',
    params: flockIdParams,
    body: createCycleBody,
    headers: IDEMPOTENCY_KEY,
    responses: {
      201: { description: 'Cycle started', schema: 'CycleResponse' },
      409: { description: 'The flock already has an active cycle, or is archived' },
    },
  },
  async ({ params, body, ctx }) => replayable(await startCycle(ctx, params.flockId, body)),
);

import { httpHandler } from '../../shared/http/handler.js';
import { created } from '../../shared/http/responses.js';
import { startCycle, toCycleDto } from '../../shared/services/cycles.js';
import { flockIdParams } from '../../schemas/compiled/flocks.js';
import { createCycleBody } from '../../schemas/compiled/cycles.js';
import { CycleResponse } from '../../schemas/cycles.js';

export const handler = httpHandler(
  {
    capability: 'manage_flocks',
    summary: 'Start a production cycle (one active cycle per flock)',
    params: flockIdParams,
    body: createCycleBody,
    responses: { 201: { description: 'Cycle started', schema: CycleResponse }, 409: { description: 'The flock already has an active cycle, or is archived' } },
  },
  async ({ params, body, user, requestId }) => created(toCycleDto(await startCycle(user, params.flockId, body, requestId)), 'Cycle started'),
);

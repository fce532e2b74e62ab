import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { recordDrill } from '../../shared/services/continuity/readiness.js';
import { createDrillBody } from '../../schemas/compiled/continuity.js';

export const handler = httpHandler(
  {
    capability: 'manage_continuity',
    summary: 'Record a preparedness drill (generator under load, alarm chain, fire)',
    description:
      'Requires manage_continuity, as a user of the farm. `date` may not be in the future. The readiness counts the last drill that passed or partly ' +
      'passed. Send an Idempotency-Key to make retries safe: a retry gets the first answer with `Idempotent-Replayed: true`.',
    body: createDrillBody,
    headers: IDEMPOTENCY_KEY,
    responses: { 201: { description: 'Recorded', schema: 'DrillResponse' }, 404: { description: 'No such farm, or not one of yours' } },
  },
  async ({ body, ctx }) => replayable(await recordDrill(ctx, body)),
);

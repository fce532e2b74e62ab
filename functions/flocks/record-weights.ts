import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { recordWeightFor } from '../../shared/services/flocks/weights.js';
import { cycleParams } from '../../schemas/compiled/cycles.js';
import { recordWeightBody } from '../../schemas/compiled/weights.js';

export const handler = httpHandler(
  {
    capability: 'create_movement',
    summary: 'Record a manual weighing: one average (grams, optional sampleSize) or individual weighings (samples)',
    description:
      'Send exactly one of `grams` or `samples` (1–1000 birds, g): from samples the mean, SD (n − 1), CV % and uniformity % (birds within ±10 % of the mean) are computed. ' +
      'The date may not be before the cycle’s start nor in the future. The session and the cycle’s latest weight (when this date is the newest, or equal) are written ' +
      'in one transaction; a closed cycle answers 409. Send `Idempotency-Key` to make retries safe (same key and body: the first response, header `Idempotent-Replayed: true`).',
    params: cycleParams,
    body: recordWeightBody,
    headers: IDEMPOTENCY_KEY,
    responses: {
      201: { description: 'Recorded', schema: 'RecordWeightResponse' },
      409: { description: 'The cycle is closed' },
      422: { description: 'Idempotency-Key reused with another body' },
    },
  },
  async ({ params, body, ctx }) => {
    const result = await recordWeightFor(ctx, params.flockId, params.cycleId, body);
    return replayable(result);
  },
);

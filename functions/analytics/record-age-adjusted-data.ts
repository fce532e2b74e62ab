import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { recordAgeAdjustedData } from '../../shared/services/analytics/records.js';
import { ageAdjustedDataBody, flockIdParams } from '../../schemas/compiled/analytics.js';

export const handler = httpHandler(
  {
    capability: 'edit_analytics',
    summary:
      'Record a body weight observed at the flock’s age; answered with the breed standard at that age, the deviation and the weight expressed at a reference age',
    description:
      'Body `{value, ...}`: `value` is the average body weight in grams (`metric` body_weight_g), `date` defaults to today, `sampleSize` how many birds it covers. ' +
      'Stored as a weighing of the flock’s active cycle, so the cycle’s FCR, ADG, EPEF and breed comparison include it. 409 when the flock has no active cycle.',
    params: flockIdParams,
    body: ageAdjustedDataBody,
    headers: IDEMPOTENCY_KEY,
    responses: {
      201: { description: 'Recorded, with its age adjustment', schema: 'AgeAdjustedResponse' },
      404: { description: 'No such flock, or not one of yours' },
      409: { description: 'No active cycle, or the cycle closed meanwhile' },
    },
  },
  async ({ params, body, ctx }) => {
    const result = await recordAgeAdjustedData(ctx, params.flockId, body);
    return replayable(result);
  },
);

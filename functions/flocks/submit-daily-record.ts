import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { submitDailyRecord } from '../../shared/services/flocks/daily-records.js';
import { cycleParams } from '../../schemas/compiled/cycles.js';
import { dailyRecordBody } from '../../schemas/compiled/daily-records.js';

export const handler = httpHandler(
  {
    capability: 'create_movement',
    summary: 'Submit one day’s form (mortality by cause, culls, feed, water, eggs, climate): writes the matching movements',
    description:
      'Mandatory fields depend on the production stage of that day: GET /api/v1/flocks/{flockId}/cycles/{cycleId}/daily-records/form?date=YYYY-MM-DD ' +
      'lists them (with units) for the cycle and date; a missing one is a 400 naming it (`body.<field>`, "is required in the <stage> stage"). ' +
      'Submitting the same day again replaces the form: its movements are rewritten and the counters move by the difference, never doubled. ' +
      'A `feedKg` draws on the farm’s feed stock, so record a `feed_delivery` movement first. Accepts `Idempotency-Key`.',
    params: cycleParams,
    body: dailyRecordBody,
    headers: IDEMPOTENCY_KEY,
    responses: {
      201: { description: 'Saved', schema: 'DailyRecordResponse' },
      200: { description: 'Replaced the day’s earlier form', schema: 'DailyRecordResponse' },
      409: {
        description:
          'Refused against stored state, nothing written: no feed in stock on the farm for `feedKg` (record a feed_delivery first), a balance would ' +
          'go negative (birds alive, feed or eggs), the day’s earlier movements are locked, the cycle is closed, or the same day was submitted concurrently',
        schema: 'ErrorResponse',
      },
    },
  },
  async ({ params, body, ctx }) => {
    const result = await submitDailyRecord(ctx, params.flockId, params.cycleId, body);
    return replayable(result);
  },
);

import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { submitDailyRecord } from '../../shared/services/daily-records.js';
import { cycleParams } from '../../schemas/compiled/cycles.js';
import { dailyRecordBody } from '../../schemas/compiled/daily-records.js';
import { DailyRecordResponse } from '../../schemas/daily-records.js';

export const handler = httpHandler(
  {
    capability: 'create_movement',
    summary: 'Submit one day’s form (mortality by cause, culls, feed, water, eggs, climate): writes the matching movements',
    description:
      'Mandatory fields depend on the production stage of that day (see POST /api/v2/analytics/validate-daily-data). Submitting the same day again ' +
      'replaces the form: its movements are rewritten and the counters move by the difference, never doubled. Accepts `Idempotency-Key`.',
    params: cycleParams,
    body: dailyRecordBody,
    headers: IDEMPOTENCY_KEY,
    responses: {
      201: { description: 'Saved', schema: DailyRecordResponse },
      200: { description: 'Replaced the day’s earlier form', schema: DailyRecordResponse },
      409: { description: 'A balance would go negative, the day is locked, or the cycle is closed' },
    },
  },
  async ({ params, body, headers, user }) => {
    const result = await submitDailyRecord(user, params.flockId, params.cycleId, body, headers['idempotency-key']);
    return replayable(result);
  },
);

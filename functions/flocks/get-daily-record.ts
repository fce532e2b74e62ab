import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { getDailyRecordFor } from '../../shared/services/daily-records.js';
import { dailyRecordParams } from '../../schemas/compiled/daily-records.js';
import { DailyRecordResponse } from '../../schemas/daily-records.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'One day’s form with the movements it wrote',
    params: dailyRecordParams,
    responses: { 200: { description: 'The daily record', schema: DailyRecordResponse } },
  },
  async ({ params, user }) => ok(await getDailyRecordFor(user, params.flockId, params.cycleId, params.date)),
);

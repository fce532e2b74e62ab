import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { getDailyRecordFor } from '../../shared/services/flocks/daily-records.js';
import { dailyRecordParams } from '../../schemas/compiled/daily-records.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'One day’s form with the movements it wrote, and the day’s water and feed with their source (manual or sensor)',
    description:
      'The daily record of `date` and the movements its submission wrote (they change only by submitting the day again). 404 when nothing was ' +
      'submitted for that date; GET …/daily-records/form?date= answers for any date of the cycle, with `existing: null` then.',
    params: dailyRecordParams,
    responses: { 200: { description: 'The daily record', schema: 'DailyRecordWithFiguresResponse' } },
  },
  async ({ params, user }) => ok(await getDailyRecordFor(user, params.flockId, params.cycleId, params.date)),
);

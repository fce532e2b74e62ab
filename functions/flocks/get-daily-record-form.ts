import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { dailyRecordForm } from '../../shared/services/flocks/daily-records.js';
import { cycleParams } from '../../schemas/compiled/cycles.js';
import { dailyRecordFormQuery } from '../../schemas/compiled/daily-records.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'The daily form of one cycle on one date: its production stage, the fields it requires and takes (with units), the record already saved',
    description:
      'Fill `POST …/daily-records` from this: `requiredFields` are exactly the fields that submission requires on that date (a missing one is a 400 ' +
      'naming it), `optionalFields` the others the stage takes. `date` defaults to today (UTC); a date before the cycle start, after its end or ' +
      'in the future is a 400 naming `query.date`.',
    params: cycleParams,
    query: dailyRecordFormQuery,
    responses: { 200: { description: 'The form of that date', schema: 'DailyRecordFormResponse' } },
  },
  async ({ params, query, user }) => ok(await dailyRecordForm(user, params.flockId, params.cycleId, query.date)),
);

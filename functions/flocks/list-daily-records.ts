import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { listDailyRecordsFor } from '../../shared/services/flocks/daily-records.js';
import { cycleParams } from '../../schemas/compiled/cycles.js';
import { listDailyRecordsQuery } from '../../schemas/compiled/daily-records.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'The daily records of a cycle, by date',
    description:
      'One entry per day submitted, oldest first: the stage of that day, the fields as submitted, the ids of the movements the form wrote and ' +
      'its plausibility warnings. Paged with `limit` and `cursor`. What a day requires: GET …/daily-records/form?date=YYYY-MM-DD.',
    params: cycleParams,
    query: listDailyRecordsQuery,
    responses: { 200: { description: 'A page of daily records', schema: 'DailyRecordListResponse' } },
  },
  async ({ params, query, user }) => {
    const { items, nextCursor, limit } = await listDailyRecordsFor(user, params.flockId, params.cycleId, query);
    return list(items, { limit, nextCursor });
  },
);

import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { eggQualityReport } from '../../shared/services/analytics/reports.js';
import { eggQualityQuery, flockIdParams } from '../../schemas/compiled/analytics.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary:
      'Egg quality trend of a flock (its active cycle, or `cycleId`): cracked, dirty and double-yolk %, egg weight, saleable eggs per day or ISO week, and their direction',
    description:
      'Requires view_analytics. Reads the flock’s active cycle unless `cycleId` names another; each point is a day or an ISO week of egg collections. A flock you may not see answers 404.',
    params: flockIdParams,
    query: eggQualityQuery,
    responses: { 200: { description: 'The trend', schema: 'EggQualityResponse' }, 404: { description: 'No such flock or cycle, or not one of yours' } },
  },
  async ({ params, query, user }) => ok(await eggQualityReport(user, params.flockId, query), 'Egg quality trend'),
);

import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { rankFlocks } from '../../shared/services/analytics/flock-analytics.js';
import { flockRankingQuery } from '../../schemas/compiled/flock-analytics.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary:
      'Flocks of a farm (`farmId`, or your only farm) ranked by one KPI (`kpi`, default fcr) of their active cycle (`status=all`: else their latest), best first',
    description:
      'Best first per the catalogue (GET …/kpis: fcr, mortality and feed per egg lower is better; the rest higher); equal values share a rank; flocks without a value come last with the reason (no active cycle, no weighing, a KPI of another bird type…). Two DynamoDB calls whatever the number of flocks with an active cycle (one Query of the farm’s flocks, one BatchGetItem of the farm and their cycles); `status=all` adds one Query per flock without an active cycle.',
    query: flockRankingQuery,
    responses: {
      200: { description: 'The ranking', schema: 'FlockRankingResponse' },
      404: { description: 'No such farm, or not one of yours' },
    },
  },
  async ({ query, user }) => ok(await rankFlocks(user, query), 'Ranking'),
);

import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { compareFlocks } from '../../shared/services/analytics/flock-analytics.js';
import { compareFlocksQuery } from '../../schemas/compiled/flock-analytics.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'Flocks (`flockIds=a,b`) and/or cycles (`cycles=flockId:cycleId,…`) side by side, 2 to 10 items: the KPIs of each and the best item per KPI',
    description:
      'A flock stands for its active cycle, else its latest cycle (`selectedBy`). A few DynamoDB calls whatever the number of items: one BatchGetItem of the flocks and named cycles, one of the active cycles (plus one Query per flock without an active cycle). An item named twice, a malformed id or pair, or fewer than 2 / more than 10 items is 400 naming it.',
    query: compareFlocksQuery,
    responses: {
      200: { description: 'The items side by side', schema: 'CompareFlocksResponse' },
      404: { description: 'A flock or cycle that does not exist, or is not one of yours (the message names it)' },
    },
  },
  async ({ query, user }) => ok(await compareFlocks(user, query), 'Comparison'),
);

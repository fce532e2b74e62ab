import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { listRunsFor } from '../../shared/services/predictive/reads.js';
import { predictiveRunsQuery } from '../../schemas/compiled/predictive.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'Runs of the predictive job on a farm, newest first: when, how long, what was written, what failed',
    description: 'Requires view_analytics. `farmId` may be left out when you are assigned to one farm. Runs are kept 90 days.',
    query: predictiveRunsQuery,
    responses: {
      200: { description: 'A page of runs', schema: 'PredictiveRunListResponse' },
      404: { description: 'No such farm, or not one of yours' },
    },
  },
  async ({ query, user }) => {
    const { items, limit, nextCursor } = await listRunsFor(user, query);
    return list(items, { limit, nextCursor });
  },
);

import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { incidentMetrics } from '../../shared/services/incidents.js';
import { incidentMetricsQuery } from '../../schemas/compiled/operations.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'Response times: mean time to acknowledge and to resolve, open incidents by severity',
    description:
      'Requires view_analytics. Over the incidents opened in the last `days` (default 30); `farmId` may be left out when you are assigned to one farm.',
    query: incidentMetricsQuery,
    responses: {
      200: { description: 'The farm’s incident metrics', schema: 'IncidentMetricsResponse' },
      404: { description: 'No such farm, or not one of yours' },
    },
  },
  async ({ query, user }) => ok(await incidentMetrics(user, query)),
);

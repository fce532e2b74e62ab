import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { anomalyFor } from '../../shared/services/anomalies/reading.js';
import { anomalyParams } from '../../schemas/compiled/anomalies.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'An anomaly with its evidence and ranked hypotheses',
    description: 'Requires view_analytics. The ETag is the version to send as If-Match when moving it along its lifecycle.',
    params: anomalyParams,
    responses: {
      200: { headers: ['ETag'], description: 'The anomaly', schema: 'AnomalyResponse' },
      404: { description: 'No such anomaly, or one of a farm you cannot see' },
    },
  },
  async ({ params, user }) => {
    const anomaly = await anomalyFor(user, params.anomalyId);
    return ok(anomaly, 'OK', { ETag: `"${anomaly.version}"` });
  },
);

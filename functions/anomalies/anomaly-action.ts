import { httpHandler, type RouteHandler } from '../../shared/http/handler.js';
import { IF_MATCH } from '../../shared/http/request-headers.js';
import { ok } from '../../shared/http/responses.js';
import { actOnAnomaly } from '../../shared/services/anomalies/lifecycle.js';
import { anomalyActionBody, anomalyParams } from '../../schemas/compiled/anomalies.js';
import type { AnomalyAction } from '../../schemas/vocabulary.js';

/** The route of one lifecycle action (acknowledge, resolve, dismiss): they differ only in the action and its words. */
export function anomalyActionRoute(action: AnomalyAction, summary: string, done: string): RouteHandler {
  return httpHandler(
    {
      capability: 'manage_incidents',
      summary,
      description:
        'Requires manage_incidents. `note` is kept with the anomaly; `If-Match` or `version` make it conditional. A move the lifecycle does not allow answers 409 naming the status.',
      params: anomalyParams,
      body: anomalyActionBody,
      headers: IF_MATCH,
      responses: {
        200: { headers: ['ETag'], description: `The anomaly, ${done}`, schema: 'AnomalyResponse' },
        404: { description: 'No such anomaly, or one of a farm you cannot see' },
        409: { description: 'Not allowed from its status, or changed concurrently (or a stale `version`)' },
      },
    },
    async ({ params, body, ctx }) => {
      const anomaly = await actOnAnomaly(ctx, params.anomalyId, action, body);
      return ok(anomaly, `Anomaly ${done}`, { ETag: `"${anomaly.version}"` });
    },
  );
}

import { httpHandler, type RouteHandler } from '../../shared/http/handler.js';
import { IF_MATCH } from '../../shared/http/request-headers.js';
import { ok } from '../../shared/http/responses.js';
import { actOnIncident, incidentRouteCapability } from '../../shared/services/incidents.js';
import { incidentActionBody, incidentParams } from '../../schemas/compiled/operations.js';
import type { IncidentAction } from '../../schemas/vocabulary.js';

/** What a route the incident's assignee may call says about who may. */
export const ASSIGNEE_MAY_TEXT = 'Requires manage_incidents, or being the incident’s assignee (a worker takes on the incident assigned to them).';
export const NOT_ASSIGNEE = 'Without manage_incidents, on an incident not assigned to you (or missing view_analytics, or account locked or unverified)';

/** The route of one lifecycle action (acknowledge, resolve, close): they differ only in the action and its words. */
export function incidentActionRoute(action: IncidentAction, summary: string, done: string): RouteHandler {
  const capability = incidentRouteCapability(action);
  const byAssignee = capability !== 'manage_incidents';
  return httpHandler(
    {
      capability,
      summary,
      description: `${byAssignee ? ASSIGNEE_MAY_TEXT : 'Requires manage_incidents.'} \`note\` is kept on the timeline; \`If-Match\` or \`version\` make it conditional. A move the lifecycle does not allow answers 409 naming the status.`,
      params: incidentParams,
      body: incidentActionBody,
      headers: IF_MATCH,
      responses: {
        200: { headers: ['ETag'], description: `The incident, ${done}`, schema: 'IncidentResponse' },
        404: { description: 'No such incident, or one of a farm you cannot see' },
        403: { description: byAssignee ? NOT_ASSIGNEE : 'Missing capability manage_incidents, or account locked or unverified' },
        409: { description: 'Not allowed from its status, or changed concurrently (or a stale `version`)' },
      },
    },
    async ({ params, body, ctx }) => {
      const incident = await actOnIncident(ctx, params.incidentId, action, body);
      return ok(incident, `Incident ${done}`, { ETag: `"${incident.version}"` });
    },
  );
}

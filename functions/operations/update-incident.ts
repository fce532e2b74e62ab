import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH, IF_MATCH_RESPONSES } from '../../shared/http/request-headers.js';
import { ok } from '../../shared/http/responses.js';
import { updateIncidentFor } from '../../shared/services/incidents.js';
import { incidentParams, updateIncidentBody } from '../../schemas/compiled/operations.js';

export const handler = httpHandler(
  {
    capability: 'manage_incidents',
    summary: 'Change an incident (title, description, category, severity, assignee, links)',
    description:
      'Requires manage_incidents. Send the version you read as `If-Match` (412) or `version` (409). The change is appended to the timeline. A closed ' +
      'incident is final (409: add a note). Recategorising to or from `disease_suspicion` sets or lifts the farm’s movement restriction.',
    params: incidentParams,
    body: updateIncidentBody,
    headers: IF_MATCH,
    responses: {
      200: { headers: ['ETag'], description: 'The changed incident', schema: 'IncidentResponse' },
      404: { description: 'No such incident, or one of a farm you cannot see' },
      ...IF_MATCH_RESPONSES,
    },
  },
  async ({ params, body, ctx }) => {
    const incident = await updateIncidentFor(ctx, params.incidentId, body);
    return ok(incident, 'Incident updated', { ETag: `"${incident.version}"` });
  },
);

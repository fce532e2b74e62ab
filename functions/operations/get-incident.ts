import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { incidentFor } from '../../shared/services/incidents.js';
import { incidentParams } from '../../schemas/compiled/operations.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'An incident with its append-only timeline and its response times',
    description: 'Requires view_analytics. The ETag is the version to send as If-Match when changing it or moving it along its lifecycle.',
    params: incidentParams,
    responses: {
      200: { headers: ['ETag'], description: 'The incident', schema: 'IncidentResponse' },
      404: { description: 'No such incident, or one of a farm you cannot see' },
    },
  },
  async ({ params, user }) => {
    const incident = await incidentFor(user, params.incidentId);
    return ok(incident, 'OK', { ETag: `"${incident.version}"` });
  },
);

import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { listIncidentsFor } from '../../shared/services/incidents.js';
import { listIncidentsQuery } from '../../schemas/compiled/operations.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'List a farm’s incidents, newest first (filters: status, severity, category)',
    description:
      'Requires view_analytics. `farmId` may be left out when you are assigned to one farm. A filtered page may hold fewer than `limit` incidents while `page.nextCursor` is set.',
    query: listIncidentsQuery,
    responses: { 200: { description: 'A page of incidents', schema: 'IncidentListResponse' }, 404: { description: 'No such farm, or not one of yours' } },
  },
  async ({ query, user }) => {
    const { items, limit, nextCursor } = await listIncidentsFor(user, query);
    return list(items, { limit, nextCursor });
  },
);

import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { listAnomaliesFor } from '../../shared/services/anomalies/reading.js';
import { listAnomaliesQuery } from '../../schemas/compiled/anomalies.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'List a farm’s anomalies, newest first (filters: house, flock, status, severity, source, first seen from/to)',
    description:
      'Requires view_analytics. `farmId` may be left out when you are assigned to one farm. `from` (inclusive) and `to` (exclusive) bound when an ' +
      'anomaly was first seen. A filtered page may hold fewer than `limit` anomalies while `page.nextCursor` is set.',
    query: listAnomaliesQuery,
    responses: { 200: { description: 'A page of anomalies', schema: 'AnomalyListResponse' }, 404: { description: 'No such farm, or not one of yours' } },
  },
  async ({ query, user }) => {
    const { items, limit, nextCursor } = await listAnomaliesFor(user, query);
    return list(items, { limit, nextCursor });
  },
);

import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { flockHistory } from '../../shared/services/analytics/flock-analytics.js';
import { flockIdParams } from '../../schemas/compiled/analytics.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'KPI history of a flock across all its cycles (oldest first), the change of each KPI vs the previous cycle, and the best cycle per KPI',
    description:
      'Every KPI is computed from the cycle record’s running counters (one Query reads the flock and its cycles): birds, mortality, livability, feed, FCR, latest weight, age, ADG since placement (breed-standard placement weight), EPEF, eggs, hen-housed eggs, feed per egg and per dozen, water:feed. Each is a Figure: `{value, unit}` or `{value: null, unit, reason}`. `changes[kpi].improved` follows the catalogue (GET …/kpis).',
    params: flockIdParams,
    responses: { 200: { description: 'The flock’s KPI history', schema: 'FlockHistoryResponse' }, 404: { description: 'No such flock, or not one of yours' } },
  },
  async ({ params, user }) => ok(await flockHistory(user, params.flockId), 'Flock KPI history'),
);

import { publicHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/responses.js';
import { systemHealth } from '../../shared/services/health.js';

export const handler = publicHandler(
  {
    summary: 'Liveness and database reachability (never rate limited)',
    description: 'No token needed and never rate limited: for load balancers and uptime checks. Answers 503 with the same body when the table is unreachable.',
    responses: { 200: { description: 'Healthy', schema: 'Health' }, 503: { description: 'The table is unreachable', schema: 'Health' } },
  },
  async () => {
    const { healthy, ...health } = await systemHealth();
    return json(healthy ? 200 : 503, health);
  },
);

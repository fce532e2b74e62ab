import { publicHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/responses.js';
import { settings } from '../../shared/config/env.js';
import { tableReachable } from '../../shared/db/health.js';
import { Health } from '../../schemas/public.js';

export const handler = publicHandler(
  {
    summary: 'Liveness and database reachability (never rate limited)',
    responses: { 200: { description: 'Healthy', schema: Health }, 503: { description: 'The table is unreachable', schema: Health } },
  },
  async () => {
    const healthy = await tableReachable();
    return json(healthy ? 200 : 503, {
      status: healthy ? 'ok' : 'degraded',
      timestamp: new Date().toISOString(),
      uptime: Math.round(process.uptime() * 1000) / 1000,
      environment: settings().stage,
    });
  },
);

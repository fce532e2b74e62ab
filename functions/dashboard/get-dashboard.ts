import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { dashboardFor } from '../../shared/services/dashboard.js';
import { dashboardQuery } from '../../schemas/compiled/dashboard.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary:
      'Your role’s summary: admin (users, system, audit), manager (farm KPIs, alerts, stock, withdrawals), worker (today’s tasks), veterinarian (health alerts, withdrawals), viewer (KPIs)',
    description:
      'Built from rollups (cycle counters, today’s and yesterday’s daily rollups, stock, withdrawal index): a farm costs the same few DynamoDB calls whatever its number of movements. ' +
      'The flock cards are the flocks whose active cycle has birds or awaits them; a flock emptied (all its birds sold, transferred out or dead) is listed apart ' +
      'on the manager’s view (`emptiedFlocks`, with the day it emptied: one more Query each) until its cycle is closed.',
    query: dashboardQuery,
    responses: { 200: { description: 'The summary', schema: 'DashboardResponse' }, 404: { description: 'No such farm, or not one of yours' } },
  },
  async ({ query, user }) => {
    const summary = await dashboardFor(user, query);
    return ok(summary, `Dashboard (${summary.role})`);
  },
);

import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { readinessFor } from '../../shared/services/continuity/readiness.js';
import { readinessParams } from '../../schemas/compiled/continuity.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'A farm’s readiness for an outage: days of feed left, water reserve, generator/alarm/fire drills up to date',
    description:
      'Requires view_analytics, as a user of the farm. Days of feed = the farm’s feed stock ÷ the mean daily consumption of its active cycles over the ' +
      'last 3 complete days; fewer than 3 is `low`. A generator drill is due weekly (MSU Extension IS1952: 30–60 minutes under load), an alarm drill ' +
      'monthly, a fire drill yearly; a failed drill does not reset the clock. `ready` is false when feed is low or a drill is overdue.',
    params: readinessParams,
    responses: { 200: { description: 'The readiness', schema: 'ReadinessResponse' }, 404: { description: 'No such farm, or not one of yours' } },
  },
  async ({ params, user }) => ok(await readinessFor(user, params.farmId)),
);

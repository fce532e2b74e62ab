import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { cycleReport } from '../../shared/services/analytics/reports.js';
import { cycleParams } from '../../schemas/compiled/cycles.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary:
      'Cycle KPIs: mortality, livability, FCR, corrected FCR, ADG, EPEF, uniformity, hen-day, peak production, egg mass, feed per kg egg and per dozen, water:feed, stocking density',
    description:
      'Requires view_analytics. Each KPI is `{value, unit}` or `{value: null, unit, reason}` when its inputs are missing, with `assumptions` when a fallback of the analytics configuration stood in. A cycle you may not see answers 404.',
    params: cycleParams,
    responses: { 200: { description: 'Cycle KPIs', schema: 'CycleAnalyticsResponse' }, 404: { description: 'No such cycle, or not one of yours' } },
  },
  async ({ params, user }) => ok(await cycleReport(user, params.flockId, params.cycleId), 'Cycle KPIs'),
);

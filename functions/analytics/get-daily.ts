import { httpHandler } from '../../shared/http/handler.js';
import { ok, svg, wantsSvg, SVG_CHART } from '../../shared/http/responses.js';
import { cycleChart, dailyReport } from '../../shared/services/analytics/reports.js';
import { cycleParams } from '../../schemas/compiled/cycles.js';
import { dailyAnalyticsQuery } from '../../schemas/compiled/analytics.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'Every KPI of the cycle per calendar day (days without movements included), as JSON or as an SVG chart',
    description:
      'Each KPI is `{value, unit}` or `{value: null, unit, reason}`, with `assumptions` when a fallback of the analytics configuration stood in. ' +
      'With `Accept: image/svg+xml` the answer is a chart (`chart=weight|mortality|fcr`). Costs two DynamoDB round trips whatever the number of movements.',
    params: cycleParams,
    query: dailyAnalyticsQuery,
    responses: {
      200: { ...SVG_CHART, description: 'The daily series (or an SVG chart)', schema: 'DailyAnalyticsResponse' },
      404: { description: 'No such cycle, or not one of yours' },
    },
  },
  async ({ params, query, headers, user }) =>
    wantsSvg(headers)
      ? svg(await cycleChart(user, params.flockId, params.cycleId, query.chart ?? 'weight'))
      : ok(await dailyReport(user, params.flockId, params.cycleId), 'Daily KPIs'),
);

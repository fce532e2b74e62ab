import { httpHandler } from '../../shared/http/handler.js';
import { ok, svg, wantsSvg, SVG_CHART } from '../../shared/http/responses.js';
import { breedReport, cycleChart } from '../../shared/services/analytics/reports.js';
import { cycleParams } from '../../schemas/compiled/cycles.js';
import { breedAnalyticsQuery } from '../../schemas/compiled/analytics.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary:
      'Actual vs breed standard per day (weight, cumulative FCR, hen-day %, feed and water per bird, egg weight and mass, hen-housed eggs, livability) with deviation %, as JSON or as an SVG chart',
    description:
      'Standards are interpolated linearly between tabulated ages (flagged `interpolated`). Layer guides cover rearing and lay (Hy-Line Brown weeks 1–100, Lohmann Brown-Classic weeks 1–95); a guide that prints only a band is compared with the band midpoint (`standardBasis`, the band in `standardBand`). Unknown breeds answer `standard: null` with a reason. With `Accept: image/svg+xml`: a chart (`chart=weight|mortality|fcr`).',
    params: cycleParams,
    query: breedAnalyticsQuery,
    responses: {
      200: { ...SVG_CHART, description: 'The comparison (or an SVG chart)', schema: 'BreedAnalyticsResponse' },
      404: { description: 'No such cycle, or not one of yours' },
    },
  },
  async ({ params, query, headers, user }) =>
    wantsSvg(headers)
      ? svg(await cycleChart(user, params.flockId, params.cycleId, query.chart ?? 'weight'))
      : ok(await breedReport(user, params.flockId, params.cycleId), 'Breed standard comparison'),
);

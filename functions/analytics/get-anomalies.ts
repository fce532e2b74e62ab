import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { anomalyReport } from '../../shared/services/analytics/reports.js';
import { cycleParams } from '../../schemas/compiled/cycles.js';
import { anomaliesQuery } from '../../schemas/compiled/analytics.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary:
      'Days whose KPIs break the configured thresholds (mortality, water:feed, low water intake, hen-day drop, weight/FCR vs standard, uniformity, cracked eggs, water pH), with evidence',
    description:
      'Severity `critical` when the breach is at least twice the allowed margin, else `warning`. Filter by `severity` and a date range. ' +
      '`detections` are the statistical detectors (robust z-score, EWMA, CUSUM over the flock’s own age-matched history): the same code whose findings the alarm job stores under /api/v1/anomalies (source `detector`).',
    params: cycleParams,
    query: anomaliesQuery,
    responses: { 200: { description: 'Anomalies, by date', schema: 'AnomaliesResponse' }, 404: { description: 'No such cycle, or not one of yours' } },
  },
  async ({ params, query, user }) => ok(await anomalyReport(user, params.flockId, params.cycleId, query), 'Anomalies'),
);

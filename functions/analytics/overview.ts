import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { breedStandardNames } from '../../shared/services/analytics/cycle-context.js';
import { CHARTS } from '../../schemas/compiled/constants/analytics.js';
import operations from '../../schemas/compiled/operations.json' with { type: 'json' };

const BASE = '/api/v2/analytics';

export const handler = httpHandler(
  {
    capability: 'none',
    summary: 'Analytics API overview: what it computes and every Analytics V2 endpoint with its capability',
    description: 'Any signed-in user. Lists every Analytics V2 endpoint with the capability it requires, read from the route table, so it never goes stale.',
    responses: { 200: { description: 'The overview', schema: 'AnalyticsOverviewResponse' } },
  },
  async () =>
    ok(
      {
        name: 'Flockwise Analytics V2',
        version: '2.0.0',
        description:
          'KPIs per day and per cycle from the movement ledger and the weighings (mortality, livability, FCR, corrected FCR, ADG, EPEF, hen-day, egg mass, ' +
          'feed per kg egg and per dozen, water:feed, stocking density), comparison with breed standards, financials from movements × pricing, predictions, ' +
          'anomalies against the configured thresholds, egg quality and supplier reliability. Figures are { value, unit } or { value: null, reason }.',
        endpoints: operations
          .filter((o) => o.path === BASE || o.path.startsWith(`${BASE}/`))
          .map(({ method, path, summary, capability }) => ({ method, path, summary, capability })),
        charts: [...CHARTS],
        breedStandards: breedStandardNames(),
      },
      'Flockwise Analytics V2',
    ),
);

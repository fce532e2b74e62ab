import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { kpiCatalogue } from '../../shared/services/analytics/flock-analytics.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'The rankable KPIs of flock analytics: name, unit, description and whether higher or lower is better',
    description: 'The names are the values `kpi` takes in the ranking and the keys of `best` in the history and the comparison.',
    responses: { 200: { description: 'The KPI catalogue', schema: 'KpiCatalogueResponse' } },
  },
  async () => ok(kpiCatalogue(), 'KPI catalogue'),
);

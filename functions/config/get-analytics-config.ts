import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { currentAnalyticsConfig, toAnalyticsConfigDto } from '../../shared/services/analytics/config.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'The analytics configuration in force: pricing, consumption, thresholds, unitConversions, ratios, fallbacks (ETag: its version)',
    description:
      'Every field is present; fields never set hold their defaults (the `default` of each field). Version 0 means the defaults have never been changed.',
    responses: { 200: { headers: ['ETag'], description: 'The configuration', schema: 'AnalyticsConfigResponse' } },
  },
  async () => {
    const state = await currentAnalyticsConfig();
    return ok(toAnalyticsConfigDto(state), 'OK', { ETag: `"${state.version}"` });
  },
);

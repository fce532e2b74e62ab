import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH, IF_MATCH_RESPONSES } from '../../shared/http/request-headers.js';
import { ok } from '../../shared/http/responses.js';
import { toAnalyticsConfigDto, updateAnalyticsThresholds } from '../../shared/services/analytics/config.js';
import { updateThresholdsBody } from '../../schemas/compiled/analytics-config.js';

export const handler = httpHandler(
  {
    capability: 'update_analytics_config',
    summary: 'Replace the thresholds section of the analytics configuration (admin only)',
    description:
      'The body is the thresholds section (omitted fields take their defaults) plus an optional `version`; or send `If-Match`. ' +
      'Creates a new configuration version and an audit entry; low/high pairs (pH, humidity, water:feed ratio…) must stay in order.',
    body: updateThresholdsBody,
    headers: IF_MATCH,
    responses: {
      200: { headers: ['ETag'], description: 'The whole configuration after the change', schema: 'AnalyticsConfigResponse' },
      ...IF_MATCH_RESPONSES,
    },
  },
  async ({ body, ctx }) => {
    const state = await updateAnalyticsThresholds(ctx, body);
    return ok(toAnalyticsConfigDto(state), 'Analytics thresholds updated', { ETag: `"${state.version}"` });
  },
);

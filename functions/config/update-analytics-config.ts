import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH, IF_MATCH_RESPONSES } from '../../shared/http/request-headers.js';
import { ok } from '../../shared/http/responses.js';
import { toAnalyticsConfigDto, updateAnalyticsConfig } from '../../shared/services/analytics/config.js';
import { updateAnalyticsConfigBody } from '../../schemas/compiled/analytics-config.js';

export const handler = httpHandler(
  {
    capability: 'update_analytics_config',
    summary: 'Replace sections of the analytics configuration (admin only)',
    description:
      'Send any of the six sections; each one sent replaces that section (its omitted fields take their defaults), the others keep their values. ' +
      'A change creates a new version (see …/history) and an audit entry. Send the version you read as `If-Match` (412 on mismatch) or `version` (409 on mismatch); ' +
      'without either the write is still conditional on the version read. A PUT that changes nothing answers the current version.',
    body: updateAnalyticsConfigBody,
    headers: IF_MATCH,
    responses: {
      200: { headers: ['ETag'], description: 'The configuration after the change', schema: 'AnalyticsConfigResponse' },
      ...IF_MATCH_RESPONSES,
    },
  },
  async ({ body, ctx }) => {
    const state = await updateAnalyticsConfig(ctx, body);
    return ok(toAnalyticsConfigDto(state), 'Analytics configuration updated', { ETag: `"${state.version}"` });
  },
);

import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH, IF_MATCH_RESPONSES } from '../../shared/http/request-headers.js';
import { ok } from '../../shared/http/responses.js';
import { decideRecommendation, toRecommendationDto } from '../../shared/services/recommendations.js';
import { decideRecommendationBody, recommendationParams } from '../../schemas/compiled/optimization.js';

/** The two decisions on an open recommendation (accept-recommendation.ts, dismiss-recommendation.ts) are one route shape. */
export const decisionHandler = (decision: 'accepted' | 'dismissed') => {
  const verb = decision === 'accepted' ? 'Accept' : 'Dismiss';
  return httpHandler(
    {
      capability: 'manage_flocks',
      summary: `${verb} an open recommendation (with an optional note); audited`,
      description:
        'Only an `open` recommendation can be decided (409 otherwise). Send the version read as `If-Match` (412) or `version` (409) to guard against a concurrent decision.',
      params: recommendationParams,
      body: decideRecommendationBody,
      headers: IF_MATCH,
      responses: {
        200: { headers: ['ETag'], description: `Recommendation ${decision}`, schema: 'RecommendationResponse' },
        404: { description: 'No such recommendation, or not one of yours' },
        ...IF_MATCH_RESPONSES,
        409: { description: 'Already decided, or changed concurrently' },
      },
    },
    async ({ params, body, ctx }) => {
      const rec = await decideRecommendation(ctx, params.recommendationId, decision, body);
      return ok(toRecommendationDto(rec), `Recommendation ${decision}`, { ETag: `"${rec.version}"` });
    },
  );
};

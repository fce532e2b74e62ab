import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { generateProposals, toRecommendationDto } from '../../shared/services/recommendations.js';
import { generateRecommendationsBody } from '../../schemas/compiled/optimization.js';

export const handler = httpHandler(
  {
    capability: 'edit_analytics',
    summary:
      'Let the system propose recommendations from a cycle’s analytics (FCR or weight off the breed standard, water:feed ratio, mortality, uniformity, stocking density, water pH, hen-day drop, cracked eggs)',
    description:
      'Each proposal carries the evidence that triggered it (`source: system`, `rule`). A rule proposes at most once per cycle, so running this again (or concurrently) never duplicates; the answer lists what was created, what had already been proposed and every rule checked.',
    body: generateRecommendationsBody,
    responses: {
      200: { description: 'The proposals made by this run', schema: 'GeneratedRecommendationsResponse' },
      404: { description: 'No such flock or cycle, or not one of yours' },
    },
  },
  async ({ body, ctx }) => {
    const result = await generateProposals(ctx, body);
    return ok({ ...result, created: result.created.map(toRecommendationDto) }, `${result.created.length} recommendation(s) proposed`);
  },
);

import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { listWeightsFor } from '../../shared/services/flocks/weights.js';
import { cycleParams } from '../../schemas/compiled/cycles.js';
import { listWeightsQuery } from '../../schemas/compiled/weights.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'The weighing sessions of a cycle by date: average grams, method, confidence, phase, days in cycle',
    description:
      'One entry per weighing session (a manual sample, or one automatic scale’s day), in date order. `confidence` comes from the number of birds ' +
      'weighed and the CV: high (n ≥ 100 and CV ≤ 10 %), medium (n ≥ 30 and CV ≤ 20 %, or an average reported over ≥ 100 birds), else low. ' +
      '`phase` comes from the bird type and the birds’ age at the weighing (from the hatch date when known, else the cycle start): broiler brooding 0–10 d, ' +
      'growing 11–24, finishing 25+; layer brooding 0–27, rearing 28–125, laying 126+; breeder brooding 0–27, rearing 28–167, laying 168+ (molting is never derived).',
    params: cycleParams,
    query: listWeightsQuery,
    responses: { 200: { description: 'The sessions (one page; a whole broiler cycle fits the default page)', schema: 'WeightListResponse' } },
  },
  async ({ params, query, user }) => {
    const { items, nextCursor, limit } = await listWeightsFor(user, params.flockId, params.cycleId, query);
    return list(items, { limit, nextCursor });
  },
);

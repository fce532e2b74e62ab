import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { scopedCycleWithBasis, toCycleDto } from '../../shared/services/flocks/cycles.js';
import { cycleParams } from '../../schemas/compiled/cycles.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'Cycle summary: birds placed, alive, deaths, culls, sold, transferred; feed; eggs; age; latest weight; mortality, livability, FCR',
    description:
      'One read however many movements the cycle has (the flock, the cycle and the analytics configuration in one BatchGetItem): the ledger keeps the counters in the same transaction as each movement.',
    params: cycleParams,
    responses: { 200: { headers: ['ETag'], description: 'The cycle summary', schema: 'CycleResponse' } },
  },
  async ({ params, user }) => {
    const { cycle, basis } = await scopedCycleWithBasis(user, params.flockId, params.cycleId);
    return ok(toCycleDto(cycle, basis), 'OK', { ETag: `"${cycle.version}"` });
  },
);

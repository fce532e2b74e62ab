import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { closeCycleFor, toCycleDto } from '../../shared/services/flocks/cycles.js';
import { closeCycleBody, cycleParams } from '../../schemas/compiled/cycles.js';

export const handler = httpHandler(
  {
    capability: 'manage_flocks',
    summary: 'Close the cycle: its movements become automatically locked and it takes no new ones; the flock can start another',
    description: '`endDate` (default today, UTC) must not be before the start date nor in the future: analytics of a closed cycle run to its end date.',
    params: cycleParams,
    body: closeCycleBody,
    responses: { 200: { description: 'The closed cycle', schema: 'CycleResponse' }, 409: { description: 'Already closed' } },
  },
  async ({ params, body, ctx }) => {
    const { cycle, basis } = await closeCycleFor(ctx, params.flockId, params.cycleId, body);
    return ok(toCycleDto(cycle, basis), 'Cycle closed');
  },
);

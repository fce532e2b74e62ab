import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH } from '../../shared/http/request-headers.js';
import { ok } from '../../shared/http/responses.js';
import { toCycleDto, updateCycleFor } from '../../shared/services/flocks/cycles.js';
import { cycleParams, updateCycleBody } from '../../schemas/compiled/cycles.js';

export const handler = httpHandler(
  {
    capability: 'manage_flocks',
    summary: 'Update a cycle’s name, targets or notes (counters change only through movements)',
    description: 'Requires manage_flocks. Send the ETag you read as If-Match (or `version` in the body): a stale version answers 412 (If-Match) or 409 (body).',
    params: cycleParams,
    body: updateCycleBody,
    headers: IF_MATCH,
    responses: {
      200: { headers: ['ETag'], description: 'The updated cycle', schema: 'CycleResponse' },
      409: { description: 'Changed concurrently' },
      412: { description: 'If-Match does not match' },
    },
  },
  async ({ params, body, ctx }) => {
    const { cycle: saved, basis } = await updateCycleFor(ctx, params.flockId, params.cycleId, body);
    return ok(toCycleDto(saved, basis), 'Cycle updated', { ETag: `"${saved.version}"` });
  },
);

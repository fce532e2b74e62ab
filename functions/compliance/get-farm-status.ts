import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { farmComplianceStatusFor } from '../../shared/services/compliance/report.js';
import { complianceFarmParams } from '../../schemas/compiled/compliance.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'A farm’s compliance over its active cycles: each cycle’s rule statuses and the counts',
    description:
      'Requires view_analytics. The same rules as the cycle report (GET /api/v1/compliance/cycles/{flockId}/{cycleId}/report), summarised; fail when any rule of any active cycle fails.',
    params: complianceFarmParams,
    responses: {
      200: { description: 'The status', schema: 'FarmComplianceStatusResponse' },
      404: { description: 'No such farm, or not one of yours' },
    },
  },
  async ({ params, user }) => ok(await farmComplianceStatusFor(user, params.farmId), 'Compliance status'),
);

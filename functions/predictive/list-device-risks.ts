import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { deviceRisksFor } from '../../shared/services/predictive/reads.js';
import { predictiveDevicesQuery } from '../../schemas/compiled/predictive.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'Device failure risks of a farm (or one house), highest first: silence, gaps, flat lines, drift against neighbours',
    description: 'Requires view_analytics. `farmId` may be left out when you are assigned to one farm. Computed by the hourly job over the last 24 full hours.',
    query: predictiveDevicesQuery,
    responses: {
      200: { description: 'The farm’s device risks', schema: 'DeviceRisksResponse' },
      404: { description: 'No such farm, or not one of yours' },
    },
  },
  async ({ query, user }) => ok(await deviceRisksFor(user, query)),
);

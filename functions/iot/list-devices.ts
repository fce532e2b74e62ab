import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { listDevicesFor } from '../../shared/services/iot/devices.js';
import { listDevicesQuery } from '../../schemas/compiled/iot.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'List the devices of a farm (by house), with their health',
    description:
      'Requires view_analytics. `farmId` may be left out when you are assigned to one farm. Filters: `houseId`, `kind`, `status` ' +
      '(worked out from last seen, so a filtered page may hold fewer than `limit` devices while `page.nextCursor` is set).',
    query: listDevicesQuery,
    responses: { 200: { description: 'A page of devices', schema: 'DeviceListResponse' }, 404: { description: 'No such farm, or not one of yours' } },
  },
  async ({ query, user }) => {
    const { items, limit, nextCursor } = await listDevicesFor(user, query);
    return list(items, { limit, nextCursor });
  },
);

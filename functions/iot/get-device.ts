import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { deviceView, visibleDevice } from '../../shared/services/iot/devices.js';
import { deviceParams } from '../../schemas/compiled/iot.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'A device, with its health (online, stale, offline) and last seen',
    description: 'Requires view_analytics. The ETag is the version to send as If-Match when changing, rotating or deleting it.',
    params: deviceParams,
    responses: {
      200: { headers: ['ETag'], description: 'The device', schema: 'DeviceResponse' },
      404: { description: 'No such device, or one of a farm you cannot see (same answer)' },
    },
  },
  async ({ params, user }) => {
    const device = await visibleDevice(user, params.deviceId);
    return ok(await deviceView(device), 'OK', { ETag: `"${device.version}"` });
  },
);

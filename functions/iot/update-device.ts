import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH, IF_MATCH_RESPONSES } from '../../shared/http/request-headers.js';
import { ok } from '../../shared/http/responses.js';
import { deviceView, updateDeviceFor } from '../../shared/services/iot/devices.js';
import { deviceParams, updateDeviceBody } from '../../schemas/compiled/iot.js';

export const handler = httpHandler(
  {
    capability: 'manage_devices',
    summary: 'Change a device (name, house within its farm, metrics, reporting interval)',
    description:
      'Requires manage_devices. Send the version you read as `If-Match` (412 on mismatch) or `version` (409 on mismatch). Metrics must be those of the device’s kind.',
    params: deviceParams,
    body: updateDeviceBody,
    headers: IF_MATCH,
    responses: {
      200: { headers: ['ETag'], description: 'The updated device', schema: 'DeviceResponse' },
      404: { description: 'No such device (or house), or one of a farm you cannot see' },
      ...IF_MATCH_RESPONSES,
    },
  },
  async ({ params, body, ctx }) => {
    const device = await updateDeviceFor(ctx, params.deviceId, body);
    return ok(await deviceView(device), 'Device updated', { ETag: `"${device.version}"` });
  },
);

import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH, IF_MATCH_RESPONSES } from '../../shared/http/request-headers.js';
import { ok } from '../../shared/http/responses.js';
import { rotateDeviceSecret } from '../../shared/services/iot/devices.js';
import { deviceParams } from '../../schemas/compiled/iot.js';

export const handler = httpHandler(
  {
    capability: 'manage_devices',
    summary: 'Give a device a new secret (shown once); the old key stops working at once',
    description: 'Requires manage_devices. `If-Match` makes the rotation conditional on the version you read.',
    params: deviceParams,
    headers: IF_MATCH,
    responses: {
      200: { headers: ['ETag'], description: 'The device with its new secret and device key', schema: 'DeviceWithSecretResponse' },
      404: { description: 'No such device, or one of a farm you cannot see' },
      ...IF_MATCH_RESPONSES,
    },
  },
  async ({ params, ctx }) => {
    const device = await rotateDeviceSecret(ctx, params.deviceId);
    return ok(device, 'Secret rotated; keep it, it is not shown again', { ETag: `"${device.version}"` });
  },
);

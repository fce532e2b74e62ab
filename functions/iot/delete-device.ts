import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH, IF_MATCH_RESPONSES } from '../../shared/http/request-headers.js';
import { noContent } from '../../shared/http/responses.js';
import { deleteDeviceFor } from '../../shared/services/iot/devices.js';
import { deviceParams } from '../../schemas/compiled/iot.js';

export const handler = httpHandler(
  {
    capability: 'manage_devices',
    summary: 'Remove a device: its key stops working at once (its rollups stay as history)',
    description: 'Requires manage_devices. Frames it still sends are refused (HTTP 401) or dropped (IoT Core). `If-Match` makes the delete conditional.',
    params: deviceParams,
    headers: IF_MATCH,
    responses: { 204: { description: 'Removed' }, 404: { description: 'No such device, or one of a farm you cannot see' }, ...IF_MATCH_RESPONSES },
  },
  async ({ params, ctx }) => {
    await deleteDeviceFor(ctx, params.deviceId);
    return noContent();
  },
);

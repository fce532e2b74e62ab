import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { registerDevice } from '../../shared/services/iot/devices.js';
import { createDeviceBody } from '../../schemas/compiled/iot.js';

export const handler = httpHandler(
  {
    capability: 'manage_devices',
    summary: 'Register a device in a house; the answer holds its secret, shown once',
    description:
      'Requires manage_devices. `farmId` may be left out when the house is in one of your farms. `metrics` defaults to those of the kind; ' +
      'a `multi` device may declare any. The device then sends `X-Device-Key: <id>.<secret>` (the answer’s `deviceKey`) to `POST /api/v1/iot/ingest`, ' +
      'or publishes to `flockwise/<farmId>/devices/<id>/telemetry` through IoT Core. The secret is stored only as a hash: keep it, or rotate it. ' +
      'With an Idempotency-Key, a retry gets the registered device again (201, `Idempotent-Replayed: true`) without the secret.',
    body: createDeviceBody,
    headers: IDEMPOTENCY_KEY,
    responses: {
      201: { description: 'Registered: the device with its secret and device key', schema: 'DeviceWithSecretResponse' },
      404: { description: 'No such house in the farm, or not one of your farms (same answer)' },
    },
  },
  async ({ body, ctx }) => replayable(await registerDevice(ctx, body)),
);

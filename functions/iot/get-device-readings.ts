import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { deviceReadings } from '../../shared/services/iot/reads.js';
import { deviceParams, readingsQuery } from '../../schemas/compiled/iot.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'A device’s readings over a period: raw, or hourly or daily min, max, avg and count per metric',
    description:
      'Requires view_analytics. `from` inclusive, `to` exclusive. Buckets are UTC hours or days, kept for ever; raw readings are kept `SENSOR_RAW_TTL_DAYS` ' +
      '(default 30). A period is at most 2 days raw, 90 days of hours, 1100 days of days. `metric` narrows the answer to one metric.',
    params: deviceParams,
    query: readingsQuery,
    responses: {
      200: { description: 'The readings or buckets, oldest first', schema: 'ReadingsResponse' },
      404: { description: 'No such device, or not yours' },
    },
  },
  async ({ params, query, user }) => ok(await deviceReadings(user, params.deviceId, query)),
);

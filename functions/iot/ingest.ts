import { deviceHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { ingestReadings } from '../../shared/services/iot/ingestion.js';
import { ingestBody } from '../../schemas/compiled/iot.js';

export const handler = deviceHandler(
  {
    summary: 'Sensor ingestion for gateways and controllers: a batch of 1–500 frames of one device',
    description:
      'Authenticated by `X-Device-Key: <deviceId>.<secret>` (no bearer token; its own rate-limit class `ingest`). Each reading `{ts, metrics}` is accepted, ' +
      'a duplicate (the same device and `ts` already stored, or repeated in the batch: never stored twice), or rejected with the reason: a metric the device ' +
      'does not report, a value outside the physical range, a counter going backwards, `ts` more than 5 minutes ahead or older than the raw retention. ' +
      'Sending a batch again is safe. Accepted readings update the hourly and daily rollups, the house’s water and feed of the day (meters and silos, ' +
      'when no manual figure exists), the cycle’s weights (scales), and are checked against the analytics thresholds.',
    body: ingestBody,
    maxBodyBytes: 512 * 1024,
    responses: {
      200: { description: 'Accepted, duplicate and rejected readings', schema: 'IngestResponse' },
    },
  },
  async ({ body, device }) => ok(await ingestReadings(device, body.readings, Date.now()), 'Readings ingested'),
);

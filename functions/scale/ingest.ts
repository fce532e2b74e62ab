import { httpHandler } from '../../shared/http/handler.js';
import { replayable } from '../../shared/http/responses.js';
import { ingestScaleBatch } from '../../shared/services/flocks/weights.js';
import { scaleIngestBody } from '../../schemas/compiled/weights.js';

export const handler = httpHandler(
  {
    capability: 'create_movement',
    summary: 'Ingest a batch of readings from an automatic bird scale (one session per device and day)',
    description:
      'Up to 1000 readings `{at, grams}` of one device for one flock (its active cycle unless `cycleId` is sent), spanning at most 98 dates. ' +
      '`deviceId` is a bird scale registered in the flock’s farm (`POST /api/v1/iot/devices`, metrics including `birdWeightGrams`); `houseId`, when sent, a house of that farm. ' +
      'Each reading counts for the date written in its timestamp (send the device’s local time with its UTC offset). Readings are grouped per date into ' +
      'one `automatic_scale` session per device and date, merged exactly with earlier batches of that device and date (count, sums, a 0.5 % histogram for uniformity). ' +
      'Rejected, not refused: readings ≤ 0 g or above 10 kg (`implausible`), outside ±50 % of the day’s median once the day has 3 readings (`outlier`), ' +
      'dated before the cycle’s start or in the future (`outsideCycle`). The sessions and the cycle’s latest weight are one transaction. ' +
      'Send `Idempotency-Key` so a retried upload is not counted twice.',
    body: scaleIngestBody,
    headers: { 'Idempotency-Key': 'Any 1–255 visible ASCII characters, unique per batch (e.g. device id + batch sequence number)' },
    responses: {
      200: { description: 'Accepted and rejected counts, per date with the merged session', schema: 'ScaleIngestResponse' },
      404: { description: 'Unknown flock, cycle, device or house (another farm’s answers as a missing one)' },
      409: { description: 'The cycle is closed, or the flock has no active cycle' },
      422: { description: 'Idempotency-Key reused with another body' },
    },
  },
  async ({ body, ctx }) => {
    const result = await ingestScaleBatch(ctx, body);
    return replayable(result);
  },
);

import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { recordWaterReading } from '../../shared/services/analytics/records.js';
import { waterReadingBody } from '../../schemas/compiled/analytics.js';

export const handler = httpHandler(
  {
    capability: 'edit_analytics',
    summary: 'Record a drinking-water quality reading (pH 0–14 and optional temperature, TDS, chlorine, ORP, hardness) for a flock’s active cycle',
    description:
      'The answer assesses the pH against the thresholds in force (acceptable 6.0–8.0 by default). The pH is kept on the day’s rollup, so the daily series and the anomalies of the cycle show it. ' +
      '409 when the flock has no active cycle. `Idempotency-Key` makes retries safe.',
    body: waterReadingBody,
    headers: IDEMPOTENCY_KEY,
    responses: {
      201: { description: 'Recorded, with its assessment', schema: 'WaterReadingResponse' },
      404: { description: 'No such flock, or not one of yours' },
      409: { description: 'No active cycle, the cycle closed meanwhile, or the day already holds the most readings it keeps' },
    },
  },
  async ({ body, ctx }) => replayable(await recordWaterReading(ctx, body)),
);

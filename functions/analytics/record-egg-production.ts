import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { recordEggProduction } from '../../shared/services/analytics/records.js';
import { eggProductionBody } from '../../schemas/compiled/analytics.js';

export const handler = httpHandler(
  {
    capability: 'edit_analytics',
    summary: 'Record a day’s egg production of a layer or breeder flock (an egg_collection movement of its active cycle)',
    description:
      'Body: `flockId`, `totalEggs` and the quality figures (`cracked`, `dirty`, `doubleYolk`, `averageEggWeightGrams`, `grades`), `date` (default today, UTC). ' +
      'Written like any egg_collection: the egg stock, the cycle counters and the daily rollup move in one transaction, so hen-day %, egg mass and the egg-quality trend include it. ' +
      'One day has one count of eggs: a second write for a day CORRECTS the first, never adds to it (200): when the day has a daily record, its egg fields are replaced ' +
      '(the record is submitted again, answered with its egg_collection); when an earlier egg production holds the day, that movement is corrected (fields not sent are removed). ' +
      'Several egg_collection movements on the day answer 409 naming them. ' +
      '409 when the flock has no active cycle or is a broiler flock. `Idempotency-Key` makes retries safe.',
    body: eggProductionBody,
    headers: IDEMPOTENCY_KEY,
    responses: {
      200: { description: 'The day’s eggs corrected (the egg_collection movement as it now is)', schema: 'EggProductionResponse' },
      201: { description: 'Recorded (the egg_collection movement)', schema: 'EggProductionResponse' },
      404: { description: 'No such flock, or not one of yours' },
      409: {
        description:
          'No active cycle, a broiler flock, the cycle closed meanwhile, several egg_collection movements on the day, or a correction that would take back eggs already sold',
      },
    },
  },
  async ({ body, ctx }) => replayable(await recordEggProduction(ctx, body)),
);

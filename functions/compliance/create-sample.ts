import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { createSampleFor } from '../../shared/services/compliance/compliance.js';
import { createSampleBody } from '../../schemas/compiled/compliance.js';

export const handler = httpHandler(
  {
    capability: 'manage_compliance',
    summary: 'Record a Salmonella sample of a flock (Reg. (EC) 2160/2003)',
    description:
      'Requires manage_compliance. The sample belongs to the flock’s active cycle unless `cycleId` names another. It counts towards the sampling due dates of the compliance report: ' +
      'laying hens every 15 weeks from 24 ± 2 weeks of age (Reg. (EU) 517/2011), broilers within 3 weeks before they leave for slaughter (Reg. (EU) 200/2012). ' +
      'Audited; never expires. Send an Idempotency-Key to make retries safe: a retry gets the first answer with `Idempotent-Replayed: true`.',
    body: createSampleBody,
    headers: IDEMPOTENCY_KEY,
    responses: {
      201: { description: 'Recorded', schema: 'SampleResponse' },
      404: { description: 'No such flock, or not one of yours' },
    },
  },
  async ({ body, ctx }) => replayable(await createSampleFor(ctx, body)),
);

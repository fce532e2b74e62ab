import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { createOrderFor } from '../../shared/services/procurement/orders.js';
import { createOrderBody } from '../../schemas/compiled/procurement.js';

export const handler = httpHandler(
  {
    capability: 'manage_procurement',
    summary: 'Draft a purchase order (lines, expected date, farm, supplier)',
    description:
      'Requires manage_procurement. Status starts `draft`. The supplier must serve the farm, supply every line’s kind and not be archived. Feed lines name a `feedType` in kg; chick lines are whole birds; other lines name a `product`. A past expected date is taken (an order entered after the fact) and audited as back-dated. Send an Idempotency-Key to make retries safe.',
    body: createOrderBody,
    headers: IDEMPOTENCY_KEY,
    responses: {
      201: { description: 'Drafted', schema: 'OrderResponse' },
      404: { description: 'No such farm, or not one of yours' },
      409: { description: 'The supplier is archived' },
    },
  },
  async ({ body, ctx }) => replayable(await createOrderFor(ctx, body)),
);

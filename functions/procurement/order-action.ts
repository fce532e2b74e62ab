import { httpHandler, type RouteHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY, IF_MATCH } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { actOnOrder } from '../../shared/services/procurement/orders.js';
import { orderActionBody, orderParams } from '../../schemas/compiled/procurement.js';
import type { OrderAction } from '../../schemas/procurement.js';

/** The route of one lifecycle action (place, cancel): they differ only in the action and its words. */
export function orderActionRoute(action: OrderAction, summary: string, done: string): RouteHandler {
  return httpHandler(
    {
      capability: 'manage_procurement',
      summary,
      description:
        'Requires manage_procurement. `note` is kept in the audit log; placing an order whose expected date is past is allowed and audited as back-dated; `If-Match` or `version` make it conditional. A move the lifecycle does not allow answers 409 naming the status. With an Idempotency-Key a retry gets the first answer.',
      params: orderParams,
      body: orderActionBody,
      headers: { ...IF_MATCH, ...IDEMPOTENCY_KEY },
      responses: {
        200: { headers: ['ETag'], description: `The order, ${done}`, schema: 'OrderResponse' },
        404: { description: 'No such order, or one of a farm you cannot see' },
        409: { description: 'Not allowed from its status, or changed concurrently (or a stale `version`)' },
      },
    },
    async ({ params, body, ctx }) => replayable(await actOnOrder(ctx, params.orderId, action, body)),
  );
}

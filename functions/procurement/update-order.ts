import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH } from '../../shared/http/request-headers.js';
import { ok } from '../../shared/http/responses.js';
import { updateOrderFor } from '../../shared/services/procurement/orders.js';
import { orderParams, updateOrderBody } from '../../schemas/compiled/procurement.js';

export const handler = httpHandler(
  {
    capability: 'manage_procurement',
    summary: 'Change a draft purchase order (lines, expected date, over-delivery, notes)',
    description:
      'Requires manage_procurement. Only a draft changes (409 otherwise). `lines` replaces every line (new line ids). Send the version you read as `If-Match` (412) or `version` (409).',
    params: orderParams,
    body: updateOrderBody,
    headers: IF_MATCH,
    responses: {
      200: { headers: ['ETag'], description: 'The changed order', schema: 'OrderResponse' },
      404: { description: 'No such order, or one of a farm you cannot see' },
      409: { description: 'Not a draft, changed concurrently (or a stale `version`), or its supplier was archived' },
    },
  },
  async ({ params, body, ctx }) => {
    const order = await updateOrderFor(ctx, params.orderId, body);
    return ok(order, 'Purchase order updated', { ETag: `"${order.version}"` });
  },
);

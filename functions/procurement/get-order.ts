import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { orderFor } from '../../shared/services/procurement/orders.js';
import { orderParams } from '../../schemas/compiled/procurement.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'A purchase order with its receipts',
    description: 'Requires view_analytics. The ETag is the version to send as If-Match when changing it or moving it along its lifecycle.',
    params: orderParams,
    responses: {
      200: { headers: ['ETag'], description: 'The order', schema: 'OrderWithReceiptsResponse' },
      404: { description: 'No such order, or one of a farm you cannot see' },
    },
  },
  async ({ params, user }) => {
    const order = await orderFor(user, params.orderId);
    return ok(order, 'OK', { ETag: `"${order.version}"` });
  },
);

import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { receiveOrder } from '../../shared/services/procurement/receipts.js';
import { createReceiptBody, orderParams } from '../../schemas/compiled/procurement.js';

export const handler = httpHandler(
  {
    capability: 'manage_procurement',
    summary: 'Receive goods on a placed purchase order (writes the ledger in the same transaction)',
    description:
      'Requires manage_procurement. Feed lines write a `feed_delivery` (with the supplier, order and expected dates, the quantity outstanding and the quality issues: supplier reliability) and chick lines a `bird_inflow` on the active cycle of the flock named in the line (`flockId`, a flock of the order’s farm); vaccine and medication lines a `medicine_delivery` there (the farm’s medicine stock of the product, in the line’s unit); equipment lines are recorded on the receipt only. ' +
      'Chicks that would put their house above the stocking density limit (the farm’s tier at the forecast, else breed-standard, weight up to the expected harvest) are placed all the same, with a `warnings` entry naming the density, the limit and the date. ' +
      'The date is the farm’s: not after its today; an earlier one (also before the order was placed) is taken and audited as back-dated, and when the order was placed after its expected day or after the goods arrived its deliveries carry no order date (the day it was entered is not the day it was ordered). ' +
      'The order becomes `partially_received`, or `received` once every line has its quantity. More than the quantity ordered is refused (400) unless the order allows over-delivery. Send an Idempotency-Key: a retry (also a concurrent one) gets the first answer and writes nothing.',
    params: orderParams,
    body: createReceiptBody,
    headers: IDEMPOTENCY_KEY,
    responses: {
      201: {
        description: 'Received: the order and the receipt (with `warnings` when chicks would put their house above the stocking density limit)',
        schema: 'ReceiptResponse',
      },
      404: { description: 'No such order, or one of a farm you cannot see' },
      409: { description: 'Not ordered or partially received, the cycle is closed, or the order changed concurrently' },
    },
  },
  async ({ params, body, ctx }) => replayable(await receiveOrder(ctx, params.orderId, body)),
);

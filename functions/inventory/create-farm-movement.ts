import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { recordFarmMovement } from '../../shared/services/movements/farm-movements.js';
import { createFarmMovementBody } from '../../schemas/compiled/inventory.js';

export const handler = httpHandler(
  {
    capability: 'create_movement',
    summary: 'Book a feed or medicine delivery on the farm’s stock, without a cycle',
    description:
      'The way to book deliveries: feed delivered before the chicks arrive, or to a farm between cycles, adds to the farm’s stock of that feed type (medicine: of that product and unit), ' +
      'which any later cycle’s `feed_consumption` draws from. The same fields as the cycle movement of that type (see GET /api/v1/inventory/input-schema/{movementType}), ' +
      'with `farmId` (may be left out when you are assigned to one farm) and an optional `houseId`, the house bin: a house of that farm (another id answers 404, as a missing house). ' +
      'Changes the stock only: no cycle counter, no daily rollup. Any past date is taken (the audit entry records a back-dated one as `backdated: {date, enteredOn}`); a date in the future is 400. ' +
      'The movement answers with `flockId` and `cycleId` null and is listed by GET /api/v1/inventory/movements and its CSV export. ' +
      'Send `Idempotency-Key` to make retries safe: the same key and body return the first response (header `Idempotent-Replayed: true`), another body 422.',
    body: createFarmMovementBody,
    headers: IDEMPOTENCY_KEY,
    responses: {
      201: { description: 'Booked', schema: 'MovementWrittenResponse' },
      404: { description: 'Unknown farm, a farm you are not assigned to, or a house, supplier or order not of that farm' },
      422: { description: 'Idempotency-Key reused with another body' },
    },
  },
  async ({ body, ctx }) => replayable(await recordFarmMovement(ctx, body)),
);

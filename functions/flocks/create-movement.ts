import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { recordMovement } from '../../shared/services/movements/record-movement.js';
import { cycleParams } from '../../schemas/compiled/cycles.js';
import { createMovementBody } from '../../schemas/compiled/movements.js';

export const handler = httpHandler(
  {
    capability: 'create_movement',
    summary: 'Record a movement (see GET /api/v1/inventory/input-schema for every type and its fields)',
    description:
      'Updates the cycle counters, the farm’s feed or egg stock and the daily rollup in the same transaction. A movement that would make birds alive, ' +
      'a feed stock or the egg stock negative is refused with 409 naming the balance. Transfers write both flocks’ sides at once. ' +
      'Eggs carry their origin: an egg_collection adds to the cycle’s lot of its laying day; an egg_sale or egg_loss takes eggs from the lots it names (`fromLots`) ' +
      'or the oldest laid on or before its date, and answers the lots it drew; a cycle that holds too few eggs (one that laid none holds none) answers 409 naming what it holds. ' +
      'Deliveries (feed_delivery, medicine_delivery) are booked on the farm’s stock with POST /api/v1/inventory/movements, which needs no cycle (feed delivered before the chicks arrive, or between cycles); ' +
      'a feed_delivery recorded here still counts, but one dated before the cycle’s start answers 400 pointing there. ' +
      'A bird_sale dated inside a meat withdrawal period of the cycle (a medication with withdrawalDays, counted from the end of its treatment), or an egg_sale of eggs LAID inside an egg withdrawal period (eggWithdrawalDays, else withdrawalDays), whenever sold, answers 409 naming the product, the last restricted day and the laying days, ' +
      'unless it carries `override: {reason}`: that needs manage_compliance (else 403) and is audited. ' +
      'Birds entering a house (bird_inflow, bird_transfer_in, and the receiving side of a bird_transfer_out) that would put it above the stocking density limit ' +
      '(broilers: the farm’s tier at the forecast, else breed-standard, weight up to the expected harvest; layers: 9 hens/m²) are recorded all the same, ' +
      'with a `warnings` entry naming the density, the limit and the date. ' +
      'Send `Idempotency-Key` to make retries safe: the same key and body return the first response (header `Idempotent-Replayed: true`), another body 422.',
    params: cycleParams,
    body: createMovementBody,
    headers: IDEMPOTENCY_KEY,
    responses: {
      201: {
        description: 'Recorded (with `warnings` when the birds would put their house above the stocking density limit)',
        schema: 'MovementWrittenResponse',
      },
      403: { description: 'An `override` without the manage_compliance capability' },
      409: { description: 'A balance would go negative, the cycle is closed, or a sale falls in a withdrawal period (names the product and its end)' },
      422: { description: 'Idempotency-Key reused with another body' },
    },
  },
  async ({ params, body, ctx }) => replayable(await recordMovement(ctx, params.flockId, params.cycleId, body)),
);

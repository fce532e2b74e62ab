import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { createSupplierFor } from '../../shared/services/procurement/suppliers.js';
import { createSupplierBody } from '../../schemas/compiled/procurement.js';

export const handler = httpHandler(
  {
    capability: 'manage_procurement',
    summary: 'Create a supplier (name, kinds, contact, the farms it serves)',
    description:
      'Requires manage_procurement. Every farm in `farmIds` must be one of yours. Send an Idempotency-Key to make retries safe: a retry gets the first answer with `Idempotent-Replayed: true`.',
    body: createSupplierBody,
    headers: IDEMPOTENCY_KEY,
    responses: {
      201: { description: 'Created', schema: 'SupplierResponse' },
      404: { description: 'A farm that does not exist or is not one of yours' },
    },
  },
  async ({ body, ctx }) => replayable(await createSupplierFor(ctx, body)),
);

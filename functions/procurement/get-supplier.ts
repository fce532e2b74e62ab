import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { supplierFor } from '../../shared/services/procurement/suppliers.js';
import { supplierParams } from '../../schemas/compiled/procurement.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'A supplier',
    description: 'Requires view_analytics. A supplier serving none of your farms answers 404. The ETag is the version to send as If-Match.',
    params: supplierParams,
    responses: {
      200: { headers: ['ETag'], description: 'The supplier', schema: 'SupplierResponse' },
      404: { description: 'No such supplier, or one serving none of your farms' },
    },
  },
  async ({ params, user }) => {
    const supplier = await supplierFor(user, params.supplierId);
    return ok(supplier, 'OK', { ETag: `"${supplier.version}"` });
  },
);

import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH } from '../../shared/http/request-headers.js';
import { noContent, ok } from '../../shared/http/responses.js';
import { deleteSupplierFor } from '../../shared/services/procurement/suppliers.js';
import { supplierParams } from '../../schemas/compiled/procurement.js';

export const handler = httpHandler(
  {
    capability: 'manage_procurement',
    summary: 'Delete a supplier; one with purchase orders is archived instead',
    description:
      'Requires manage_procurement. A supplier that never had an order is deleted (204). One with orders is archived (200, `archived: true`): kept for the history of its orders and its reliability, hidden from the list unless `includeArchived`, and it takes no new orders. You must see every farm it serves (else 409). `If-Match` makes it conditional (412).',
    params: supplierParams,
    headers: IF_MATCH,
    responses: {
      204: { description: 'Deleted (it had no orders)' },
      200: { headers: ['ETag'], description: 'Archived (it has orders)', schema: 'SupplierResponse' },
      404: { description: 'No such supplier, or one serving none of your farms' },
      409: { description: 'Changed concurrently, already archived, or it serves farms you cannot see' },
    },
  },
  async ({ params, ctx }) => {
    const result = await deleteSupplierFor(ctx, params.supplierId);
    return result.deleted ? noContent() : ok(result.supplier, 'Supplier archived: it has purchase orders', { ETag: `"${result.supplier.version}"` });
  },
);

import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH, IF_MATCH_RESPONSES } from '../../shared/http/request-headers.js';
import { ok } from '../../shared/http/responses.js';
import { updateSupplierFor } from '../../shared/services/procurement/suppliers.js';
import { supplierParams, updateSupplierBody } from '../../schemas/compiled/procurement.js';

export const handler = httpHandler(
  {
    capability: 'manage_procurement',
    summary: 'Change a supplier (name, kinds, contact, farms served)',
    description:
      'Requires manage_procurement. Send the version you read as `If-Match` (412) or `version` (409). `farmIds` replaces the farms of yours it serves; farms you cannot see stay as they are. An archived supplier does not change (409).',
    params: supplierParams,
    body: updateSupplierBody,
    headers: IF_MATCH,
    responses: {
      200: { headers: ['ETag'], description: 'The changed supplier', schema: 'SupplierResponse' },
      404: { description: 'No such supplier (or farm), or not one of yours' },
      ...IF_MATCH_RESPONSES,
    },
  },
  async ({ params, body, ctx }) => {
    const supplier = await updateSupplierFor(ctx, params.supplierId, body);
    return ok(supplier, 'Supplier updated', { ETag: `"${supplier.version}"` });
  },
);

import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { listEquipmentFor } from '../../shared/services/transfers/reads.js';
import { listEquipmentQuery } from '../../schemas/compiled/sharing.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'The register of shared equipment: what a farm holds now, or what it owns wherever it is',
    description:
      'Requires view_analytics. `farmId` may be left out when you are assigned to one farm. A piece enters the register when an equipment transfer naming it is completed (owned by the sending farm, held by the receiving one) and changes holder with every completed transfer. `side=held` (default) lists what the farm holds, `side=owned` what it owns, by name; `lentOut` marks a piece held by another farm than its owner.',
    query: listEquipmentQuery,
    responses: { 200: { description: 'A page of equipment', schema: 'EquipmentListResponse' }, 404: { description: 'No such farm, or not one of yours' } },
  },
  async ({ query, user }) => {
    const { items, limit, nextCursor } = await listEquipmentFor(user, query);
    return list(items, { limit, nextCursor });
  },
);

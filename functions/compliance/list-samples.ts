import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { listSamplesFor } from '../../shared/services/compliance/compliance.js';
import { listSamplesQuery } from '../../schemas/compiled/compliance.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'List a farm’s Salmonella samples (or one flock’s), by flock and date',
    description:
      'Requires view_analytics. `farmId` may be left out when you are assigned to one farm. The due dates are in the cycle’s compliance report. ' +
      'A page of at most `limit` samples; send `page.nextCursor` back as `cursor` for the next page.',
    query: listSamplesQuery,
    responses: { 200: { description: 'The samples', schema: 'SampleListResponse' }, 404: { description: 'No such farm, or not one of yours' } },
  },
  async ({ query, user }) => {
    const { items, limit, nextCursor } = await listSamplesFor(user, query);
    return list(items, { limit, nextCursor });
  },
);

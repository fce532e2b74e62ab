import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { listWithdrawalsFor } from '../../shared/services/compliance/compliance.js';
import { listWithdrawalsQuery } from '../../schemas/compiled/compliance.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'List a farm’s withdrawal windows (medications with a withdrawal period), by the day they end',
    description:
      'Requires view_analytics. A medication movement with `withdrawalDays` > 0 opens a window on its cycle from its first treatment day to `endsOn`: ' +
      'the last treatment day (`date` + `treatmentDays` − 1) plus `withdrawalDays`. Birds and eggs of that cycle may be sold from the day after `endsOn`. ' +
      '`active=true` lists only the windows still running today. `farmId` may be left out when you are assigned to one farm. ' +
      'A page of at most `limit` windows (with `flockId`, a page may hold fewer while `page.nextCursor` is set); send `page.nextCursor` back as `cursor` for the next page.',
    query: listWithdrawalsQuery,
    responses: { 200: { description: 'The windows', schema: 'WithdrawalListResponse' }, 404: { description: 'No such farm, or not one of yours' } },
  },
  async ({ query, user }) => {
    const { items, limit, nextCursor } = await listWithdrawalsFor(user, query);
    return list(items, { limit, nextCursor });
  },
);

import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { listSchedulesFor } from '../../shared/services/schedules/schedules.js';
import { listSchedulesQuery } from '../../schemas/compiled/schedules.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'List a farm’s schedules, oldest first (filters: kind, houseId, flockId, cycleId, assignee)',
    description:
      'Requires view_analytics. `farmId` may be left out when you are assigned to one farm. A filtered page may hold fewer than `limit` schedules while `page.nextCursor` is set.',
    query: listSchedulesQuery,
    responses: { 200: { description: 'A page of schedules', schema: 'ScheduleListResponse' }, 404: { description: 'No such farm, or not one of yours' } },
  },
  async ({ query, user }) => {
    const { items, limit, nextCursor } = await listSchedulesFor(user, query);
    return list(items, { limit, nextCursor });
  },
);

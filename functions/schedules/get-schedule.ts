import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { scheduleDtoFor } from '../../shared/services/schedules/schedules.js';
import { scheduleParams } from '../../schemas/compiled/schedules.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'A schedule',
    description: 'Requires view_analytics. The ETag is the version to send as If-Match when changing or deleting it.',
    params: scheduleParams,
    responses: {
      200: { headers: ['ETag'], description: 'The schedule', schema: 'ScheduleResponse' },
      404: { description: 'No such schedule, or one of a farm you cannot see' },
    },
  },
  async ({ params, user }) => {
    const schedule = await scheduleDtoFor(user, params.scheduleId);
    return ok(schedule, 'OK', { ETag: `"${schedule.version}"` });
  },
);

import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH, IF_MATCH_RESPONSES } from '../../shared/http/request-headers.js';
import { ok } from '../../shared/http/responses.js';
import { updateScheduleFor } from '../../shared/services/schedules/schedules.js';
import { scheduleParams, updateScheduleBody } from '../../schemas/compiled/schedules.js';

export const handler = httpHandler(
  {
    capability: 'manage_schedules',
    summary: 'Change a schedule (title, details, timing, house, flock, cycle, assignee)',
    description:
      'Requires manage_schedules. Send the version you read as `If-Match` (412) or `version` (409). Stored completions and skips stay with their dates; ' +
      'a changed timing changes only the occurrences computed from now on, and its `from` is at most 3 years (1,096 days) before today. Schedules applied ' +
      'from a programme are edited like any other.',
    params: scheduleParams,
    body: updateScheduleBody,
    headers: IF_MATCH,
    responses: {
      200: { headers: ['ETag'], description: 'The changed schedule', schema: 'ScheduleResponse' },
      404: { description: 'No such schedule, or one of a farm you cannot see' },
      ...IF_MATCH_RESPONSES,
    },
  },
  async ({ params, body, ctx }) => {
    const schedule = await updateScheduleFor(ctx, params.scheduleId, body);
    return ok(schedule, 'Schedule updated', { ETag: `"${schedule.version}"` });
  },
);

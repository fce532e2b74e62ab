import { httpHandler } from '../../shared/http/handler.js';
import { IF_MATCH } from '../../shared/http/request-headers.js';
import { noContent } from '../../shared/http/responses.js';
import { deleteScheduleFor } from '../../shared/services/schedules/schedules.js';
import { scheduleParams } from '../../schemas/compiled/schedules.js';

export const handler = httpHandler(
  {
    capability: 'manage_schedules',
    summary: 'Delete a schedule (its completions, skips and the movements they wrote stay)',
    description: 'Requires manage_schedules. Send the ETag you read as If-Match to be sure you delete what you saw.',
    params: scheduleParams,
    headers: IF_MATCH,
    responses: {
      204: { description: 'Deleted' },
      404: { description: 'No such schedule, or one of a farm you cannot see' },
      409: { description: 'Changed concurrently' },
    },
  },
  async ({ params, ctx }) => {
    await deleteScheduleFor(ctx, params.scheduleId);
    return noContent();
  },
);

import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { skipOccurrence } from '../../shared/services/schedules/occurrences.js';
import { occurrenceParams, skipOccurrenceBody } from '../../schemas/compiled/schedules.js';
import { OCCURRENCE_RESPONSES } from './occurrence-responses.js';

export const handler = httpHandler(
  {
    capability: 'complete_tasks',
    summary: 'Skip an occurrence of a schedule, with the reason',
    description:
      'Requires complete_tasks. `date` must be an occurrence of the schedule (400 naming it). An occurrence is completed or skipped once (409 naming the date). ' +
      'Send an Idempotency-Key to make retries safe.',
    params: occurrenceParams,
    body: skipOccurrenceBody,
    headers: IDEMPOTENCY_KEY,
    responses: OCCURRENCE_RESPONSES,
  },
  async ({ params, body, ctx }) => replayable(await skipOccurrence(ctx, params.scheduleId, params.date, body)),
);

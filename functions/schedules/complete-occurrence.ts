import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { completeOccurrence } from '../../shared/services/schedules/occurrences.js';
import { completeOccurrenceBody, occurrenceParams } from '../../schemas/compiled/schedules.js';
import { OCCURRENCE_RESPONSES } from './occurrence-responses.js';

/** Completing an occurrence: field work, so `complete_tasks` (workers, managers, veterinarians). */
export const handler = httpHandler(
  {
    capability: 'complete_tasks',
    summary: 'Complete an occurrence of a schedule (a vaccination or medication writes its movement in the same transaction)',
    description:
      'Requires complete_tasks. `date` must be an occurrence of the schedule (400 naming it) and not after the farm’s today. Completing a vaccination ' +
      'writes the `vaccination` movement, a medication the `medication` movement, into the schedule’s cycle, atomically with the completion: a refused ' +
      'movement (closed cycle) leaves no completion. A weighing occurrence links its weighing (`data.weighingId`, a weighing of that date in the cycle). ' +
      '`doneOn` names the farm-local day the task was done when it is recorded later (not after the farm’s today, not before the cycle’s start: 400): ' +
      'adherence is judged on it, the movement is dated on it (else on the occurrence’s date), and the audit marks it back-filled. ' +
      'An occurrence is completed or skipped once: a second attempt (another phone) answers 409 naming the date. Send an Idempotency-Key to make retries safe.',
    params: occurrenceParams,
    body: completeOccurrenceBody,
    headers: IDEMPOTENCY_KEY,
    responses: OCCURRENCE_RESPONSES,
  },
  async ({ params, body, ctx }) => replayable(await completeOccurrence(ctx, params.scheduleId, params.date, body)),
);

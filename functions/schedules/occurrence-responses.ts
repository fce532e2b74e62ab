import type { RouteSpec } from '../../shared/http/context.js';

/** The answers of completing and skipping an occurrence. */
export const OCCURRENCE_RESPONSES = {
  201: { description: 'Recorded', schema: 'CompletedOccurrenceResponse' },
  404: { description: 'No such schedule, or one of a farm you cannot see' },
  409: { description: 'The occurrence of that date is already completed or skipped (the message names the date), or the movement was refused (closed cycle)' },
} satisfies RouteSpec['responses'];

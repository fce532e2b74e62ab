import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { createScheduleFor } from '../../shared/services/schedules/schedules.js';
import { createScheduleBody } from '../../schemas/compiled/schedules.js';

export const handler = httpHandler(
  {
    capability: 'manage_schedules',
    summary: 'Create a schedule (once, every n days or weeks, an RRULE, or by age of a cycle)',
    description:
      'Requires manage_schedules. `details` depend on `kind` (vaccination: vaccine, method, dose; feeding: feedType, amountKg; medication: product, dose). ' +
      'Vaccination and medication schedules need `flockId` and `cycleId` (completing one writes its movement into the cycle); an `ageDays` timing counts from ' +
      'the birds’ hatch date, else the cycle’s first placement. Dates are the farm’s local calendar dates; a timing’s `from` is at most 3 years (1,096 days) before today and a COUNT ' +
      'rule ends within 10 years (else 400 naming the field). A farm keeps at most 500 schedules. Send an Idempotency-Key to make retries safe.',
    body: createScheduleBody,
    headers: IDEMPOTENCY_KEY,
    responses: {
      201: { description: 'Created', schema: 'ScheduleResponse' },
      404: { description: 'No such farm, or not one of yours' },
      409: { description: 'The farm keeps 500 schedules already (the cap)' },
    },
  },
  async ({ body, ctx }) => replayable(await createScheduleFor(ctx, body)),
);

import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { applyProgramme } from '../../shared/services/schedules/programmes.js';
import { applyProgrammeBody, programmeParams } from '../../schemas/compiled/schedules.js';

export const handler = httpHandler(
  {
    capability: 'manage_schedules',
    summary: 'Apply a programme to a cycle: one ordinary schedule per step, by age from the cycle’s placement',
    description:
      'Requires manage_schedules. The cycle must be active and of the programme’s bird type. `flockId` names the cycle’s flock (a cycle lives under its ' +
      'flock). The schedules are the farm’s own from then on: edit or delete them like any other. Send an Idempotency-Key to make retries safe.',
    params: programmeParams,
    body: applyProgrammeBody,
    headers: IDEMPOTENCY_KEY,
    responses: {
      201: { description: 'The schedules written', schema: 'AppliedProgrammeResponse' },
      404: { description: 'No such programme, or no such cycle of yours' },
      409: { description: 'The cycle is closed, or the farm has no room for the programme’s schedules (500 a farm)' },
    },
  },
  async ({ params, body, ctx }) => replayable(await applyProgramme(ctx, params.programmeId, body)),
);

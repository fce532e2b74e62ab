import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { openIncident } from '../../shared/services/incidents.js';
import { createIncidentBody } from '../../schemas/compiled/operations.js';

export const handler = httpHandler(
  {
    capability: 'manage_incidents',
    summary: 'Open an incident (or join the open one with the same dedup key)',
    description:
      'Requires manage_incidents. Status starts `triggered`. With a `dedupKey` held by an open incident of the farm, nothing new is opened: that incident ' +
      'counts one more occurrence and its timeline a `repeated` event (200). A `disease_suspicion` incident restricts the farm’s movements until it is closed. ' +
      'Send an Idempotency-Key to make retries safe: a retry gets the first answer with `Idempotent-Replayed: true`.',
    body: createIncidentBody,
    headers: IDEMPOTENCY_KEY,
    responses: {
      201: { description: 'Opened, with its timeline', schema: 'IncidentResponse' },
      200: { description: 'Joined the open incident with this dedup key', schema: 'IncidentResponse' },
      404: { description: 'No such farm, or not one of yours' },
    },
  },
  async ({ body, ctx }) => replayable(await openIncident(ctx, body)),
);

import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { addIncidentNote, incidentRouteCapability } from '../../shared/services/incidents.js';
import { ASSIGNEE_MAY_TEXT, NOT_ASSIGNEE } from './incident-action.js';
import { incidentNoteBody, incidentParams } from '../../schemas/compiled/operations.js';

export const handler = httpHandler(
  {
    capability: incidentRouteCapability('note'),
    summary: 'Add a note to an incident’s timeline (also once it is closed)',
    description: `${ASSIGNEE_MAY_TEXT} The timeline is append-only; a note does not change the incident’s version.`,
    params: incidentParams,
    body: incidentNoteBody,
    responses: {
      200: { description: 'The incident with its timeline', schema: 'IncidentResponse' },
      403: { description: NOT_ASSIGNEE },
      404: { description: 'No such incident, or not yours' },
    },
  },
  async ({ params, body, ctx }) => ok(await addIncidentNote(ctx, params.incidentId, body.text), 'Note added'),
);

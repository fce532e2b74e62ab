import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { agendaFor } from '../../shared/services/schedules/agenda.js';
import { agendaQuery } from '../../schemas/compiled/schedules.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'A farm’s agenda: the occurrences between two dates (due, done, skipped, overdue) and the overdue ones before',
    description:
      'Requires view_analytics. Dates are the farm’s local calendar dates: "today" and "overdue" follow the farm’s IANA time zone. `from` defaults to the ' +
      'farm’s today, `to` to `from` (at most 92 days). `overdue` lists the earlier occurrences (up to 92 days before `from`) neither done nor skipped.',
    query: agendaQuery,
    responses: { 200: { description: 'The agenda', schema: 'AgendaResponse' }, 404: { description: 'No such farm, or not one of yours' } },
  },
  async ({ query, user }) => ok(await agendaFor(user, query)),
);

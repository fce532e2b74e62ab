import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { continuityStatusFor } from '../../shared/services/continuity/readiness.js';

export const handler = httpHandler(
  {
    capability: 'view_analytics',
    summary: 'Backups: point-in-time recovery of the table, the recovery objectives (RPO, RTO) and the last export of each of your farms',
    description:
      'Requires view_analytics. In AWS `pointInTimeRecovery` comes from DescribeContinuousBackups; locally it says it is not available. ' +
      'The RPO and RTO are what docs/runbook-restore.md achieves. Admins see their first 100 farms by name.',
    responses: { 200: { description: 'The continuity status', schema: 'StatusResponse' } },
  },
  async ({ user }) => ok(await continuityStatusFor(user)),
);

import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { listAuditFor } from '../../shared/services/accounts/audit.js';
import { listAuditQuery } from '../../schemas/compiled/admin.js';

export const handler = httpHandler(
  {
    capability: 'manage_users',
    summary: 'The audit log, newest first: who changed what, when (optionally about one record)',
    description: 'Requires manage_users. A page of at most `limit` audit entries, newest first; send `page.nextCursor` back as `cursor` for the next page.',
    query: listAuditQuery,
    responses: { 200: { description: 'A page of audit entries', schema: 'AuditListResponse' } },
  },
  async ({ query }) => {
    const { items, nextCursor, limit } = await listAuditFor(query);
    return list(items, { limit, nextCursor });
  },
);

import { httpHandler } from '../../shared/http/handler.js';
import { list } from '../../shared/http/responses.js';
import { listAudit, toAuditDto } from '../../shared/db/audit.js';
import { listAuditQuery } from '../../schemas/compiled/admin.js';
import { AuditListResponse } from '../../schemas/admin.js';

export const handler = httpHandler(
  {
    capability: 'manage_users',
    summary: 'The audit log, newest first: who changed what, when (optionally about one record)',
    query: listAuditQuery,
    responses: { 200: { description: 'A page of audit entries', schema: AuditListResponse } },
  },
  async ({ query }) => {
    const limit = query.limit ?? 25;
    const { items, nextCursor } = await listAudit({ limit, cursor: query.cursor, targetId: query.targetId });
    return list(items.map(toAuditDto), { limit, nextCursor });
  },
);

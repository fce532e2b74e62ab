import { listAudit, toAuditDto } from '../../db/audit.js';

/** The audit log, newest first: who changed what, when (optionally of one record). */
export async function listAuditFor(query: { limit?: number; cursor?: string; targetId?: string }) {
  const limit = query.limit ?? 25;
  const { items, nextCursor } = await listAudit({ limit, cursor: query.cursor, targetId: query.targetId });
  return { items: items.map(toAuditDto), nextCursor, limit };
}

import { ulid } from 'ulidx';
import { tableName, type TransactItem } from './client.js';
import { auditKey, gsi1 } from './keys.js';
import { queryPage } from './pagination.js';

/**
 * The audit log: who changed what, when. Entries are written inside the same transaction as the change
 * they describe (auditPut), so the log never claims a change that did not happen or misses one that did.
 */
export interface AuditEntry {
  id: string;
  at: string;
  actorId: string | null;
  action: string;
  targetType: string;
  targetId: string;
  changes: Record<string, unknown>;
  requestId: string | null;
}

export type AuditInput = Omit<AuditEntry, 'id' | 'at'>;

function auditItem(input: AuditInput, at: Date) {
  const id = ulid();
  return { ...auditKey(id), ...gsi1.auditOf(input.targetId), GSI1SK: id, type: 'AuditEntry', id, at: at.toISOString(), ...input };
}

/** An audit entry as one element of a TransactWriteItems. */
export function auditPut(input: AuditInput, at = new Date()): TransactItem {
  return { Put: { TableName: tableName(), Item: auditItem(input, at) } };
}

export async function listAudit(opts: { limit: number; cursor?: string; targetId?: string }) {
  const byTarget = opts.targetId !== undefined;
  const partition = byTarget ? gsi1.auditOf(opts.targetId!) : { PK: 'AUDIT' };
  const page = await queryPage(
    {
      ...(byTarget ? { IndexName: 'GSI1' } : {}),
      KeyConditionExpression: byTarget ? 'GSI1PK = :pk' : 'PK = :pk',
      ExpressionAttributeValues: { ':pk': Object.values(partition)[0] },
      ScanIndexForward: false,
    },
    opts,
  );
  return { items: page.items as AuditEntry[], nextCursor: page.nextCursor };
}

export function toAuditDto(e: AuditEntry) {
  return {
    id: e.id,
    at: e.at,
    actorId: e.actorId,
    action: e.action,
    targetType: e.targetType,
    targetId: e.targetId,
    changes: e.changes,
    requestId: e.requestId,
  };
}

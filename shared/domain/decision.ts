import { diff } from './changes.js';

/**
 * What a write use case decides, in the domain's words (read, decide, commit: docs/architecture.md).
 * A `decide…` function takes what the use case read and the command's plain values, and returns the
 * records to create, change or delete with the fields that changed, the audit events, the resources
 * changed (the change log's entries) and the warnings for the answer. It does no I/O; the repository's
 * write builders turn its records into keyed, conditioned writes and `commit` writes them once.
 */

/** One audited event of the command: actor, request id and time come from the command context. */
export interface AuditEvent {
  /**
   * Only for an actor the command's caller does not name: nobody (`null`: an anonymous sign-in attempt) or
   * the user a worker acts for (a restore opens its farm in the name of whoever asked for it).
   */
  actorId?: string | null;
  action: string;
  targetType: string;
  targetId: string;
  changes: Record<string, unknown>;
}

/**
 * A resource the command created, changed or deleted: what the change log records per commit, in the feed
 * of each farm it belongs to (a transfer belongs to both farms; a resource of no farm, such as a user, to
 * none: `farmIds: []`).
 */
export interface ResourceChange {
  type: string;
  id: string;
  op: 'upsert' | 'delete';
  version?: number;
  farmIds: readonly string[];
}

/** A record of one farm, created or changed at `version`: its change, in that farm's feed. */
export const upsertOf = (type: string, r: { id: string; version: number; farmId: string }): ResourceChange => ({
  type,
  id: r.id,
  op: 'upsert',
  version: r.version,
  farmIds: [r.farmId],
});

/** A record of one farm, deleted: its change (a tombstone), in that farm's feed. */
export const deleteOf = (type: string, r: { id: string; farmId: string }): ResourceChange => ({ type, id: r.id, op: 'delete', farmIds: [r.farmId] });

/** A change of one record decided from the version it was read at: the fields to set and their audit diff. */
export interface RecordChange<T> {
  /** The record as it was read. */
  current: T;
  /** The record after the change (version and updatedAt as the commit writes them). */
  next: T;
  /** The fields to write, with their new values. */
  fields: Partial<T>;
  /** `{field: {from, to}}` for the audit. */
  changes: Record<string, { from: unknown; to: unknown }>;
}

/** An update's outcome: nothing to write when no field differs. */
export const unchanged = <T>(c: Pick<RecordChange<T>, 'changes'>): boolean => Object.keys(c.changes).length === 0;

/**
 * The change from `current` to `edited` in the `editable` fields: the fields that differ and their audit
 * diff, and the record as the commit leaves it (its version bumped, updatedAt = `now`).
 */
export function recordChange<T extends { version: number; updatedAt: string }>(
  current: T,
  edited: T,
  editable: readonly (keyof T)[],
  now: Date,
): RecordChange<T> {
  const changes = diff(current, edited, editable);
  const fields = Object.fromEntries(Object.keys(changes).map((f) => [f, edited[f as keyof T]])) as Partial<T>;
  return { current, next: { ...edited, updatedAt: now.toISOString(), version: current.version + 1 }, fields, changes };
}

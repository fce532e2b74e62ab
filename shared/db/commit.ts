import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CommandContext } from '../domain/command.js';
import type { AuditEvent, ResourceChange } from '../domain/decision.js';
import { Conflict, PreconditionFailed, type AppError } from '../errors.js';
import { auditPut } from './audit.js';
import { db, tableName, transact, type TransactItem } from './client.js';
import { all, atVersion, compileCondition, isNew, isTrivial, type Condition } from './conditions.js';
import { storedResponsePut, type StoredResponse } from './idempotency.js';
import type { Key } from './keys.js';

/**
 * The one commit of every write use case (read, decide, commit: docs/architecture.md). A use case reads
 * what its decision needs, decides in the domain, and hands the outcome here as a Plan:
 * - the writes, each with the condition it needs (`when`) and, for a change, the version it read
 *   (`version`): the commit adds `attribute_not_exists` to creates marked `isNew`, the version
 *   condition and bump to changes, and compares the version with the caller's precondition (If-Match)
 *   or stated version first — nowhere else is a version compared;
 * - the audit entries (actor and request id come from the command context);
 * - the idempotent response to keep with the write (when the command carries an Idempotency-Key);
 * - the resources it changed: the seam where the change log attaches (`changeLogWrites`).
 * All of it commits in one TransactWriteItems (one plain write when there is nothing else), and a
 * failed condition becomes the error its write names (`failed`): which balance, which version.
 */

/** The version of the record a change was decided on, and the name used in its conflict message. */
export interface Versioned {
  read: number;
  what: string;
  /** The version the client stated with the change (a body's `version`): another one is a Conflict. */
  stated?: number | undefined;
  /** The command's precondition (If-Match) is about this record: another version is PreconditionFailed. */
  subject?: boolean;
}

interface WriteBase {
  /** What must hold for the write (besides the version): a create's `isNew()`, a balance's `atLeast`. */
  when?: Condition | undefined;
  /** A change to a record read at this version: conditioned on it and bumping it by one. */
  version?: Versioned | undefined;
  /** The error when `when` or the version fails (default: a Conflict naming the record or the race). */
  failed?: () => AppError;
}
export type Write =
  | (WriteBase & { put: Record<string, unknown> })
  | (WriteBase & {
      update: Key;
      set?: Record<string, unknown>;
      /** Attributes set only if absent (`if_not_exists`): descriptors of a counter item that may not exist yet. */
      init?: Record<string, unknown>;
      add?: Record<string, number>;
      /** Values appended to list attributes (created empty when absent). */
      append?: Record<string, unknown[]>;
      /** Strings added to string-set attributes (created when absent). */
      addToSet?: Record<string, readonly string[]>;
      /** Strings taken out of string-set attributes (DynamoDB drops a set left empty). */
      deleteFromSet?: Record<string, readonly string[]>;
      remove?: string[];
    })
  | (WriteBase & { delete: Key })
  | (WriteBase & { check: Key; when: Condition });

export interface Plan {
  writes: Write[];
  audit?: AuditEvent[];
  changes?: ResourceChange[];
  /** The answer to keep for a retry with the same Idempotency-Key (see `idempotent`). */
  response?: StoredResponse;
}

/** Where the idempotent response of this command is kept: set by `idempotent` on the context it passes on. */
export interface Remembering {
  remember?: { userId: string; key: string; requestHash: string };
}

export type CommitContext = CommandContext & Remembering;

/** DynamoDB's limit on the items of one TransactWriteItems. */
export const MAX_TRANSACTION_ITEMS = 100;

/** The version a change is written at, after comparing it with what the caller stated or preconditioned. */
export function checkVersion(ctx: Pick<CommandContext, 'precondition'>, v: Versioned): number {
  const { precondition } = ctx;
  if (v.subject && precondition && precondition.version !== v.read)
    throw new PreconditionFailed(`${precondition.source} does not match the current version ${v.read} of ${v.what}`);
  if (v.stated !== undefined && v.stated !== v.read) throw new Conflict(`${v.what} is at version ${v.read}, not ${v.stated}; read it again and retry`);
  return v.read;
}

/**
 * The change-log entries of a commit, written in its transaction. The change feed and webhooks attach
 * here: today the service keeps no change log, so a commit adds nothing.
 */
export function changeLogWrites(_ctx: CommandContext, _changes: readonly ResourceChange[]): Write[] {
  return [];
}

/** Commits the plan at once, all or nothing; the first failed write's `failed()` (or the named default) is thrown. */
export async function commit(ctx: CommitContext, plan: Plan): Promise<void> {
  for (const w of plan.writes) if (w.version) checkVersion(ctx, w.version);
  const writes = [...plan.writes, ...changeLogWrites(ctx, plan.changes ?? [])];
  const extra: TransactItem[] = [
    ...(plan.audit ?? []).map((a) => auditPut({ ...a, actorId: a.actorId === undefined ? ctx.caller.id : a.actorId, requestId: ctx.requestId }, ctx.now)),
    ...(ctx.remember && plan.response ? [storedResponsePut(ctx.remember.userId, ctx.remember.key, ctx.remember.requestHash, plan.response)] : []),
  ];
  const now = ctx.now.toISOString();
  const items = writes.map((w) => transactItemOf(w, now));
  if (items.length + extra.length > MAX_TRANSACTION_ITEMS) throw new Conflict(`This write touches more than ${MAX_TRANSACTION_ITEMS} records; split it`);
  // one item in all (a write, or an audit entry alone such as a sign-in's throttle event), not a check: a plain write
  const all = [...extra, ...items];
  if (all.length === 1 && !all[0]!.ConditionCheck) return single(all[0]!, () => (items.length ? failure(writes[0]!) : concurrentChange()));
  // The kept response goes first: a retry that also meets a spent balance must be told it is a retry
  // (transact reports a failed stored response before any other failure).
  await transact(all, (i) => (i >= extra.length ? failure(writes[i - extra.length]!) : concurrentChange()));
}

const concurrentChange = () => new Conflict('The request conflicts with a concurrent change; retry');

function failure(w: Write): AppError {
  if (w.failed) return w.failed();
  if (w.version) return new Conflict(`${w.version.what} was changed by another request (expected version ${w.version.read}); read it again and retry`);
  if ('put' in w && w.when && JSON.stringify(w.when) === JSON.stringify(isNew())) return new Conflict('A record with this id already exists');
  return concurrentChange();
}

/** One item alone: a plain conditional PutItem/UpdateItem/DeleteItem (half the write units of a transaction). */
async function single(item: TransactItem, failed: () => AppError): Promise<void> {
  try {
    if (item.Put) await db().send(new PutCommand(item.Put));
    else if (item.Update) await db().send(new UpdateCommand(item.Update as ConstructorParameters<typeof UpdateCommand>[0]));
    else if (item.Delete) await db().send(new DeleteCommand(item.Delete));
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) throw failed();
    throw err;
  }
}

function conditionOf(w: Write): Condition | undefined {
  const condition = w.version ? all(atVersion(w.version.read), w.when) : w.when;
  return isTrivial(condition) ? undefined : condition;
}

/** A write as one element of a TransactWriteItems. */
export function transactItemOf(w: Write, now: string): TransactItem {
  const TableName = tableName();
  const condition = conditionOf(w);
  const compiled = condition ? compileCondition(condition) : undefined;
  const expression = compiled
    ? {
        ConditionExpression: compiled.ConditionExpression,
        ExpressionAttributeNames: compiled.ExpressionAttributeNames,
        ...(compiled.ExpressionAttributeValues ? { ExpressionAttributeValues: compiled.ExpressionAttributeValues } : {}),
      }
    : {};
  if ('put' in w) {
    const Item = w.version ? { ...w.put, version: w.version.read + 1, updatedAt: now } : w.put;
    return { Put: { TableName, Item, ...expression } };
  }
  if ('delete' in w) return { Delete: { TableName, Key: w.delete, ...expression } };
  if ('check' in w) {
    const c = compiled ?? compileCondition(w.when);
    return { ConditionCheck: { TableName, Key: w.check, ...c } };
  }
  const update = updateExpression(w, now);
  return {
    Update: {
      TableName,
      Key: w.update,
      UpdateExpression: update.expression,
      ...(compiled ? { ConditionExpression: compiled.ConditionExpression } : {}),
      ExpressionAttributeNames: { ...update.names, ...compiled?.ExpressionAttributeNames },
      ...(Object.keys(update.values).length || compiled?.ExpressionAttributeValues
        ? { ExpressionAttributeValues: { ...update.values, ...compiled?.ExpressionAttributeValues } }
        : {}),
    },
  };
}

function updateExpression(w: Extract<Write, { update: Key }>, now: string) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  let n = 0;
  const slot = (field: string, value: unknown) => {
    const i = n++;
    names[`#u${i}`] = field;
    values[`:u${i}`] = value;
    return i;
  };
  const sets: string[] = [];
  const adds: string[] = [];
  const removes: string[] = [];
  for (const [field, value] of Object.entries(w.set ?? {})) {
    const i = slot(field, value);
    sets.push(`#u${i} = :u${i}`);
  }
  for (const [field, value] of Object.entries(w.init ?? {})) {
    const i = slot(field, value);
    sets.push(`#u${i} = if_not_exists(#u${i}, :u${i})`);
  }
  for (const [field, list] of Object.entries(w.append ?? {})) {
    const i = slot(field, list);
    values[':empty'] = [];
    sets.push(`#u${i} = list_append(if_not_exists(#u${i}, :empty), :u${i})`);
  }
  for (const [field, amount] of Object.entries(w.add ?? {})) {
    const i = slot(field, amount);
    adds.push(`#u${i} :u${i}`);
  }
  for (const [field, members] of Object.entries(w.addToSet ?? {})) {
    const i = slot(field, new Set(members));
    adds.push(`#u${i} :u${i}`);
  }
  const deletes: string[] = [];
  for (const [field, members] of Object.entries(w.deleteFromSet ?? {})) {
    const i = slot(field, new Set(members));
    deletes.push(`#u${i} :u${i}`);
  }
  for (const field of w.remove ?? []) {
    const i = n++;
    names[`#u${i}`] = field;
    removes.push(`#u${i}`);
  }
  if (w.version) {
    names['#uv'] = 'version';
    names['#ut'] = 'updatedAt';
    values[':uv'] = w.version.read + 1;
    values[':ut'] = now;
    sets.push('#uv = :uv', '#ut = :ut');
  }
  const parts = [
    sets.length ? `SET ${sets.join(', ')}` : '',
    adds.length ? `ADD ${adds.join(', ')}` : '',
    deletes.length ? `DELETE ${deletes.join(', ')}` : '',
    removes.length ? `REMOVE ${removes.join(', ')}` : '',
  ].filter(Boolean);
  return { expression: parts.join(' '), names, values };
}

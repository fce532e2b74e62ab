import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DynamoDBDocumentClient,
  QueryCommand,
  TransactWriteCommand,
  type QueryCommandInput,
  type QueryCommandOutput,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { settings } from '../config/env.js';
import type { Key } from './keys.js';
import { Conflict, DuplicateRequest, type AppError } from '../errors.js';
import { pause, retry, type Backoff, type RetryPolicy } from '../platform/retry.js';

/** The only DynamoDB client of the service. Local endpoints (DynamoDB Local) get fixed fake credentials. */
let documentClient: DynamoDBDocumentClient | undefined;

/** Data calls made by this process, per command: tests and benchmarks count work instead of timing it. */
export const dbCalls: Record<string, number> = {};
export function resetDbCalls(): void {
  for (const k of Object.keys(dbCalls)) delete dbCalls[k];
}
export function totalDbCalls(): number {
  return Object.values(dbCalls).reduce((a, b) => a + b, 0);
}

export function db(): DynamoDBDocumentClient {
  if (documentClient) return documentClient;
  const { dynamodbEndpoint, region } = settings();
  const client = new DynamoDBClient({
    region,
    maxAttempts: 3,
    ...(dynamodbEndpoint ? { endpoint: dynamodbEndpoint, credentials: { accessKeyId: 'fakeKeyId', secretAccessKey: 'fakeSecretKey' } } : {}),
  });
  client.middlewareStack.add(
    (next, context) => (args) => {
      const name = String(context.commandName ?? 'unknown').replace(/Command$/, '');
      dbCalls[name] = (dbCalls[name] ?? 0) + 1;
      return next(args);
    },
    { step: 'initialize', name: 'countDynamoCalls' },
  );
  documentClient = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  return documentClient;
}

export function tableName(): string {
  return settings().tableName;
}

/** Tests point the service at another table or endpoint between suites. */
export function resetDb(): void {
  documentClient = undefined;
}

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
export type { TransactItem };

/**
 * A transaction cancelled by concurrent ones: 11 tries in all, pauses up to 30 ms, 60 ms, … 1.92 s, then
 * 1.92 s (at most ~9.6 s in all, inside API Gateway's 29 s). Forty writers on one balance at once on a
 * loaded machine needed more than the 8 tries this had: the ones left over answered 409 while the balance
 * still held what they asked for.
 */
const TRANSACT_RETRY: RetryPolicy = { attempts: 11, baseMs: 15, capMs: 1920 };
/** Items or keys a batch call left unprocessed (throttling), sent again after up to 40 ms, 80 ms, … 2.56 s. */
export const BATCH_BACKOFF: Backoff = { baseMs: 20, capMs: 2560 };

/** Cancelled only by concurrent transactions (TransactionConflict), no condition failed: another try may pass. */
function lostRace(err: unknown): boolean {
  if (!(err instanceof TransactionCanceledException)) return false;
  const codes = (err.CancellationReasons ?? []).map((r) => r.Code);
  return codes.includes('TransactionConflict') && !codes.includes('ConditionalCheckFailed');
}

/**
 * Runs a TransactWriteItems (all or nothing). When a condition fails, `onConditionFailed(index)` names
 * the typed error for the item that failed (e.g. the e-mail uniqueness item → Conflict).
 */
export async function transact(items: TransactItem[], onConditionFailed: (index: number) => AppError): Promise<void> {
  // Concurrent transactions on the same item cancel each other (TransactionConflict) before any condition
  // is judged: retry those with jittered backoff, so only real condition failures reach the caller.
  try {
    await retry(() => db().send(new TransactWriteCommand({ TransactItems: items })), {
      ...TRANSACT_RETRY,
      retryOn: lostRace,
      exhausted: () => new Conflict('The record was changed by concurrent requests; retry'),
    });
  } catch (err) {
    if (!(err instanceof TransactionCanceledException)) throw err;
    const failing = (err.CancellationReasons ?? []).flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [i] : []));
    // A stored idempotent response that already exists outranks every other failure: the request was
    // a retry, and the caller replays the first answer (shared/services/idempotency.ts).
    if (failing.some((i) => isStoredResponse(items[i]))) throw new DuplicateRequest();
    if (failing.length > 0) throw onConditionFailed(failing[0]!);
    throw err;
  }
}

/**
 * transact for a write that may rightly not happen: when the condition of `items[guard]` fails (an e-mail
 * already claimed, a notice already sent), false and nothing written; any other failure as in transact.
 */
export async function transactUnless(items: TransactItem[], guard: number, onConditionFailed: (index: number) => AppError): Promise<boolean> {
  const guarded = new Conflict(`condition of item ${guard} failed`);
  try {
    await transact(items, (i) => (i === guard ? guarded : onConditionFailed(i)));
    return true;
  } catch (err) {
    if (err === guarded) return false;
    throw err;
  }
}

function isStoredResponse(item: TransactItem | undefined): boolean {
  return String(item?.Put?.Item?.PK ?? '').startsWith('IDEMPOTENCY#');
}

/** BatchGetItem over any number of keys (chunks of 100), retrying unprocessed keys. Order is not kept. */
export async function batchGet(keys: readonly Key[], opts: { consistent?: boolean; projection?: string } = {}): Promise<Record<string, unknown>[]> {
  const T = tableName();
  const found: Record<string, unknown>[] = [];
  for (let i = 0; i < keys.length; i += 100) {
    let pending: Record<string, unknown>[] = keys.slice(i, i + 100).map((k) => ({ ...k }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt === 5) throw new Error('BatchGetItem left keys unprocessed after 5 attempts');
      if (attempt > 0) await pause(attempt, BATCH_BACKOFF);
      const res = await db().send(
        new BatchGetCommand({
          RequestItems: {
            [T]: { Keys: pending, ConsistentRead: opts.consistent ?? false, ...(opts.projection ? { ProjectionExpression: opts.projection } : {}) },
          },
        }),
      );
      found.push(...(res.Responses?.[T] ?? []));
      pending = (res.UnprocessedKeys?.[T]?.Keys as Record<string, unknown>[] | undefined) ?? [];
    }
  }
  return found;
}

const TRANSIENT = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'Unavailable',
  'TimeoutError',
  'AbortError',
  'TransactionInProgressException',
]);

/** The database (not the request) failed: unreachable, throttled or timed out. Unavailable (retry shortly), not a bug. */
/** Every page of a Query, for partitions known to be small (a cycle's rollups, a farm's active flocks, the users). */
export async function queryAll(input: QueryCommandInput): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  await everyPage(input, (res) => out.push(...(res.Items ?? [])));
  return out;
}

/** How many items a Query matches (`Select: COUNT`, every page). */
export async function queryCount(input: QueryCommandInput): Promise<number> {
  let count = 0;
  await everyPage({ ...input, Select: 'COUNT' }, (res) => {
    count += res.Count ?? 0;
  });
  return count;
}

/** `read` of every item, at most `limit` at a time (a burst of Queries stays within the table's capacity); the answers in the items' order. */
export async function eachLimited<T, R>(items: readonly T[], limit: number, read: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await read(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

async function everyPage(input: QueryCommandInput, onPage: (res: QueryCommandOutput) => void): Promise<void> {
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db().send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    onPage(res);
    start = res.LastEvaluatedKey;
  } while (start);
}

export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: string }).code;
  return TRANSIENT.has(err.name) || ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN'].includes(code ?? '');
}

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { QueryCommand, type QueryCommandInput, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { derivedKey } from '../auth/secret.js';
import { Invalid } from '../errors.js';
import { db, tableName } from './client.js';
import { equalityFilter } from './items.js';

/**
 * Every list of the API pages through this module, with one cursor codec.
 *
 * A cursor is where a page stopped, sealed with AES-256-GCM under a key derived from the service's secret
 * (`derivedKey('flockwise/list-cursor/v1')`: HKDF, not the token key), with the list it was issued for as
 * additional authenticated data. For a Query that list is the query itself (table, index, key condition
 * with its partition and range, filters, order): a cursor opens only on the same list of the same farm,
 * cycle or user with the same filters. A client can neither read one (no table key shows) nor make or
 * alter one: anything else is `Invalid cursor` (400 `query.cursor`), never a query steered elsewhere.
 * A cursor outlives neither the secret nor a change of its list's query.
 *
 * A list ends when it ends: each read asks DynamoDB for one item more than the page holds, so a page that
 * reaches the end has `nextCursor: null` (also when it is cut by `limit` exactly at the end), and a cursor
 * never leads to an empty page of an unfiltered list. That costs one item more per read, no extra call.
 */
export const invalidCursor = () => new Invalid('Invalid cursor', [{ field: 'cursor', message: 'is not a cursor returned by this list' }]);

const LABEL = 'flockwise/list-cursor/v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

const listId = (list: unknown): Buffer => Buffer.from(`${LABEL}\n${JSON.stringify(list)}`, 'utf8');

/** A cursor for `position` (any JSON) in the list `list` (any JSON naming the list: its query, its owner…). */
export function sealCursor(list: unknown, position: unknown): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', derivedKey(LABEL), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(listId(list));
  const sealed = Buffer.concat([cipher.update(JSON.stringify(position), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
}

/** The position a cursor of `list` holds (undefined without a cursor); a cursor not sealed for this list is `Invalid cursor`. */
export function openCursor(list: unknown, cursor: string | undefined): unknown {
  if (cursor === undefined) return undefined;
  const bytes = Buffer.from(cursor, 'base64url');
  if (!/^[A-Za-z0-9_-]+$/.test(cursor) || bytes.length <= IV_BYTES + TAG_BYTES) throw invalidCursor();
  try {
    const decipher = createDecipheriv('aes-256-gcm', derivedKey(LABEL), bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(listId(list));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const plain = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]);
    return JSON.parse(plain.toString('utf8')) as unknown;
  } catch {
    throw invalidCursor();
  }
}

export type Key = Record<string, unknown>;
/** A stored item as a Query answers it. */
export type Item = NonNullable<QueryCommandOutput['Items']>[number];
/** A Query of a list, without what paging sets (table, `Limit`, `ExclusiveStartKey`). */
export type ListQuery = Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>;
export interface PageRequest {
  limit: number;
  cursor?: string | undefined;
  /** A filter applied to the page after the read (worked out from the items): the cursor is bound to it too. */
  postFilter?: unknown;
}
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** The attributes of a position in a Query's order: the table's key, and the index's when it reads one. */
function keyAttributes(query: ListQuery): string[] {
  return query.IndexName ? ['PK', 'SK', `${query.IndexName}PK`, `${query.IndexName}SK`] : ['PK', 'SK'];
}

/** What a Query's cursor is bound to: everything that decides which items it lists, and in which order. */
const listOf = (q: ListQuery) => [
  tableName(),
  q.IndexName ?? null,
  q.KeyConditionExpression ?? null,
  q.FilterExpression ?? null,
  q.ExpressionAttributeNames ?? null,
  q.ExpressionAttributeValues ?? null,
  q.ScanIndexForward ?? true,
];

/** A filtered read evaluates at least this many items (DynamoDB applies `Limit` before the filter). */
const FILTERED_READ = 200;
/** Reads per page: a filtered page that found fewer than `limit` after them comes back short, with a cursor. */
const READS_PER_PAGE = 5;

/**
 * A page of one Query: at most `limit` items from where the cursor stopped. `list` replaces the query as
 * what the cursor is bound to when a value of the query moves on its own (the compliance windows' today);
 * `resume` then adjusts a start key of the list before it is used.
 */
export function queryPage(query: ListQuery, page: PageRequest, opts: { list?: unknown; resume?: (key: Key) => Key | undefined } = {}): Promise<Page<Item>> {
  return queriesPage([query], page, opts);
}

/**
 * A page of several Queries read one after the other (a caller's farms, one partition each), within
 * `reads` Queries: the cursor holds which query and where in it. The page looks one item ahead, across
 * queries too, so it ends with the last item of the last query.
 */
export async function queriesPage(
  queries: ListQuery[],
  page: PageRequest,
  opts: { list?: unknown; resume?: (key: Key) => Key | undefined; reads?: number } = {},
): Promise<Page<Item>> {
  const list = [opts.list ?? queries.map(listOf), page.postFilter ?? null];
  let [index, start] = positionOf(openCursor(list, page.cursor), queries.length);
  if (start && opts.resume) start = opts.resume(start);
  const items: Item[] = [];
  let lastFrom = -1; // the query the page's last item came from
  const seal = (i: number, key: Key | undefined) => sealCursor(list, [i, key ?? null]);
  for (let reads = 0; index < queries.length && reads < (opts.reads ?? READS_PER_PAGE); reads++) {
    const query = withKeys(queries[index]!);
    const want = page.limit + 1 - items.length;
    const res = await db().send(
      new QueryCommand({
        ...query,
        TableName: tableName(),
        Limit: query.FilterExpression ? Math.max(want, FILTERED_READ) : want,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of res.Items ?? []) {
      // one more item exists: the page stops after its last item (or, when that item ended an earlier query, at this query's start)
      if (items.length === page.limit) return { items, nextCursor: seal(index, lastFrom === index ? keyOf(queries[index]!, items.at(-1)!) : undefined) };
      items.push(item);
      lastFrom = index;
    }
    start = res.LastEvaluatedKey;
    if (!start) index += 1;
  }
  return { items, nextCursor: index < queries.length ? seal(index, start) : null };
}

/** The position a cursor opened to: `[query index, start key | null]` (only this module seals them). */
function positionOf(position: unknown, queries: number): [number, Key | undefined] {
  if (position === undefined) return [0, undefined];
  const [index, key] = position as [number, Key | null];
  if (!(Number.isInteger(index) && index >= 0 && index < queries)) throw invalidCursor();
  return [index, key ?? undefined];
}

/** The item's position in the query's order (its table and index keys). */
const keyOf = (query: ListQuery, item: Record<string, unknown>): Key => Object.fromEntries(keyAttributes(query).map((a) => [a, item[a]]));

/** A query with a projection also reads the key attributes (a page's cursor is its last item's key). */
function withKeys(query: ListQuery): ListQuery {
  if (!query.ProjectionExpression) return query;
  const names = Object.fromEntries(keyAttributes(query).map((a, i) => [`#pagekey${i}`, a]));
  return {
    ...query,
    ProjectionExpression: [query.ProjectionExpression, ...Object.keys(names)].join(', '),
    ExpressionAttributeNames: { ...query.ExpressionAttributeNames, ...names },
  };
}

/**
 * A page of one GSI1 partition (a farm's incidents, rules, schedules…): oldest first by its sort key, or
 * newest first; the filters are equalities (a filtered page may hold fewer than `limit` items while
 * `nextCursor` is set).
 */
export const gsi1Page = (partition: { GSI1PK: string }, filters: object, opts: PageOptions) => gsiPage('GSI1', partition.GSI1PK, filters, opts);

/** The same on GSI2 (a second list of the same items, e.g. equipment by owner beside by holder). */
export const gsi2Page = (partition: { GSI2PK: string }, filters: object, opts: PageOptions) => gsiPage('GSI2', partition.GSI2PK, filters, opts);

interface PageOptions extends PageRequest {
  newestFirst?: boolean;
}

function gsiPage(index: 'GSI1' | 'GSI2', pk: string, filters: object, opts: PageOptions): Promise<Page<Item>> {
  return queryPage(
    {
      IndexName: index,
      KeyConditionExpression: `${index}PK = :pk`,
      ...equalityFilter(filters, { ':pk': pk }),
      ...(opts.newestFirst ? { ScanIndexForward: false } : {}),
    },
    opts,
  );
}

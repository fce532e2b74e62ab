import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { Invalid } from '../errors.js';
import { db, tableName } from './client.js';
import { equalityFilter } from './items.js';

/**
 * Opaque cursors: base64url JSON of where a page stopped. Every list reads its cursor back through
 * `readCursor` with a check of the shape it issued, so a crafted cursor is an invalid `cursor` field,
 * never a query steered into another partition.
 */
export const invalidCursor = () => new Invalid('Invalid cursor', [{ field: 'cursor', message: 'is not a cursor returned by this list' }]);

export function writeCursor(position: unknown): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

export function readCursor<T>(cursor: string, isIssued: (position: unknown) => position is T): T {
  let position: unknown;
  try {
    position = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!isIssued(position)) throw invalidCursor();
  return position;
}

type Key = Record<string, unknown>;

/** A DynamoDB key of string attributes, in the given partition (`{PK: 'CYCLE#…'}`, a GSI's partition). */
function isKeyIn(partition: Record<string, string>) {
  return (position: unknown): position is Key =>
    typeof position === 'object' &&
    position !== null &&
    !Array.isArray(position) &&
    Object.values(position).every((v) => typeof v === 'string') &&
    Object.entries(partition).every(([k, v]) => (position as Key)[k] === v);
}

/** The cursor of one Query: its LastEvaluatedKey (null when the list is done). */
export function encodeCursor(key: Key | undefined): string | null {
  return key ? writeCursor(key) : null;
}

export function decodeCursor(cursor: string | undefined, partition: Record<string, string>): Key | undefined {
  return cursor === undefined ? undefined : readCursor(cursor, isKeyIn(partition));
}

/** A cursor over several partitions read one after the other: which partition, and where in it. */
export function encodeMultiCursor(index: number, key: Key | undefined): string {
  return writeCursor({ i: index, k: key ?? null });
}

export function decodeMultiCursor(cursor: string | undefined, partitions: string[], partitionAttribute: string): { index: number; key: Key | undefined } {
  if (cursor === undefined) return { index: 0, key: undefined };
  const issued = (p: unknown): p is { i: number; k: Key | null } => {
    const { i, k } = (typeof p === 'object' && p !== null ? p : {}) as { i?: unknown; k?: unknown };
    return (
      typeof i === 'number' && Number.isInteger(i) && i >= 0 && i < partitions.length && (k === null || isKeyIn({ [partitionAttribute]: partitions[i]! })(k))
    );
  };
  const { i, k } = readCursor(cursor, issued);
  return { index: i, key: k ?? undefined };
}

/**
 * A page of one GSI1 partition (a farm's incidents, rules, schedules…): oldest first by its sort key, or
 * newest first; the filters are equalities (a filtered page may hold fewer than `limit` items while
 * `nextCursor` is set). A cursor of another list is refused as invalid.
 */
export const gsi1Page = (partition: { GSI1PK: string }, filters: object, opts: PageOptions) => gsiPage('GSI1', partition.GSI1PK, filters, opts);

/** The same on GSI2 (a second list of the same items, e.g. equipment by owner beside by holder). */
export const gsi2Page = (partition: { GSI2PK: string }, filters: object, opts: PageOptions) => gsiPage('GSI2', partition.GSI2PK, filters, opts);

interface PageOptions {
  limit: number;
  cursor?: string;
  newestFirst?: boolean;
}

async function gsiPage(
  index: 'GSI1' | 'GSI2',
  pk: string,
  filters: object,
  opts: PageOptions,
): Promise<{ items: Record<string, unknown>[]; nextCursor: string | null }> {
  const start = decodeCursor(opts.cursor, { [`${index}PK`]: pk });
  if (start && !(typeof start[`${index}SK`] === 'string' && Object.keys(start).length === 4)) throw invalidCursor();
  const res = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: index,
      KeyConditionExpression: `${index}PK = :pk`,
      ...equalityFilter(filters, { ':pk': pk }),
      ...(opts.newestFirst ? { ScanIndexForward: false } : {}),
      Limit: opts.limit,
      ExclusiveStartKey: start,
    }),
  );
  return { items: res.Items ?? [], nextCursor: encodeCursor(res.LastEvaluatedKey) };
}

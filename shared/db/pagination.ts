import { Invalid } from '../errors.js';

/**
 * Opaque cursors: base64url of the LastEvaluatedKey. A cursor is only accepted for the partition it
 * was issued for, so a crafted cursor cannot steer a query into another partition.
 */
export function encodeCursor(key: Record<string, unknown> | undefined): string | null {
  return key ? Buffer.from(JSON.stringify(key)).toString('base64url') : null;
}

export function decodeCursor(cursor: string | undefined, partition: Record<string, string>): Record<string, unknown> | undefined {
  if (cursor === undefined) return undefined;
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = undefined;
  }
  const valid =
    typeof key === 'object' &&
    key !== null &&
    !Array.isArray(key) &&
    Object.values(key).every((v) => typeof v === 'string') &&
    Object.entries(partition).every(([k, v]) => (key as Record<string, unknown>)[k] === v);
  if (!valid) throw new Invalid('Invalid cursor', [{ field: 'cursor', message: 'is not a cursor returned by this list' }]);
  return key as Record<string, unknown>;
}

/** A cursor over several partitions read one after the other: which partition, and where in it. */
export function encodeMultiCursor(index: number, key: Record<string, unknown> | undefined): string {
  return Buffer.from(JSON.stringify({ i: index, k: key ?? null })).toString('base64url');
}

export function decodeMultiCursor(
  cursor: string | undefined,
  partitions: string[],
  partitionAttribute: string,
): { index: number; key: Record<string, unknown> | undefined } {
  if (cursor === undefined) return { index: 0, key: undefined };
  let parsed: { i?: unknown; k?: unknown } | undefined;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { i?: unknown; k?: unknown };
  } catch {
    parsed = undefined;
  }
  const index = parsed?.i;
  const key = parsed?.k as Record<string, unknown> | null | undefined;
  const valid =
    typeof index === 'number' &&
    Number.isInteger(index) &&
    index >= 0 &&
    index < partitions.length &&
    (key === null ||
      (typeof key === 'object' &&
        key !== undefined &&
        !Array.isArray(key) &&
        key[partitionAttribute] === partitions[index] &&
        Object.values(key).every((v) => typeof v === 'string')));
  if (!valid) throw new Invalid('Invalid cursor', [{ field: 'cursor', message: 'is not a cursor returned by this list' }]);
  return { index, key: key ?? undefined };
}

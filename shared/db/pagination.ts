import { BadRequest } from '../errors.js';

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
    typeof key === 'object' && key !== null && !Array.isArray(key) &&
    Object.values(key).every((v) => typeof v === 'string') &&
    Object.entries(partition).every(([k, v]) => (key as Record<string, unknown>)[k] === v);
  if (!valid) throw new BadRequest('Invalid cursor', [{ field: 'query.cursor', message: 'is not a cursor returned by this list' }]);
  return key as Record<string, unknown>;
}

/** What a change to a record changed, field by field (the audit's `changes` of an update). */

/** `{field: {from, to}}` for the fields whose value differs (arrays compared by content). */
export function diff<T extends object>(before: T, after: T, fields: readonly (keyof T)[]): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const f of fields) {
    if (JSON.stringify(before[f]) !== JSON.stringify(after[f])) changes[String(f)] = { from: before[f], to: after[f] };
  }
  return changes;
}

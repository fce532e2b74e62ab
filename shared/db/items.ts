/**
 * Stored items to records: each repository lists its record's fields once, typed by the record
 * (`readonly (keyof XRecord)[]`: a field the record does not have is a compile error), and maps an item
 * with `pick`. Keys (PK, SK, GSI…), the item type and anything else not listed are left behind.
 */

/** The listed fields of `item` as a `T`. With `fill` (null), an attribute the item lacks (or holds as null) is `fill`; without, it is copied as it is (undefined when absent). */
export function pick<T>(item: Record<string, unknown>, fields: readonly (keyof T & string)[], fill?: null): T {
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f] = fill === undefined ? item[f] : (item[f] ?? fill);
  return out as T;
}

/**
 * A Query's FilterExpression of equalities for the filters that are set (`#status = :status AND …`),
 * with the names and values it uses (`values` starts with what the key condition needs). No filter set:
 * no expression at all (DynamoDB refuses an empty one).
 */
export function equalityFilter(filters: object, values: Record<string, unknown>) {
  const names: Record<string, string> = {};
  const terms: string[] = [];
  for (const [field, value] of Object.entries(filters)) {
    if (value === undefined) continue;
    names[`#${field}`] = field;
    values[`:${field}`] = value;
    terms.push(`#${field} = :${field}`);
  }
  return { ...(terms.length ? { FilterExpression: terms.join(' AND '), ExpressionAttributeNames: names } : {}), ExpressionAttributeValues: values };
}

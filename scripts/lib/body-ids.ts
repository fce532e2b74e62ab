/**
 * The fields of a request schema that name a record by id: every property whose name ends in `Id`, at any
 * depth (arrays by their first item, every branch of an anyOf/oneOf/allOf). A body naming records can
 * answer 404 (a record not of the caller's farm is a missing one): the OpenAPI document says so, and
 * tests/security/body-references.test.ts checks each field.
 */
type Schema = Record<string, unknown>;
export type FieldPath = Array<string | number>;

const isSchema = (s: unknown): s is Schema => typeof s === 'object' && s !== null && !Array.isArray(s);

export const isIdName = (name: string) => /Id$/.test(name);

/** Paths of every `…Id` property (`['scope', 'flockId']`, `['lines', 0, 'lineId']`), each once. */
export function idFields(schema: unknown): FieldPath[] {
  const out = new Map<string, FieldPath>();
  const visit = (s: unknown, path: FieldPath) => {
    if (!isSchema(s)) return;
    for (const k of ['anyOf', 'oneOf', 'allOf'] as const) if (Array.isArray(s[k])) for (const b of s[k] as unknown[]) visit(b, path);
    if (s.type === 'array' && isSchema(s.items)) visit(s.items, [...path, 0]);
    const props = isSchema(s.properties) ? s.properties : {};
    for (const [k, v] of Object.entries(props)) {
      if (isIdName(k)) out.set([...path, k].join('.'), [...path, k]);
      visit(v, [...path, k]);
    }
  };
  visit(schema, []);
  return [...out.values()];
}

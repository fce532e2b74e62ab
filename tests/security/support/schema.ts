/**
 * Reading request schemas (plain JSON Schema from TypeBox) for the generated checks: which properties a
 * body declares, which object schemas let unknown properties through, and the bound of every string,
 * number, array and object, with a valid body to put an out-of-bound value into.
 */
import { ulid } from 'ulidx';
import { sampleOf } from '../../support/sample.js';

export type Schema = Record<string, unknown>;
type Path = Array<string | number>;

const isSchema = (s: unknown): s is Schema => typeof s === 'object' && s !== null && !Array.isArray(s);
const propsOf = (s: Schema) => (isSchema(s.properties) ? (s.properties as Record<string, Schema>) : {});

/** The body shapes a schema accepts: each branch of a top-level oneOf (movements: one per type), else the schema. */
export function variants(schema: Schema): Schema[] {
  return Array.isArray(schema.oneOf) ? (schema.oneOf as Schema[]) : [schema];
}

/** A readable name for a variant: its `type` constant (movement types) or its $id. */
export function variantName(variant: Schema, root: Schema): string {
  const type = propsOf(variant).type;
  const constant = type && ('const' in type ? type.const : Array.isArray(type.enum) && type.enum.length === 1 ? type.enum[0] : undefined);
  return String(constant ?? root.$id ?? 'body');
}

/** Top-level property names a variant declares (with those the root declares for every variant). */
export function declared(variant: Schema, root: Schema): Set<string> {
  return new Set([...Object.keys(propsOf(variant)), ...Object.keys(propsOf(root))]);
}

/** A valid body of the variant; any e-mail is a fresh address (the auth limiter counts per e-mail). */
export function validBody(variant: Schema): Record<string, unknown> {
  const body = sampleOf(variant) as Record<string, unknown>;
  if (typeof body.email === 'string') body.email = `sample-${ulid().toLowerCase()}@example.com`;
  return body;
}

/**
 * Sets `value` at `path` in `target`, creating the objects and arrays on the way. Given the variant's
 * schema, what it creates starts as a valid sample (an array item then has its other required fields).
 */
export function setAt(target: Record<string, unknown>, path: Path, value: unknown, schema?: Schema): Record<string, unknown> {
  let node: Record<string | number, unknown> = target;
  let at: Schema | undefined = schema;
  path.forEach((key, i) => {
    at = at && childOf(at, key);
    if (i === path.length - 1) {
      node[key] = value;
      return;
    }
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = at ? sampleOf(at) : typeof path[i + 1] === 'number' ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  });
  return target;
}

/** The schema of one property or array item of an object or array schema (its first non-null branch). */
function childOf(s: Schema, key: string | number): Schema | undefined {
  const branch = Array.isArray(s.anyOf) ? (s.anyOf as Schema[]).find((b) => b.type !== 'null') : s;
  if (!branch) return undefined;
  if (typeof key === 'number') return isSchema(branch.items) ? branch.items : undefined;
  const child = (branch.properties as Record<string, Schema> | undefined)?.[key];
  return isSchema(child) ? child : undefined;
}

export const fieldOf = (path: Path) => ['body', ...path].join('.');

// ---------------------------------------------------------------------------------------------------
// Property-level: objects that let unknown properties through

/** An object schema every one of whose properties is validated: closed, or a pattern/schema for all keys. */
function validatesEveryKey(s: Schema): boolean {
  if (s.additionalProperties === false || isSchema(s.additionalProperties)) return true;
  const patterns = isSchema(s.patternProperties) ? Object.keys(s.patternProperties) : [];
  if (patterns.some((p) => p === '^(.*)$' || p === '^.*$' || p === '.*' || p === '')) return true;
  // an object with a oneOf/anyOf of closed objects (the movement body) is closed through its branches
  const branches = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
  return Array.isArray(branches) && branches.length > 0 && branches.every((b) => b.type !== 'object' || validatesEveryKey(b));
}

const isObjectSchema = (s: Schema) => s.type === 'object' || isSchema(s.properties) || isSchema(s.patternProperties);

/**
 * Every object inside a body schema whose unknown keys pass unvalidated, by field path (`body`,
 * `body.deaths`, `body.grades`). Each of these can store arbitrary client-chosen properties.
 */
export function openObjects(schema: Schema, path = 'body'): string[] {
  const out = new Set<string>();
  const visit = (s: unknown, p: string) => {
    if (!isSchema(s)) return;
    for (const k of ['anyOf', 'oneOf', 'allOf'] as const) if (Array.isArray(s[k])) for (const b of s[k] as Schema[]) visit(b, p);
    if (isObjectSchema(s)) {
      if (!validatesEveryKey(s)) out.add(p);
      for (const [k, v] of Object.entries(propsOf(s))) visit(v, `${p}.${k}`);
      if (isSchema(s.patternProperties)) for (const v of Object.values(s.patternProperties)) visit(v, `${p}.<key>`);
      if (isSchema(s.additionalProperties)) visit(s.additionalProperties, `${p}.<key>`);
    }
    if (s.type === 'array' && isSchema(s.items)) visit(s.items, `${p}[]`);
  };
  visit(schema, path);
  return [...out];
}

// ---------------------------------------------------------------------------------------------------
// Resource consumption: the bounds a body declares

export interface BoundCase {
  /** The validation `details[].field` the refusal must name. */
  field: string;
  keyword: 'maxLength' | 'maxItems' | 'maxProperties' | 'maximum' | 'exclusiveMaximum' | 'minimum' | 'exclusiveMinimum';
  limit: number;
  /** The validation `details[].message` AJV gives for this bound. */
  message: string;
  /** A valid body of the variant with the out-of-bound value at `field`. */
  over: Record<string, unknown>;
  /** The same body with the value exactly at the bound (undefined for exclusive bounds). */
  at?: Record<string, unknown>;
}

/** Distinct strings a–z only (fits `^[a-z_]{2,64}$` and plain length bounds). */
const word = (i: number) => `x${[...i.toString(26)].map((c) => String.fromCharCode(97 + parseInt(c, 26))).join('')}`;

function itemsFor(items: Schema, n: number, unique: boolean): unknown[] {
  return Array.from({ length: n }, (_, i) => {
    if (!unique) return sampleOf(items);
    if (Array.isArray(items.enum)) return items.enum[i % items.enum.length];
    if (items.type === 'string') return word(i);
    if (items.type === 'number' || items.type === 'integer') return Number(sampleOf(items)) + i;
    return sampleOf(items);
  });
}

/** Keys `k0`, `k1`… match every key pattern the schemas use (`^(.*)$`, `^[A-Za-z0-9_-]{1,20}$`). */
const keyFor = (i: number) => `k${i}`;

/** Every bound of a variant, each with a valid body around an out-of-bound value (1 past the bound). */
export function boundCases(variant: Schema): BoundCase[] {
  const cases: BoundCase[] = [];
  const base = () => validBody(variant);
  const add = (path: Path, keyword: BoundCase['keyword'], limit: number, message: string, over: unknown, at?: unknown) =>
    cases.push({
      field: fieldOf(path),
      keyword,
      limit,
      message,
      over: setAt(base(), path, over),
      ...(at === undefined ? {} : { at: setAt(base(), path, at) }),
    });

  const visit = (s: unknown, path: Path, top: boolean) => {
    if (!isSchema(s)) return;
    for (const k of ['anyOf', 'oneOf'] as const) {
      if (!top && Array.isArray(s[k])) for (const b of s[k] as Schema[]) visit(b, path, false);
    }
    if (s.type === 'string' && typeof s.maxLength === 'number') {
      add(path, 'maxLength', s.maxLength, `must NOT have more than ${s.maxLength} characters`, 'x'.repeat(s.maxLength + 1), 'x'.repeat(s.maxLength));
    }
    if (s.type === 'number' || s.type === 'integer') {
      if (typeof s.maximum === 'number') add(path, 'maximum', s.maximum, `must be <= ${s.maximum}`, s.maximum + 1, s.maximum);
      if (typeof s.exclusiveMaximum === 'number') add(path, 'exclusiveMaximum', s.exclusiveMaximum, `must be < ${s.exclusiveMaximum}`, s.exclusiveMaximum);
      if (typeof s.minimum === 'number') add(path, 'minimum', s.minimum, `must be >= ${s.minimum}`, s.minimum - 1, s.minimum);
      if (typeof s.exclusiveMinimum === 'number') add(path, 'exclusiveMinimum', s.exclusiveMinimum, `must be > ${s.exclusiveMinimum}`, s.exclusiveMinimum);
    }
    if (s.type === 'array' && isSchema(s.items)) {
      const items = s.items;
      if (typeof s.maxItems === 'number') {
        add(
          path,
          'maxItems',
          s.maxItems,
          `must NOT have more than ${s.maxItems} items`,
          itemsFor(items, s.maxItems + 1, s.uniqueItems === true),
          itemsFor(items, s.maxItems, s.uniqueItems === true),
        );
      }
      visit(items, [...path, 0], false);
    }
    if (isObjectSchema(s)) {
      const patterns = isSchema(s.patternProperties) ? (s.patternProperties as Record<string, Schema>) : {};
      if (typeof s.maxProperties === 'number') {
        const valueSchema = Object.values(patterns)[0] ?? { type: 'integer' };
        const entries = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [keyFor(i), sampleOf(valueSchema)]));
        if (path.length === 0) {
          // the body itself: its declared properties plus unknown ones up to the bound
          const fill = (n: number) => ({ ...base(), ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`extra${i}`, 1])) });
          const own = Object.keys(base()).length;
          cases.push({
            field: 'body',
            keyword: 'maxProperties',
            limit: s.maxProperties,
            message: `must NOT have more than ${s.maxProperties} properties`,
            over: fill(s.maxProperties + 1 - own),
          });
        } else {
          add(
            path,
            'maxProperties',
            s.maxProperties,
            `must NOT have more than ${s.maxProperties} properties`,
            entries(s.maxProperties + 1),
            entries(s.maxProperties),
          );
        }
      }
      for (const [k, v] of Object.entries(propsOf(s))) visit(v, [...path, k], false);
      for (const v of Object.values(patterns)) visit(v, [...path, keyFor(0)], false);
    }
  };
  visit(variant, [], true);
  return cases;
}

/** Paths of every number and integer a variant declares (top level and nested objects/arrays). */
export function numericFields(variant: Schema): Path[] {
  const out: Path[] = [];
  const visit = (s: unknown, path: Path) => {
    if (!isSchema(s)) return;
    if (s.type === 'number' || s.type === 'integer') out.push(path);
    else if (Array.isArray(s.anyOf) && (s.anyOf as Schema[]).some((b) => b.type === 'number' || b.type === 'integer')) out.push(path);
    else if (s.type === 'array' && isSchema(s.items)) visit(s.items, [...path, 0]);
    else if (isObjectSchema(s) && path.length < 4) for (const [k, v] of Object.entries(propsOf(s))) visit(v, [...path, k]);
  };
  for (const [k, v] of Object.entries(propsOf(variant))) visit(v, [k]);
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Object-level: the ids a body carries (the same reading as the OpenAPI document's 404)

export { idFields, isIdName } from '../../../scripts/lib/body-ids.js';

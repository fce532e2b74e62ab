import type { FieldError } from '../shared/errors.js';

/**
 * The rules every input obeys whatever its schema says, checked where a schema is checked (the HTTP
 * validation stage, the event stack's payload check, a use case re-checking merged input):
 *
 * - **Depth.** No input is nested deeper than its schema can hold, and the check runs before anything
 *   walks the input recursively (the validator, the number check, the domain). A schema's depth is known
 *   from its shape; a schema that refers to itself (a json-logic condition) declares its own limit with
 *   `x-maxDepth`, and one that lets any value in is held to `MAX_JSON_DEPTH`. A recursive schema without
 *   a limit is a build error (`maxDepthOf` throws; scripts/compile-schemas.ts runs it on every schema).
 * - **Text.** No string, and no property name, holds a NUL character or an unpaired surrogate (not
 *   Unicode: it cannot be stored or shown as text). One rule for every text field of every input.
 *
 * Depth counts the objects and arrays on the way down: a number is 0, `[1]` is 1, `{"a": [1]}` is 2.
 */

/** The keywords that bound a date a person types (OpenAPI extensions): not before this date, at most this many days after today (UTC). */
export const MIN_DATE_KEYWORD = 'x-minDate';
export const MAX_DAYS_AHEAD_KEYWORD = 'x-maxDaysAhead';

/** The deepest any input may be: DynamoDB stores at most 32 levels of nested attributes. */
export const MAX_JSON_DEPTH = 32;
/** The keyword by which a recursive schema declares how deep it may be nested (an OpenAPI extension). */
export const MAX_DEPTH_KEYWORD = 'x-maxDepth';

type Schema = Record<string, unknown>;
type Resolve = (ref: string) => Schema | undefined;

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;
const isSchema = (x: unknown): x is Schema => isObject(x) && !Array.isArray(x);

/**
 * The schemas a `$ref` may name inside `root`: those with an `$id` (how the request schemas refer to
 * themselves: `{$ref: 'JsonLogicCondition'}`) and, for the OpenAPI document, `#/components/schemas/<name>`.
 */
function resolverOf(root: Schema, document?: Schema): Resolve {
  const byId = new Map<string, Schema>();
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    if (!isObject(node)) continue;
    if (!Array.isArray(node) && typeof node.$id === 'string') byId.set(node.$id, node);
    pending.push(...Object.values(node));
  }
  return (ref) => {
    if (byId.has(ref)) return byId.get(ref);
    const m = /^#\/components\/schemas\/(.+)$/.exec(ref);
    const components = (document?.components as Schema | undefined)?.schemas as Record<string, Schema> | undefined;
    return m ? (components?.[m[1]!] ?? byId.get(m[1]!)) : undefined;
  };
}

const depthCache = new WeakMap<Schema, number>();

/** How deep a value of `s` can be, references resolved by `resolve` (cached per schema node). */
function depthWith(s: unknown, resolve: Resolve, visiting = new Set<Schema>()): number {
  if (s === false) return 0;
  if (!isSchema(s)) return MAX_JSON_DEPTH; // `true` or absent: any value
  const cached = depthCache.get(s);
  if (cached !== undefined) return cached;
  const declared = s[MAX_DEPTH_KEYWORD];
  if (typeof declared === 'number') return Math.min(declared, MAX_JSON_DEPTH);
  if (typeof s.$ref === 'string') {
    const target = resolve(s.$ref);
    if (!target) throw new Error(`unresolved $ref ${s.$ref}`);
    return depthWith(target, resolve, visiting);
  }
  if (visiting.has(s)) throw new Error(`a schema refers to itself without declaring ${MAX_DEPTH_KEYWORD}${s.$id ? ` (${String(s.$id)})` : ''}`);
  visiting.add(s);
  const of = (x: unknown) => depthWith(x, resolve, visiting);
  let deepest = 0;
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
    if (Array.isArray(s[key])) for (const branch of s[key] as unknown[]) deepest = Math.max(deepest, of(branch));
  const types = [s.type].flat();
  const object = types.includes('object') || isSchema(s.properties) || isSchema(s.patternProperties) || 'additionalProperties' in s;
  const array = types.includes('array') || 'items' in s || 'prefixItems' in s;
  if (object) {
    const children = [...Object.values((s.properties ?? {}) as Schema), ...Object.values((s.patternProperties ?? {}) as Schema), s.additionalProperties];
    deepest = Math.max(deepest, 1 + Math.max(...children.map(of)));
  }
  if (array) deepest = Math.max(deepest, 1 + Math.max(of(s.items), ...((s.prefixItems as unknown[] | undefined) ?? []).map(of)));
  // no type and no alternatives: any value
  if (!object && !array && s.type === undefined && s.const === undefined && s.enum === undefined && !s.anyOf && !s.oneOf && !s.allOf) deepest = MAX_JSON_DEPTH;
  visiting.delete(s);
  const depth = Math.min(deepest, MAX_JSON_DEPTH);
  depthCache.set(s, depth);
  return depth;
}

/**
 * How deep a value of `schema` can be nested (`MAX_JSON_DEPTH` at most). `document` resolves
 * `#/components/schemas/…` references (the OpenAPI document); references by `$id` resolve within the
 * schema. Throws when a schema refers to itself without declaring `x-maxDepth`.
 */
export function maxDepthOf(schema: Schema, document?: Schema): number {
  return depthWith(schema, resolverOf(schema, document));
}

/** Whether `value` is nested at most `limit` levels deep (iterative: a value nested 100 000 deep is measured without recursion). */
export function within(value: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (!isObject(node)) continue;
    if (depth + 1 > limit) return false;
    for (const child of Object.values(node)) if (isObject(child)) pending.push([child, depth + 1]);
  }
  return true;
}

/** A schema's alternatives (`anyOf`/`oneOf`/`allOf`, references followed), itself included, as a flat list. */
function branchesOf(s: unknown, resolve: Resolve, seen = new Set<unknown>()): Schema[] {
  if (!isSchema(s) || seen.has(s)) return [];
  seen.add(s);
  if (typeof s.$ref === 'string') return branchesOf(resolve(s.$ref), resolve, seen);
  const nested = (['anyOf', 'oneOf', 'allOf'] as const).flatMap((k) => (Array.isArray(s[k]) ? (s[k] as unknown[]) : []));
  return [s, ...nested.flatMap((b) => branchesOf(b, resolve, seen))];
}

const OPEN = Symbol('open');
const typesOf = (s: Schema): string[] => [s.type].flat().filter((t): t is string => typeof t === 'string');

/** What a schema's own keywords say of entry `key` of `value`: the schemas holding it, OPEN (anything), null (not allowed), undefined (nothing said). */
function ownHolders(s: Schema, value: object, key: string): unknown[] | typeof OPEN | null | undefined {
  const types = typesOf(s);
  if (Array.isArray(value)) {
    if ('items' in s) return [s.items];
    if (types.includes('array')) return OPEN;
    return types.length > 0 ? null : undefined;
  }
  const props = (s.properties ?? {}) as Schema;
  if (Object.hasOwn(props, key)) return [props[key]];
  const patterns = Object.entries((s.patternProperties ?? {}) as Schema).filter(([p]) => new RegExp(p, 'u').test(key));
  if (patterns.length > 0) return patterns.map(([, v]) => v);
  if (s.additionalProperties === false) return null;
  if (isSchema(s.additionalProperties)) return [s.additionalProperties];
  if (types.includes('object') || isSchema(s.properties)) return OPEN;
  return types.length > 0 ? null : undefined;
}

/** A `oneOf`/`anyOf`'s alternatives; with a discriminator, the one the value's tag names (all of them when none does). */
function alternativesOf(s: Schema, value: object): unknown[] {
  const alts = [...((s.oneOf as unknown[] | undefined) ?? []), ...((s.anyOf as unknown[] | undefined) ?? [])];
  const tag = (s.discriminator as { propertyName?: string } | undefined)?.propertyName;
  if (!tag || Array.isArray(value)) return alts;
  const wanted = (value as Record<string, unknown>)[tag];
  const named = alts.filter((b) => {
    const p = isSchema(b) ? ((b.properties as Schema | undefined)?.[tag] as Schema | undefined) : undefined;
    return p !== undefined && (p.const === wanted || (Array.isArray(p.enum) && p.enum.includes(wanted)));
  });
  return named.length > 0 ? named : alts;
}

/**
 * The schemas that hold entry `key` of `value` under `s` (its own keywords, and those of the alternative
 * or alternatives the value may take), or null when `s` does not allow the entry.
 */
function holdersFor(s: unknown, value: object, key: string, resolve: Resolve, depth = 0): unknown[] | null {
  if (s === false) return null;
  if (!isSchema(s) || depth > 20) return [true];
  if (typeof s.$ref === 'string') return holdersFor(resolve(s.$ref), value, key, resolve, depth + 1);
  const own = ownHolders(s, value, key);
  if (own === null) return null;
  for (const part of (s.allOf as unknown[] | undefined) ?? []) if (holdersFor(part, value, key, resolve, depth + 1) === null) return null;
  const alts = alternativesOf(s, value);
  if (alts.length > 0) {
    const allowed = alts.map((b) => holdersFor(b, value, key, resolve, depth + 1)).filter((h): h is unknown[] => h !== null);
    if (allowed.length === 0) return null;
    // the alternative says more than an open parent
    return [...(Array.isArray(own) ? own : []), ...allowed.flat()];
  }
  return Array.isArray(own) ? own : [true];
}

const tooDeep = (limit: number) => `is nested too deep (at most ${limit} levels of objects and arrays)`;

/**
 * Where `data` is nested deeper than a limit allows, by field (empty when it is not): the outermost field
 * whose value is too deep for a recursive schema holding it (its `x-maxDepth`) or for a schema that takes
 * any value (`MAX_JSON_DEPTH`). Elsewhere a value too deep for its schema's shape is left to the validator,
 * which names the shape it breaks (`must be number`, `is not allowed`) without walking further than the
 * schema does. Walks the schema from the top, and the data only as deep as the schema reaches.
 */
export function depthProblems(schema: Schema, data: unknown): FieldError[] {
  const resolve = resolverOf(schema);
  const limitOf = (holders: unknown[]) => Math.max(0, ...holders.map((h) => depthWith(h, resolve)));
  if (within(data, limitOf([schema]))) return [];
  const out: FieldError[] = [];
  const pending: Array<{ holders: unknown[]; value: unknown; path: string[] }> = [{ holders: [schema], value: data, path: [] }];
  while (pending.length > 0 && out.length < 50) {
    const { holders, value, path } = pending.pop()!;
    // a recursive schema is judged as a whole (its limit is the one a client can act on), and so is any value
    const declared = holders.flatMap((h) => branchesOf(h, resolve)).some((b) => typeof b[MAX_DEPTH_KEYWORD] === 'number');
    if (declared || holders.some((h) => !isSchema(h))) {
      out.push({ field: path.join('.'), message: tooDeep(limitOf(holders)) });
      continue;
    }
    if (!isObject(value)) continue;
    for (const [key, child] of Object.entries(value)) {
      const inner = holders.flatMap((h) => holdersFor(h, value, key, resolve) ?? []);
      if (inner.length > 0 && !within(child, limitOf(inner))) pending.push({ holders: inner, value: child, path: [...path, key] });
    }
  }
  return out;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function textProblem(s: string): string | null {
  if (s.includes('\u0000')) return 'must not contain NUL characters (U+0000)';
  if (LONE_SURROGATE.test(s)) return 'must not contain unpaired surrogates (it is not valid Unicode text)';
  return null;
}

/** Every string (and property name) of `data` that holds a NUL character or an unpaired surrogate, by field (iterative; a path is spelled out only when reported). */
export function textProblems(data: unknown): FieldError[] {
  const out: FieldError[] = [];
  type Entry = { node: unknown; key: string; parent: Entry | undefined };
  const pathOf = (e: Entry | undefined, key?: string): string => {
    const keys: string[] = key === undefined ? [] : [key];
    for (let at = e; at?.parent; at = at.parent) keys.push(at.key);
    return keys.reverse().join('.');
  };
  const pending: Entry[] = [{ node: data, key: '', parent: undefined }];
  while (pending.length > 0 && out.length < 50) {
    const entry = pending.pop()!;
    const { node } = entry;
    if (typeof node === 'string') {
      const problem = textProblem(node);
      if (problem) out.push({ field: pathOf(entry), message: problem });
      continue;
    }
    if (!isObject(node)) continue;
    const entries = Object.entries(node);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      const keyProblem = Array.isArray(node) ? null : textProblem(key);
      if (keyProblem) out.push({ field: pathOf(entry, key), message: `its name ${keyProblem}` });
      else if (typeof child === 'string' || isObject(child)) pending.push({ node: child, key, parent: entry });
    }
  }
  return out;
}

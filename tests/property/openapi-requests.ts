/**
 * Request generators read from the OpenAPI document, for every operation it lists (nothing is written
 * per route: an operation added later is fuzzed the moment it is in the document).
 *
 * For each operation, `requestArb(op, pools)` yields requests built from the operation's own parameters,
 * request body schema and documented header parameters:
 * - valid ones: path parameters from the pools of real ids (so requests reach deep into handlers) or
 *   from the parameter schema, query parameters and bodies from their schemas;
 * - invalid ones: wrong types, missing required fields, strings past maxLength (up to ~100 KB), huge
 *   arrays, enum and format violations, negative and enormous numbers (1e308, 1e400 as a literal, -1,
 *   numeric strings), extra properties (also __proto__), deep nesting (under an unknown property; in a
 *   declared field; in a recursive field's own shape, one past its `x-maxDepth` and thousands of levels), garbage path ids (`../`, very
 *   long, unicode), unknown query parameters, malformed JSON, wrong content types, oversized bodies,
 *   bodies on operations that take none; unicode (emoji, RTL, NUL, lone surrogates) in any string;
 * - callers: the admin, a low-privilege user, no token, a garbage token.
 *
 * Whether a generated request is valid is not trusted to the generator: `classify()` checks it against
 * the document's own schemas with ajv (query/path with coercion, as the service reads them).
 */
import fc from 'fast-check';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON Schema / OpenAPI nodes

export const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'options', 'head'] as const;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: Json;
}

export interface Operation {
  /** `GET /api/v1/flocks/{flockId}` */
  label: string;
  method: string;
  path: string;
  operationId: string;
  op: Json;
  parameters: Parameter[];
  /** application/json schema of the request body, when the operation takes one. */
  body?: Json;
  isPublic: boolean;
  /** x-capability of the document ('public', 'none', 'device' or a capability name). */
  capability: string;
  /** The body cap of the operation (x-max-body-bytes, else the service's MAX_BODY_BYTES). */
  maxBodyBytes: number;
}

export type Caller = 'admin' | 'low' | 'none' | 'garbage-token';

export interface GeneratedRequest {
  /** What the generator meant to produce (for the counts and reproductions). */
  kind: string;
  caller: Caller;
  /** Path parameter values (before encoding). */
  params: Record<string, string>;
  query?: Record<string, string>;
  headers: Record<string, string>;
  /** JSON value to send (serialized by call()), or rawBody for transport-level cases. */
  body?: unknown;
  rawBody?: string;
  /** The generator asked for a real object's id in at least one path parameter. */
  realIds: boolean;
}

/**
 * Objects that exist (made in a beforeAll): `records` are coherent sets by path-parameter name (a
 * flock, ITS cycle, a movement of that cycle…), `values` every known value per name (for body fields).
 */
export interface Pools {
  records: Array<Record<string, string>>;
  values: Record<string, string[]>;
}

export const MAX_BODY_BYTES = 102_400;

// ---------------------------------------------------------------------------------------------------
// The document

export function operationsOf(doc: Json): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const parameters = [...((item.parameters ?? []) as Json[]), ...((op.parameters ?? []) as Json[])].map((p) => deref(doc, p) as Parameter);
      const body = op.requestBody ? (deref(doc, op.requestBody).content?.['application/json']?.schema as Json | undefined) : undefined;
      const security = (op.security ?? doc.security ?? []) as unknown[];
      ops.push({
        label: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        operationId: String(op.operationId ?? `${method} ${path}`),
        op,
        parameters,
        ...(body ? { body } : {}),
        isPublic: security.length === 0,
        capability: String(op['x-capability'] ?? (security.length === 0 ? 'public' : 'none')),
        maxBodyBytes: Number(op['x-max-body-bytes'] ?? MAX_BODY_BYTES),
      });
    }
  }
  return ops;
}

export function deref(doc: Json, node: Json, seen = 0): Json {
  if (!node || typeof node !== 'object' || typeof node.$ref !== 'string') return node;
  if (seen > 20) throw new Error(`$ref loop at ${node.$ref}`);
  const target = (node.$ref as string)
    .replace(/^#\//, '')
    .split('/')
    .reduce<Json>((o, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  if (!target) throw new Error(`unresolved $ref ${node.$ref}`);
  return deref(doc, target, seen + 1);
}

/** Documented statuses of an operation ('default' and '4XX'-style ranges included). */
export function documentsStatus(op: Operation, status: number): boolean {
  const keys = Object.keys(op.op.responses ?? {});
  return keys.some((k) => k === String(status) || k === 'default' || (/^[1-5]XX$/i.test(k) && k[0] === String(status)[0]));
}

export function responseDoc(doc: Json, op: Operation, status: number): Json | undefined {
  const responses = (op.op.responses ?? {}) as Record<string, Json>;
  const key = String(status) in responses ? String(status) : `${String(status)[0]}XX` in responses ? `${String(status)[0]}XX` : 'default';
  return responses[key] ? deref(doc, responses[key]) : undefined;
}

// ---------------------------------------------------------------------------------------------------
// ajv over the document (for classification and for response bodies)

export class DocValidators {
  private readonly strictAjv: Ajv;
  private readonly coercingAjv: Ajv;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(readonly doc: Json) {
    const make = (coerce: boolean) => {
      const ajv = new Ajv({ allErrors: true, strict: false, discriminator: true, coerceTypes: coerce, useDefaults: coerce, validateFormats: true });
      addFormats.default(ajv);
      ajv.addSchema({ $id: 'openapi-doc', components: rebase(doc.components ?? {}) });
      return ajv;
    };
    this.strictAjv = make(false);
    this.coercingAjv = make(true);
  }

  validator(schema: Json, coerce = false): ValidateFunction {
    const key = `${coerce}:${JSON.stringify(schema)}`;
    let v = this.cache.get(key);
    if (!v) {
      v = (coerce ? this.coercingAjv : this.strictAjv).compile(rebase(schema) as Json);
      this.cache.set(key, v);
    }
    return v;
  }

  /** Errors of `data` against `schema` (empty when valid). Query/path data is coerced like the service does. */
  errors(schema: Json, data: unknown, coerce = false): string[] {
    const v = this.validator(schema, coerce);
    const copy = data === undefined ? undefined : structuredCloneSafe(data);
    return v(copy) ? [] : (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
  }
}

/**
 * `#/components/...` references made absolute against the registered document; a discriminator without
 * its `mapping` (ajv reads the `const` of each `$ref`'d member itself and refuses a mapping).
 */
function rebase(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rebase);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json))
    out[k] =
      k === '$ref' && typeof v === 'string' && v.startsWith('#/')
        ? `openapi-doc${v}`
        : k === 'discriminator' && v && typeof v === 'object' && 'mapping' in v
          ? { propertyName: (v as Json).propertyName }
          : rebase(v);
  return out;
}

function structuredCloneSafe(v: unknown): unknown {
  try {
    return structuredClone(v);
  } catch {
    return JSON.parse(JSON.stringify(v)) as unknown;
  }
}

/** Query or path parameters as one object schema; unknown names are not accepted (the service refuses them). */
export function parametersSchema(op: Operation, where: 'query' | 'path'): Json {
  const ps = op.parameters.filter((p) => p.in === where);
  return {
    type: 'object',
    properties: Object.fromEntries(ps.map((p) => [p.name, p.schema ?? {}])),
    required: ps.filter((p) => p.required || where === 'path').map((p) => p.name),
    additionalProperties: false,
  };
}

// ---------------------------------------------------------------------------------------------------
// Values

/** Strings that break naive code: emoji, RTL, NUL, lone surrogates, BOM, combining marks, injections. */
export const NASTY_STRINGS = [
  '🐔🥚🌾',
  '👩‍🌾🏳️‍🌈',
  '\u202Eevil\u202C',
  'שלום עולם',
  'مرحبا بالعالم',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF',
  'x\uD83Dy',
  '\uFEFFbom',
  'Z̴̡͕a̷l̸g̵o̶',
  '\r\n\t',
  ' ',
  '   ',
  '../../etc/passwd',
  '..%2F..%2F',
  '%00',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as plain text on purpose
  '${7*7}',
  '{{7*7}}',
  "' OR '1'='1",
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '1e308',
  '0x10',
  'USER#x',
  'FARM#x',
  'RATE#general#ip:1',
  '#',
  '\\',
  '"',
  '\u2028\u2029',
  '𝕏'.repeat(30),
  'Ａ',
  'ß',
  'İ',
  'ﬁ',
];

const NASTY_NUMBERS = [-1, 0, -0, 0.5, -0.5, 1e308, -1e308, 5e-324, 2 ** 53 + 2, -(2 ** 53) - 2, 1e21, 4294967296, 1.0000000000000002];
const NUMERIC_STRINGS = ['NaN', 'Infinity', '-Infinity', '1e308', '1e400', '-1', '0', '1.5', '', ' 1', '0x1A', '1_000', '١٢٣'];

const HUGE_LENGTHS = [1_000, 10_000, 50_000, 100_000];
const FILL = ['a', '😀', '\u0000', 'é', ' '];

const hugeString = (min: number) =>
  fc
    .tuple(fc.constantFrom(...new Set([min, ...HUGE_LENGTHS.filter((n) => n > min)])), fc.constantFrom(...FILL))
    .map(([n, c]) => c.repeat(Math.ceil(n / c.length)));

const asciiString = (min: number, max: number) => fc.string({ unit: 'grapheme-ascii', minLength: min, maxLength: max });
const unicodeString = (min: number, max: number) => fc.string({ unit: 'grapheme', minLength: min, maxLength: max });
const anyString = (min: number, max: number) =>
  fc.oneof(
    { weight: 4, arbitrary: asciiString(min, max) },
    { weight: 2, arbitrary: unicodeString(min, max) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: min, maxLength: max }) },
  );

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** Dates around today (so date rules — not in the future, inside the cycle — pass as often as they fail). */
const dateArb = fc.integer({ min: -400, max: 30 }).map((days) => isoDate(new Date(Date.now() + days * 86_400_000)));
const dateTimeArb = fc.integer({ min: -400 * 86_400, max: 86_400 }).map((s) => new Date(Date.now() + s * 1000).toISOString());

/** Which pool a name draws from: the pool of that name, or one whose name ends it (`counterpartFlockId` → `flockId`). */
export function poolFor(pools: Record<string, string[]>, name: string): string[] | undefined {
  if (pools[name]?.length) return pools[name];
  const hit = Object.keys(pools).find((k) => pools[k]!.length > 0 && name.length > k.length && name.endsWith(k[0]!.toUpperCase() + k.slice(1)));
  return hit ? pools[hit] : undefined;
}

export interface GenContext {
  doc: Json;
  pools: Pools;
  depth: number;
}

// ---------------------------------------------------------------------------------------------------
// Valid values from a schema

export function validArb(schema: Json | undefined, ctx: GenContext, name?: string): fc.Arbitrary<unknown> {
  if (!schema || typeof schema !== 'object') return fc.jsonValue({ maxDepth: 2 });
  const s = deref(ctx.doc, schema);
  const deeper = { ...ctx, depth: ctx.depth + 1 };
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  if (Array.isArray(s.allOf) && s.allOf.length > 0) return validArb(mergeAllOf(ctx.doc, s), ctx, name);
  if (Array.isArray(s.oneOf) || Array.isArray(s.anyOf)) {
    const branches = ((s.oneOf ?? s.anyOf) as Json[]).map((b) => deref(ctx.doc, b));
    const usable = ctx.depth > 4 ? branches.filter((b) => b.type !== 'object' && b.type !== 'array') : branches;
    return fc.oneof(...(usable.length ? usable : branches).map((b) => validArb(b, deeper, name)));
  }
  const type = Array.isArray(s.type) ? (s.type as string[]) : s.type ? [s.type as string] : s.properties ? ['object'] : [];
  if (type.length === 0) return fc.jsonValue({ maxDepth: 1 });
  if (type.length > 1) return fc.oneof(...type.map((t) => validArb({ ...s, type: t }, ctx, name)));
  const pool = name ? poolFor(ctx.pools.values, name) : undefined;
  switch (type[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'number': {
      const integer = type[0] === 'integer';
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum : -1e6);
      const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum : 1e6);
      const minExcluded = s.exclusiveMinimum !== undefined && s.minimum === undefined;
      const maxExcluded = s.exclusiveMaximum !== undefined && s.maximum === undefined;
      // whole numbers in range (small ones are the interesting ones: versions, counts), and the bounds
      const lo = Math.max(Math.ceil(minExcluded && Number.isInteger(min) ? min + 1 : min), Number.MIN_SAFE_INTEGER);
      const hi = Math.min(Math.floor(maxExcluded && Number.isInteger(max) ? max - 1 : max), Number.MAX_SAFE_INTEGER);
      const whole =
        lo <= hi ? [fc.integer({ min: lo, max: Math.min(hi, Math.max(lo, 0) + 50) }), fc.integer({ min: lo, max: hi }), fc.constantFrom(lo, hi)] : [];
      if (integer) return whole.length ? fc.oneof({ weight: 3, arbitrary: whole[0]! }, ...whole.slice(1)) : fc.constant(lo);
      const real = fc.double({ min, max, minExcluded, maxExcluded, noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x));
      return fc.oneof({ weight: 3, arbitrary: real }, ...whole);
    }
    case 'string':
      return stringArb(s, pool);
    case 'array': {
      const minItems = Number(s.minItems ?? 0);
      const maxItems = Math.min(Number(s.maxItems ?? 5), minItems + 5);
      const item = validArb(s.items, deeper);
      return s.uniqueItems
        ? fc.uniqueArray(item, { minLength: minItems, maxLength: maxItems, selector: (v) => JSON.stringify(v) })
        : fc.array(item, { minLength: minItems, maxLength: maxItems });
    }
    default:
      return objectArb(s, deeper);
  }
}

function stringArb(s: Json, pool: string[] | undefined): fc.Arbitrary<string> {
  const min = Number(s.minLength ?? 0);
  const max = Number(s.maxLength ?? Math.max(min, 40));
  let arb: fc.Arbitrary<string>;
  if (s.format === 'date') arb = dateArb;
  else if (s.format === 'date-time') arb = dateTimeArb;
  else if (s.format === 'email')
    arb = fc
      .emailAddress()
      .filter((e) => e.length <= max)
      .map((e) => e.toLowerCase());
  else if (typeof s.pattern === 'string') {
    const re = new RegExp(s.pattern as string, 'u');
    const anchored = /^\^.*\$$/.test(s.pattern as string);
    arb = (anchored ? fc.stringMatching(re) : fc.oneof(anyString(Math.max(min, 1), Math.min(max, 40)), fc.stringMatching(re))).filter(
      (x) => re.test(x) && x.length >= min && x.length <= max,
    );
  } else {
    const cap = Math.min(max, Math.max(min, 40));
    arb = fc.oneof(
      { weight: 6, arbitrary: anyString(min, cap) },
      { weight: 1, arbitrary: fc.constantFrom(...NASTY_STRINGS).filter((x) => x.length >= min && x.length <= max) },
      { weight: 1, arbitrary: fc.constant('x'.repeat(max)) },
    );
  }
  return pool?.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...pool) }, { weight: 1, arbitrary: arb }) : arb;
}

function objectArb(s: Json, ctx: GenContext): fc.Arbitrary<Record<string, unknown>> {
  const props = (s.properties ?? {}) as Record<string, Json>;
  const required = ((s.required ?? []) as string[]).filter((r) => r in props || s.additionalProperties !== false);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, v] of Object.entries(props)) model[k] = validArb(v, ctx, k);
  for (const r of required) model[r] ??= fc.jsonValue({ maxDepth: 1 });
  const keys = Object.keys(model);
  const minProps = Number(s.minProperties ?? 0);
  const withPatterns = (arb: fc.Arbitrary<Record<string, unknown>>) => {
    const patterns = Object.entries((s.patternProperties ?? {}) as Record<string, Json>);
    if (patterns.length === 0 || ctx.depth > 5) return arb;
    const [pattern, schema] = patterns[0]!;
    const keyArb = fc.stringMatching(new RegExp(pattern, 'u')).filter((k) => k.length <= 20 && !(k in props));
    const max = Math.min(Number(s.maxProperties ?? 4), 4);
    return fc.tuple(arb, fc.dictionary(keyArb, validArb(schema, ctx), { maxKeys: max })).map(([a, b]) => ({ ...b, ...a }));
  };
  if (keys.length === 0) return withPatterns(fc.constant({}));
  if (required.length === 0 && minProps > 0) {
    return withPatterns(fc.constantFrom(...keys).chain((k) => fc.record(model, { requiredKeys: [k] })));
  }
  return withPatterns(fc.record(model, { requiredKeys: required }));
}

function mergeAllOf(doc: Json, s: Json): Json {
  const out: Json = { ...s, allOf: undefined };
  for (const part of s.allOf as Json[]) {
    const p = deref(doc, part);
    out.type ??= p.type;
    out.properties = { ...(out.properties ?? {}), ...(p.properties ?? {}) };
    out.required = [...(out.required ?? []), ...(p.required ?? [])];
  }
  delete out.allOf;
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Invalid values for a schema (classify() decides whether each one really is)

/** A value of another JSON type than the schema's. */
function wrongTypeArb(s: Json): fc.Arbitrary<unknown> {
  const type = Array.isArray(s.type) ? s.type : [s.type ?? (s.properties ? 'object' : undefined)];
  const candidates: Array<[string, fc.Arbitrary<unknown>]> = [
    ['string', fc.oneof(fc.constantFrom(...NUMERIC_STRINGS), fc.constantFrom(...NASTY_STRINGS))],
    ['number', fc.constantFrom(...NASTY_NUMBERS)],
    ['integer', fc.constantFrom(-1, 0, 1, 2 ** 31, 1e21)],
    ['boolean', fc.boolean()],
    ['null', fc.constant(null)],
    ['array', fc.constantFrom([], [1, 2], [null], [{}], ['a'])],
    ['object', fc.constantFrom({}, { a: 1 }, JSON.parse('{"__proto__":{"admin":true}}') as object, { length: 1 })],
  ];
  const others = candidates.filter(([t]) => !type.includes(t) && !(t === 'integer' && type.includes('number')));
  return fc.oneof(...others.map(([, a]) => a));
}

export function invalidArb(schema: Json | undefined, ctx: GenContext, name?: string): fc.Arbitrary<unknown> {
  if (!schema) return fc.constant(undefined);
  const s = deref(ctx.doc, schema);
  const deeper = { ...ctx, depth: ctx.depth + 1 };
  const arbs: Array<fc.Arbitrary<unknown>> = [wrongTypeArb(s)];
  if (Array.isArray(s.enum) || 'const' in s)
    arbs.push(
      fc.oneof(
        anyString(0, 30),
        fc.constantFrom(...NASTY_STRINGS),
        fc.constant(String(s.enum?.[0] ?? s.const).toUpperCase()),
        fc.constant(` ${String(s.enum?.[0] ?? s.const)}`),
      ),
    );
  if (Array.isArray(s.oneOf) || Array.isArray(s.anyOf)) {
    const branches = ((s.oneOf ?? s.anyOf) as Json[]).map((b) => deref(ctx.doc, b));
    if (ctx.depth < 4) arbs.push(fc.oneof(...branches.map((b) => invalidArb(b, deeper, name))));
    // a valid branch with properties of another branch mixed in
    if (branches.length > 1 && ctx.depth < 3)
      arbs.push(
        fc.tuple(validArb(branches[0], deeper), validArb(branches[branches.length - 1], deeper)).map(([a, b]) => (isObj(a) && isObj(b) ? { ...b, ...a } : a)),
      );
  }
  const type = Array.isArray(s.type) ? s.type[0] : (s.type ?? (s.properties ? 'object' : undefined));
  switch (type) {
    case 'string': {
      const min = Number(s.minLength ?? 0);
      const max = s.maxLength !== undefined ? Number(s.maxLength) : undefined;
      if (max !== undefined)
        arbs.push(
          fc.constantFrom('x', '😀').map((c) => c.repeat(max + 1)),
          hugeString(max + 1),
        );
      else arbs.push(hugeString(HUGE_LENGTHS[0]!));
      if (min > 0) arbs.push(fc.constant('x'.repeat(min - 1)));
      if (s.pattern || s.format)
        arbs.push(
          fc.oneof(
            fc.constantFrom(...NASTY_STRINGS),
            anyString(1, 30),
            fc.constantFrom(
              '2026-02-30',
              '2026-13-01',
              '26-01-01',
              '2026-1-1',
              'yesterday',
              '2026-11-03T25:00:00Z',
              '0000-00-00',
              '../x',
              'a'.repeat(27),
              'A'.repeat(26).replace(/A$/, 'I'),
            ),
          ),
        );
      arbs.push(fc.constantFrom(...NASTY_STRINGS));
      break;
    }
    case 'integer':
    case 'number': {
      arbs.push(fc.constantFrom(...NASTY_NUMBERS), fc.constantFrom(...NUMERIC_STRINGS));
      if (s.minimum !== undefined) arbs.push(fc.constant(Number(s.minimum) - (type === 'integer' ? 1 : 0.001)));
      if (s.exclusiveMinimum !== undefined) arbs.push(fc.constant(Number(s.exclusiveMinimum)));
      if (s.maximum !== undefined) arbs.push(fc.constant(Number(s.maximum) + 1), fc.constant(Number(s.maximum) * 1e300));
      if (type === 'integer') arbs.push(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }).filter((x) => !Number.isInteger(x)));
      break;
    }
    case 'array': {
      const max = s.maxItems !== undefined ? Number(s.maxItems) : 1000;
      const item = validArb(s.items, deeper);
      arbs.push(
        fc.constantFrom(max + 1, 10_000).chain((n) => item.map((v) => Array.from({ length: n }, () => v))),
        fc.array(invalidArb(s.items, deeper), { minLength: 1, maxLength: 3 }),
      );
      if (Number(s.minItems ?? 0) > 0) arbs.push(fc.constant([]));
      if (s.uniqueItems) arbs.push(item.map((v) => [v, v]));
      break;
    }
    case 'object': {
      if (ctx.depth > 4) break;
      const props = (s.properties ?? {}) as Record<string, Json>;
      const required = (s.required ?? []) as string[];
      const base = objectArb(s, deeper);
      if (required.length > 0) arbs.push(fc.tuple(base, fc.constantFrom(...required)).map(([o, k]) => omit(o, k)));
      arbs.push(fc.constant({}));
      const names = Object.keys(props);
      if (names.length > 0) {
        arbs.push(
          fc.tuple(base, fc.constantFrom(...names)).chain(([o, k]) => invalidArb(props[k], deeper, k).map((bad) => ({ ...o, [k]: bad }))),
          fc.tuple(base, fc.constantFrom(...names)).map(([o, k]) => ({ ...o, [k]: null })),
        );
      }
      arbs.push(
        fc
          .tuple(
            base,
            fc.oneof(
              fc.constantFrom('extra', 'isAdmin', 'role', 'id', 'PK', 'createdAt', 'version', '$where', '', ' ', '🐔', 'a.b', 'constructor', 'prototype'),
              anyString(1, 12),
            ),
            fc.jsonValue({ maxDepth: 2 }),
          )
          .map(([o, k, v]) => (k in o ? { ...o, [`${k}_x`]: v } : { ...o, [k]: v })),
        // own "__proto__" key as JSON.parse creates it
        base.map((o) => JSON.parse(JSON.stringify(o).replace(/^\{/, '{"__proto__":{"isAdmin":true,"role":"admin"},').replace(/,\}$/, '}')) as unknown),
        fc.tuple(base, fc.constantFrom(40, 2000)).map(([o, depth]) => ({ ...o, nested: nest(depth) })),
      );
      break;
    }
    default:
      break;
  }
  return fc.oneof(...arbs);
}

/** Lone surrogates replaced by U+FFFD (what a URL or an HTTP header can carry). */
export const wellFormed = (x: string): string => x.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
function omit(o: Record<string, unknown>, k: string): Record<string, unknown> {
  const { [k]: _gone, ...rest } = o;
  return rest;
}
function nest(depth: number): unknown {
  let v: unknown = { leaf: 1 };
  for (let i = 0; i < depth; i++) v = i % 2 ? { a: v } : [v];
  return v;
}

// ---------------------------------------------------------------------------------------------------
// Whole requests

const GARBAGE_IDS = [
  '../',
  '..',
  '../../admin',
  '..%2F..%2Fadmin',
  '.',
  '%',
  '%00',
  ' ',
  'null',
  'undefined',
  '0',
  '-1',
  '1e308',
  'NaN',
  '*',
  '?',
  '#',
  '01JD3Y4Z9V6Q8K2M5N7P0R1S3',
  '01JD3Y4Z9V6Q8K2M5N7P0R1S3TX',
  '01jd3y4z9v6q8k2m5n7p0r1s3t',
  'ULULULULULULULULULULULULUL',
  '00000000000000000000000000',
  'ZZZZZZZZZZZZZZZZZZZZZZZZZZ',
  '2026-02-30',
  '9999-99-99',
  '2026-11-02T00:00:00Z',
  'bird_inflow ',
  'FARM#x',
  "' OR 1=1 --",
  '<svg onload=alert(1)>',
  '🐔',
  '\u202Eevil',
  'a\u0000b',
  'x'.repeat(300),
  'y'.repeat(5000),
];

/** Path segment values; never empty (an empty segment is another route) and always well-formed UTF-16 (a URL carries UTF-8). */
function garbageIdArb(): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.constantFrom(...GARBAGE_IDS),
      anyString(1, 64),
      hugeString(1_000).map((x) => x.slice(0, 10_000)),
    )
    .map(wellFormed)
    .filter((x) => x.length > 0);
}

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/xml',
  'text/html',
  'application/octet-stream',
  'image/png',
  'json',
  'application/javascript',
  '*/*',
  'application/json-patch',
];

/** Malformed JSON derived from a valid body. */
function malformedArb(valid: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  return fc.oneof(
    valid.map((v) => JSON.stringify(v ?? {}).slice(0, -1)),
    valid.map((v) => `${JSON.stringify(v ?? {})},`),
    valid.map((v) => `${JSON.stringify(v ?? {})}}`),
    valid.map((v) => JSON.stringify(v ?? {}).replace(/"/g, "'")),
    valid.map((v) => `\uFEFF${JSON.stringify(v ?? {})}`),
    valid.map((v) => `${JSON.stringify(v ?? {})}\u0000`),
    fc.constantFrom(
      '{',
      '}',
      '[',
      '{"a":}',
      '{"a" 1}',
      'nul',
      'tru',
      'undefined',
      'NaN',
      '{"a":NaN}',
      '{"a":Infinity}',
      '{"a":01}',
      '{"a":"\\x41"}',
      '{"a":"\\ud800"',
      "{'a':1}",
      '{a:1}',
      '\u0000',
      '<xml/>',
      'a=1&b=2',
      '{"a":1}{"b":2}',
      '/* c */ {}',
      '['.repeat(50_000),
    ),
  );
}

/** A body whose JSON text has a number literal no double can hold (JSON.parse makes it ±Infinity or 0). */
function overflowLiteralArb(valid: fc.Arbitrary<unknown>): fc.Arbitrary<string | undefined> {
  return fc.tuple(valid, fc.constantFrom('1e400', '-1e400', '1e-400', '123456789012345678901234567890')).map(([v, lit]) => {
    const text = JSON.stringify(v ?? {});
    return /(:|\[|,)(-?\d+(\.\d+)?([eE][+-]?\d+)?)/.test(text) ? text.replace(/(:|\[|,)(-?\d+(\.\d+)?([eE][+-]?\d+)?)/, `$1${lit}`) : undefined;
  });
}

// ---------------------------------------------------------------------------------------------------
// Deep nesting where a body may nest: inside a recursive schema (one that declares `x-maxDepth`), in its
// own shape, or else inside a declared object or array field. Sent as JSON text: a value 5,000 levels
// deep is built as a string (JSON.stringify of it would overflow the stack).

/** The depths sent: one past a recursive schema's limit, and far past any limit. */
const DEEP_LEVELS = [1_000, 5_000];

type Step = { key: string } | { index: true };

/** The keys a schema's `propertyNames` lets through, from a few candidates (a json-logic operator such as `and`). */
function keyFor(doc: Json, s: Json): string {
  const names = s.propertyNames ? deref(doc, s.propertyNames) : undefined;
  const re = typeof names?.pattern === 'string' ? new RegExp(names.pattern as string, 'u') : undefined;
  const refused = new Set<unknown>((names?.not?.enum as unknown[] | undefined) ?? []);
  return ['and', 'or', 'a', 'x', 'k'].find((k) => (!re || re.test(k)) && !refused.has(k)) ?? 'a';
}

/**
 * How a schema that declares `x-maxDepth` contains itself: the steps (a property, an array item) from the
 * schema back to a reference to it, breadth first. Undefined when it does not.
 */
function recursionOf(doc: Json, ref: string): Step[] | undefined {
  const root = deref(doc, { $ref: ref });
  const queue: Array<{ s: Json; steps: Step[] }> = [{ s: root, steps: [] }];
  for (let n = 0; queue.length > 0 && n < 500; n++) {
    const { s, steps } = queue.shift()!;
    if (!s || typeof s !== 'object') continue;
    if (s.$ref === ref && steps.length > 0) return steps;
    const node = s.$ref ? deref(doc, s) : s;
    for (const b of [...((node.anyOf ?? []) as Json[]), ...((node.oneOf ?? []) as Json[])]) queue.push({ s: b, steps });
    for (const [k, v] of Object.entries((node.properties ?? {}) as Record<string, Json>)) queue.push({ s: v, steps: [...steps, { key: k }] });
    if (node.additionalProperties && typeof node.additionalProperties === 'object')
      queue.push({ s: node.additionalProperties as Json, steps: [...steps, { key: keyFor(doc, node) }] });
    if (node.items && typeof node.items === 'object') queue.push({ s: node.items as Json, steps: [...steps, { index: true }] });
  }
  return undefined;
}

/** Where in a body the nesting goes: a field holding a recursive schema (with its limit and recursion), else a declared object or array field. */
function deepTarget(doc: Json, body: Json): { field: string; ref?: string; steps: Step[]; limit?: number } | undefined {
  const top = deref(doc, body);
  const fields = Object.entries((top.properties ?? {}) as Record<string, Json>);
  for (const [field, schema] of fields) {
    const branches = [schema, ...((deref(doc, schema).anyOf ?? []) as Json[]), ...((deref(doc, schema).oneOf ?? []) as Json[])];
    for (const b of branches) {
      if (typeof b.$ref !== 'string') continue;
      const target = deref(doc, b);
      if (typeof target['x-maxDepth'] !== 'number') continue;
      const steps = recursionOf(doc, b.$ref as string);
      if (steps) return { field, ref: b.$ref as string, steps, limit: target['x-maxDepth'] as number };
    }
  }
  for (const [field, schema] of fields) {
    const s = deref(doc, schema);
    if (s.type === 'array') return { field, steps: [{ index: true }] };
    if (s.type === 'object' || s.properties) return { field, steps: [{ key: Object.keys(s.properties ?? {})[0] ?? 'a' }] };
  }
  return undefined;
}

/** `levels` repetitions of the steps around a leaf, as JSON text (one step: one level of objects or arrays). */
function nestedText(steps: Step[], levels: number, leaf: string): string {
  const open = steps.map((st) => ('key' in st ? `{${JSON.stringify(st.key)}:` : '[')).join('');
  const close = [...steps]
    .reverse()
    .map((st) => ('key' in st ? '}' : ']'))
    .join('');
  const times = Math.max(1, Math.ceil(levels / steps.length));
  return `${open.repeat(times)}${leaf}${close.repeat(times)}`;
}

/**
 * A body nested deep where it may nest (kind `body.deep-nesting`): one past a recursive field's declared
 * limit and thousands of levels, in the field's own shape; else thousands of levels in a declared object or
 * array field; else the whole body. Always refused with 400 naming the field.
 */
function deepNestingArb(doc: Json, body: Json, valid: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  const target = deepTarget(doc, body);
  if (!target) return fc.constantFrom(...DEEP_LEVELS).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`);
  const levels = [...(target.limit !== undefined ? [target.limit + 1] : []), ...DEEP_LEVELS];
  return fc.tuple(valid, fc.constantFrom(...levels)).map(([v, n]) => {
    const base = isObj(v) ? { ...v } : {};
    base[target.field] = '__DEEP__';
    return JSON.stringify(base).replace('"__DEEP__"', nestedText(target.steps, n, '1'));
  });
}

export interface RequestOptions {
  /** Share of requests sent as the low-privilege user (default 0.2). */
  lowShare?: number;
}

/**
 * Arbitrary requests for one operation: a mix of valid requests (about half) and invalid variants of
 * each part (caller, path parameters, query, headers, body, transport).
 */
export function requestArb(op: Operation, pools: Pools, doc: Json): fc.Arbitrary<GeneratedRequest> {
  const ctx: GenContext = { doc, pools, depth: 0 };
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const headerParams = op.parameters.filter((p) => p.in === 'header');

  const caller: fc.Arbitrary<Caller> = fc.oneof(
    { weight: 14, arbitrary: fc.constant('admin' as const) },
    { weight: 4, arbitrary: fc.constant('low' as const) },
    { weight: 1, arbitrary: fc.constant('none' as const) },
    { weight: 1, arbitrary: fc.constant('garbage-token' as const) },
  );

  // path: one coherent fixture record (a flock with ITS cycle and movement) and, per parameter, its
  // real value, a value from the parameter schema (a well-formed id of nothing), or garbage
  const paramArb = (p: Parameter, record: Record<string, string> | undefined): fc.Arbitrary<[string, 'real' | 'schema' | 'garbage']> => {
    const real = record?.[p.name] ?? poolFor(pools.values, p.name)?.[0];
    const fromSchema = validArb(p.schema, ctx, undefined)
      .map((v) => wellFormed(String(v)))
      .filter((v) => v.length > 0);
    return fc.oneof(
      ...(real !== undefined ? [{ weight: 8, arbitrary: fc.constant([real, 'real'] as [string, 'real']) }] : []),
      { weight: 1, arbitrary: fromSchema.map((v) => [v, 'schema'] as [string, 'schema']) },
      { weight: 1, arbitrary: garbageIdArb().map((v) => [v, 'garbage'] as [string, 'garbage']) },
    );
  };
  const recordArb = pools.records.length ? fc.constantFrom(...pools.records) : fc.constant(undefined);
  const pathArb = recordArb
    .chain((record) => fc.tuple(...pathParams.map((p) => paramArb(p, record))))
    .map((vals) => ({
      params: Object.fromEntries(vals.map(([v], i) => [pathParams[i]!.name, v])),
      realIds: vals.some(([, k]) => k === 'real'),
      garbage: vals.some(([, k]) => k === 'garbage'),
    }));

  // query: valid (optional ones sometimes), one invalid value, or an unknown parameter
  const queryValid = fc.record(Object.fromEntries(queryParams.map((p) => [p.name, validArb(p.schema, ctx, p.name).map((v) => String(v))])), {
    requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name),
  }) as fc.Arbitrary<Record<string, string>>;
  const queryArb: fc.Arbitrary<[Record<string, string> | undefined, string]> = fc.oneof(
    { weight: 6, arbitrary: queryValid.map((q) => [Object.keys(q).length ? q : undefined, 'valid'] as [Record<string, string> | undefined, string]) },
    ...(queryParams.length
      ? [
          {
            weight: 1,
            arbitrary: fc
              .tuple(queryValid, fc.constantFrom(...queryParams))
              .chain(([q, p]) =>
                invalidArb(p.schema, ctx, p.name).map(
                  (bad) =>
                    [{ ...q, [p.name]: wellFormed(typeof bad === 'string' ? bad : (JSON.stringify(bad) ?? 'undefined')) }, 'query.invalid'] as [
                      Record<string, string>,
                      string,
                    ],
                ),
              ),
          },
        ]
      : []),
    {
      weight: 1,
      arbitrary: fc
        .tuple(queryValid, fc.constantFrom('debug', 'admin', 'limit', 'x', '__proto__', 'callback', '$where'), fc.constantFrom('1', 'true', '', '🐔'))
        .map(([q, k, v]) => [{ ...q, [k in q ? `${k}2` : k]: v }, 'query.unknown'] as [Record<string, string>, string]),
    },
  );

  const headerValue = (_p: Parameter): fc.Arbitrary<string | undefined> =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constant(undefined) },
      // a few shared values so replays and version matches happen
      { weight: 2, arbitrary: fc.constantFrom('fuzz-key-1', 'fuzz-key-2', '"1"', '"2"', 'W/"1"', '1') },
      { weight: 1, arbitrary: asciiString(1, 40).map((v) => v.replace(/[^\x21-\x7e]/g, 'k') || 'k') },
      {
        weight: 1,
        arbitrary: fc.oneof(
          fc.constantFrom('', ' ', '*', '"abc"', 'W/"x"', '"-1"', '"1e308"', 'k'.repeat(256), 'ключ', 'a b', 'a\tb'),
          fc.constantFrom(...NASTY_STRINGS).map(wellFormed),
        ),
      },
    );
  const headersArb = fc
    .tuple(...headerParams.map(headerValue))
    .map((vals) => Object.fromEntries(vals.flatMap((v, i) => (v === undefined ? [] : [[headerParams[i]!.name, v]]))) as Record<string, string>);

  type BodyPart = { kind: string; body?: unknown; rawBody?: string; headers?: Record<string, string> };
  let bodyArb: fc.Arbitrary<BodyPart>;
  if (op.body) {
    const valid = validArb(op.body, ctx);
    const nastyValid = valid.chain((v) => fc.constantFrom(...NASTY_STRINGS).map((n) => replaceStrings(v, n)));
    bodyArb = fc.oneof(
      { weight: 10, arbitrary: valid.map((body) => ({ kind: 'valid', body })) },
      { weight: 2, arbitrary: nastyValid.map((body) => ({ kind: 'body.unicode', body })) },
      { weight: 8, arbitrary: invalidArb(op.body, ctx).map((body) => ({ kind: 'body.invalid', body })) },
      { weight: 1, arbitrary: malformedArb(valid).map((rawBody) => ({ kind: 'body.malformed-json', rawBody })) },
      {
        weight: 1,
        arbitrary: overflowLiteralArb(valid).map((rawBody) =>
          rawBody === undefined ? { kind: 'body.empty', rawBody: '' } : { kind: 'body.number-overflow', rawBody },
        ),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(valid, fc.constantFrom(...CONTENT_TYPES))
          .map(([v, ct]) => ({ kind: 'body.content-type', rawBody: JSON.stringify(v), headers: { 'Content-Type': ct } })),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(MAX_BODY_BYTES + 1, 300_000).map((n) => ({ kind: 'body.too-large', rawBody: JSON.stringify({ pad: 'x'.repeat(n) }) })),
      },
      { weight: 1, arbitrary: fc.constantFrom('', 'null', '[]', '""', '0', 'true').map((rawBody) => ({ kind: 'body.bare-json', rawBody })) },
      { weight: 1, arbitrary: deepNestingArb(doc, op.body, valid).map((rawBody) => ({ kind: 'body.deep-nesting', rawBody })) },
    );
  } else {
    bodyArb = fc.oneof(
      { weight: 12, arbitrary: fc.constant({ kind: 'valid' }) },
      // an operation without a request body still gets one now and then (API Gateway passes it on)
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((body) => ({ kind: 'unexpected-body.json', body })) },
      { weight: 1, arbitrary: malformedArb(fc.constant({})).map((rawBody) => ({ kind: 'unexpected-body.malformed-json', rawBody })) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(...CONTENT_TYPES).map((ct) => ({ kind: 'unexpected-body.content-type', rawBody: 'x=1', headers: { 'Content-Type': ct } })),
      },
    );
  }

  return fc
    .record({ caller, path: pathArb, query: queryArb, headers: headersArb, body: bodyArb })
    .map(({ caller: who, path, query: [query, qkind], headers, body }) => {
      const kinds = [body.kind !== 'valid' ? body.kind : '', qkind !== 'valid' ? qkind : '', path.garbage ? 'param.garbage' : ''].filter(Boolean);
      return {
        kind: kinds.length ? kinds.join('+') : 'valid',
        caller: who,
        params: path.params,
        ...(query ? { query } : {}),
        headers: { ...headers, ...(body.headers ?? {}) },
        ...('body' in body ? { body: body.body } : {}),
        ...(body.rawBody !== undefined ? { rawBody: body.rawBody } : {}),
        realIds: path.realIds,
      };
    });
}

/** Every string inside a value replaced by `s` (keys kept). */
function replaceStrings(v: unknown, s: string): unknown {
  if (typeof v === 'string') return s;
  if (Array.isArray(v)) return v.map((x) => replaceStrings(x, s));
  if (isObj(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, replaceStrings(x, s)]));
  return v;
}

/** The concrete path of a request (each parameter percent-encoded as one segment). */
export function concretePath(op: Operation, params: Record<string, string>): string {
  return op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(params[name] ?? ''));
}

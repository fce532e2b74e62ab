/**
 * The exact contract of the OpenAPI document, for tests:
 * - `untypedObjects(doc)`: every object of a success (2xx) response schema that declares no fields (neither
 *   `properties` nor a map's value schema), every `additionalProperties: true` and every `{}` standing for a
 *   value (tests/unit/openapi-typed.test.ts keeps the list empty);
 * - `closeSchema` / `closeDocument`: copies with every object CLOSED (`additionalProperties: false` added
 *   recursively), so a field the API returns but the document does not declare fails validation; the
 *   published document may keep objects open for extension, the tests never do;
 * - `contractChecker(doc)`: validates a response (method, concrete path, status, content type, body)
 *   against the closed schema of its operation (the e2e suites and the fuzzer use it).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { ROOT } from '../../scripts/lib/route-table.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON documents

export const DOCUMENT_FILE = join(ROOT, 'schemas', 'compiled', 'openapi.json');
export const loadDocument = (): Json => JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')) as Json;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
/** A JSON media type: application/json or a `+json` suffix (RFC 6839); JSON Lines (application/x-ndjson) is not one JSON value. */
export const isJsonMedia = (media: string | null | undefined): boolean => /^application\/(?:[\w.-]+\+)?json$/i.test((media ?? '').split(';')[0]!.trim());
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Keywords that only annotate: a schema holding nothing else accepts any value. */
const ANNOTATIONS = new Set(['description', 'title', 'examples', 'example', 'default', 'deprecated', 'readOnly', 'writeOnly', '$comment']);

/** The subschemas of a schema node, with the JSON-pointer-ish step that reaches each. */
function children(s: Json): Array<[string, Json]> {
  const out: Array<[string, Json]> = [];
  for (const key of ['properties', 'patternProperties', '$defs', 'definitions'])
    if (isObj(s[key])) for (const [k, v] of Object.entries(s[key] as Json)) if (isObj(v)) out.push([`${key === 'properties' ? '' : `${key}/`}${k}`, v]);
  for (const key of ['additionalProperties', 'unevaluatedProperties', 'items', 'contains', 'not', 'if', 'then', 'else', 'propertyNames'])
    if (isObj(s[key])) out.push([key === 'items' ? '[]' : key, s[key] as Json]);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'])
    if (Array.isArray(s[key])) for (const [i, v] of (s[key] as unknown[]).entries()) if (isObj(v)) out.push([`${key}[${i}]`, v]);
  return out;
}

export interface UntypedObject {
  /** `GET /api/v1/dashboard 200` */
  operation: string;
  /** Where in the body: `data/kpis`, `data/days[]`… (through components: `→ Figure`). */
  at: string;
  problem: 'object without fields' | 'additionalProperties: true' | 'untyped value {}';
}

/** Every untyped object of the success responses of `doc` (each place counted once per operation). */
export function untypedObjects(doc: Json): UntypedObject[] {
  const out: UntypedObject[] = [];
  const resolve = (ref: string): Json =>
    ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<Json>((o, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Json)) {
    for (const method of METHODS) {
      const op = (item as Json)[method] as Json | undefined;
      if (!op) continue;
      for (const [status, response] of Object.entries((op.responses ?? {}) as Json)) {
        if (!/^2/.test(status)) continue;
        const operation = `${method.toUpperCase()} ${path} ${status}`;
        const responseObj = typeof (response as Json).$ref === 'string' ? resolve((response as Json).$ref) : (response as Json);
        for (const [media, content] of Object.entries((responseObj?.content ?? {}) as Json)) {
          if (!isJsonMedia(media) || !isObj((content as Json).schema)) continue;
          const seen = new Set<string>();
          const walk = (s: Json, at: string): void => {
            if (typeof s.$ref === 'string') {
              if (seen.has(s.$ref)) return;
              seen.add(s.$ref);
              const target = resolve(s.$ref);
              if (!isObj(target)) throw new Error(`unresolved ${s.$ref}`);
              walk(target, `${at} → ${s.$ref.split('/').pop()}`);
              return;
            }
            const keys = Object.keys(s).filter((k) => !ANNOTATIONS.has(k));
            if (keys.length === 0) out.push({ operation, at, problem: 'untyped value {}' });
            if (s.additionalProperties === true || s.unevaluatedProperties === true) out.push({ operation, at, problem: 'additionalProperties: true' });
            const isObject = s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object'));
            const declares = (isObj(s.properties) && Object.keys(s.properties).length > 0) || isObj(s.patternProperties) || isObj(s.additionalProperties);
            if (isObject && !declares && s.additionalProperties !== false) out.push({ operation, at, problem: 'object without fields' });
            for (const [step, child] of children(s)) walk(child, at ? `${at}/${step}` : step);
          };
          walk((content as Json).schema as Json, '');
        }
      }
    }
  }
  return out;
}

/** A copy of `schema` with every object closed: `additionalProperties: false` wherever it was absent or true. */
export function closeSchema<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(closeSchema) as T;
  if (!isObj(schema)) return schema;
  const s: Json = { ...schema };
  for (const key of ['properties', 'patternProperties', '$defs', 'definitions'])
    if (isObj(s[key])) s[key] = Object.fromEntries(Object.entries(s[key] as Json).map(([k, v]) => [k, closeSchema(v)]));
  for (const key of ['additionalProperties', 'items', 'contains', 'not', 'if', 'then', 'else']) if (isObj(s[key])) s[key] = closeSchema(s[key]);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) if (Array.isArray(s[key])) s[key] = (s[key] as unknown[]).map(closeSchema);
  if (Array.isArray(s.allOf)) throw new Error('closeSchema: allOf cannot be closed branch by branch (use unevaluatedProperties)');
  const isObject = s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object')) || isObj(s.properties);
  if (isObject && (s.additionalProperties === undefined || s.additionalProperties === true)) s.additionalProperties = false;
  return s as T;
}

/** The document with every component schema and every response schema closed (request bodies untouched). */
export function closeDocument(doc: Json): Json {
  const out = structuredClone(doc);
  const schemas = (out.components?.schemas ?? {}) as Json;
  for (const name of Object.keys(schemas)) schemas[name] = closeSchema(schemas[name]);
  const closeResponse = (response: Json) => {
    for (const content of Object.values((response.content ?? {}) as Json))
      if (isObj((content as Json).schema)) (content as Json).schema = closeSchema((content as Json).schema);
  };
  for (const response of Object.values((out.components?.responses ?? {}) as Json)) closeResponse(response as Json);
  for (const item of Object.values((out.paths ?? {}) as Json))
    for (const method of METHODS) for (const response of Object.values(((item as Json)[method]?.responses ?? {}) as Json)) closeResponse(response as Json);
  return out;
}

/** A response object, its `$ref` (to components.responses) followed. */
function responseObject(doc: Json, response: Json): Json {
  let r = response;
  for (let i = 0; i < 10 && typeof r?.$ref === 'string'; i++)
    r = (r.$ref as string)
      .replace(/^#\//, '')
      .split('/')
      .reduce<Json>((o, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  return r ?? {};
}

/**
 * For ajv: `#/components/...` references made absolute against the document registered as `id`, and
 * discriminators without `mapping` (ajv picks the oneOf branch by the tag's `const`; it refuses `mapping`).
 */
function rebase(node: unknown, id: string): unknown {
  if (Array.isArray(node)) return node.map((n) => rebase(n, id));
  if (!isObj(node)) return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/')) return [k, `${id}${v}`];
      if (k === 'discriminator' && isObj(v) && typeof v.propertyName === 'string') return [k, { propertyName: v.propertyName }];
      return [k, rebase(v, id)];
    }),
  );
}

/** The template path of the document that `path` (concrete, without query) is an instance of; literal segments win over parameters. */
export function templateOf(doc: Json, method: string, path: string): string | undefined {
  const segments = path.split('?')[0]!.split('/');
  let best: { template: string; literals: number } | undefined;
  for (const [template, item] of Object.entries((doc.paths ?? {}) as Json)) {
    if (!(item as Json)[method.toLowerCase()]) continue;
    const tpl = template.split('/');
    if (tpl.length !== segments.length) continue;
    let literals = 0;
    const ok = tpl.every((t, i) => {
      if (/^\{.+\}$/.test(t)) return segments[i] !== '';
      literals++;
      return t === segments[i];
    });
    if (ok && (!best || literals > best.literals)) best = { template, literals };
  }
  return best?.template;
}

export interface ContractChecker {
  /** Errors of a JSON response to `method path` (concrete) against the closed schema its operation documents for that status (empty: it conforms). */
  errors(method: string, path: string, status: number, contentType: string | null, body: unknown): string[];
  /** The same for an operation named by its path template. */
  operationErrors(method: string, template: string, status: number, contentType: string | null, body: unknown): string[];
}

/** Validates responses against the closed copy of `doc` (default: schemas/compiled/openapi.json, from `npm run generate`). */
export function contractChecker(doc: Json = loadDocument()): ContractChecker {
  const closed = closeDocument(doc);
  const ajv = new Ajv({ allErrors: true, strict: false, discriminator: true, validateFormats: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'closed-doc', components: rebase(closed.components ?? {}, 'closed-doc') });
  const cache = new Map<string, ValidateFunction>();
  const checker: ContractChecker = {
    errors(method, path, status, contentType, body) {
      const template = templateOf(closed, method, path);
      if (template) return checker.operationErrors(method, template, status, contentType, body);
      // Not an operation (the catch-all's 404, a method the path does not take): the error envelope.
      if (status >= 400) return validateWith('Error', { $ref: '#/components/schemas/Error' }, body);
      return [`${method} ${path} answered ${status} but is not an operation of the document`];
    },
    operationErrors(method, template, status, contentType, body) {
      const responses = (closed.paths[template][method.toLowerCase()].responses ?? {}) as Json;
      const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in responses);
      if (!key) return [`${method} ${template}: status ${status} is not documented (documented: ${Object.keys(responses).join(', ')})`];
      const media = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
      const schema = responseObject(closed, responses[key]).content?.[media]?.schema as Json | undefined;
      if (!schema) return isJsonMedia(media) ? [`${method} ${template} ${status}: ${media} is not documented`] : [];
      return validateWith(`${method} ${template} ${key} ${media}`, schema, body);
    },
  };
  function validateWith(cacheKey: string, schema: Json, body: unknown): string[] {
    let validate = cache.get(cacheKey);
    if (!validate) {
      validate = ajv.compile(rebase(schema, 'closed-doc') as Json);
      cache.set(cacheKey, validate);
    }
    return validate(structuredClone(body))
      ? []
      : (validate.errors ?? []).map(
          (e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}${e.keyword === 'additionalProperties' ? ` (${String(e.params.additionalProperty)})` : ''}`,
        );
  }
  return checker;
}

/**
 * The e2e client (tests/support/http.ts) with every JSON response checked against the closed schema of its
 * operation: a response that does not conform throws, failing the test that got it.
 */
export function checkedClient<Req, R extends { status: number; headers: Headers; body: unknown; text: string }>(
  http: (method: string, path: string, req?: Req) => Promise<R>,
  checker: ContractChecker = contractChecker(),
): (method: string, path: string, req?: Req) => Promise<R> {
  return async (method, path, req) => {
    const res = await http(method, path, req);
    assertDocumented(checker, method, path, res.status, res.headers.get('content-type'), res.body, res.text);
    return res;
  };
}

/**
 * The in-process client (tests/support/api.ts `call`) with the same check: every JSON response must match
 * the closed schema of its operation, else the call throws.
 */
export function checkedCall<Opts, R extends { status: number; headers: Record<string, string>; body: unknown; raw: string }>(
  call: (method: string, path: string, opts?: Opts) => Promise<R>,
  checker: ContractChecker = contractChecker(),
): (method: string, path: string, opts?: Opts) => Promise<R> {
  return async (method, path, opts) => {
    const res = await call(method, path, opts);
    const contentType = Object.entries(res.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? null;
    assertDocumented(checker, method, path, res.status, contentType, res.body, res.raw);
    return res;
  };
}

/** Throws when a JSON answer does not match the closed schema of its operation and status. */
function assertDocumented(
  checker: ContractChecker,
  method: string,
  path: string,
  status: number,
  contentType: string | null,
  body: unknown,
  text: string,
): void {
  if (method === 'HEAD' || !isJsonMedia(contentType)) return;
  const errs = body === undefined ? ['body is not JSON'] : checker.errors(method, path, status, contentType, body);
  if (errs.length)
    throw new Error(
      `${method} ${path} → ${status}: the body does not match the documented (closed) schema: ${errs.slice(0, 6).join('; ')}\n${text.slice(0, 500)}`,
    );
}

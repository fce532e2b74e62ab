/**
 * Builds the OpenAPI 3.1 document from the route table (routes.yml) and each handler's declared
 * RouteSpec (capability, request schemas, responses). Nothing is described twice: request bodies,
 * parameters and the validators all come from the same TypeBox schemas; a response names its schema in
 * schemas/responses.ts, resolved here (the functions never load it).
 */
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { availableGroups, SERVICE } from '../../shared/presentation/service-info.js';
import { limiterClassesFor, rateLimits } from '../../shared/config/rate-limits.js';
import { ErrorResponse, ValidationErrorResponse } from '../../schemas/common.js';
import * as RESPONSE_SCHEMAS from '../../schemas/responses.js';
import type { ResponseDoc, RouteSpec } from '../../shared/http/context.js';
import { REQUEST_HEADER_SCHEMAS } from '../../shared/http/request-headers.js';
import { RESPONSE_HEADERS, type ResponseHeader } from '../../shared/http/responses.js';
import { ROOT, apiRoutes, type RouteEntry } from './route-table.js';
import { idFields } from './body-ids.js';

type Json = Record<string, unknown>;

export async function loadSpecs(routes: RouteEntry[]): Promise<Map<string, RouteSpec>> {
  const specs = new Map<string, RouteSpec>();
  for (const file of new Set(routes.map((r) => r.file))) {
    const mod = (await import(pathToFileURL(join(ROOT, file)).href)) as { handler?: { route?: RouteSpec } };
    if (!mod.handler?.route) throw new Error(`${file} does not export a handler built with httpHandler/publicHandler`);
    specs.set(file, mod.handler.route);
  }
  return specs;
}

/**
 * Plain JSON copy; nested schemas with `$id` move to components and are referenced, and so are the
 * references by `$id` that recursive schemas use (`{$ref: 'JsonLogicCondition'}`, which the validators
 * resolve within their own schema).
 */
function componentize(schema: unknown, components: Json): unknown {
  if (Array.isArray(schema)) return schema.map((s) => componentize(s, components));
  if (typeof schema !== 'object' || schema === null) return schema;
  const obj = schema as Json;
  const out: Json = {};
  for (const [k, v] of Object.entries(obj)) {
    if (k === '$id') continue;
    out[k] = k === '$ref' && typeof v === 'string' && !v.includes('#') ? `#/components/schemas/${v}` : componentize(v, components);
  }
  const id = obj.$id;
  if (typeof id !== 'string') return out;
  components[id] ??= liftDiscriminated(id, out, components);
  return { $ref: `#/components/schemas/${id}` };
}

const pascal = (s: string) => s.replace(/(?:^|[_\-\s]+)(\w)/g, (_m, c: string) => c.toUpperCase());

/**
 * A `oneOf` with a `discriminator` selects its member by `$ref` (OpenAPI): inline members whose
 * discriminating property is a `const` move to components as `<Value><Stem>` (`bird_inflow` of
 * `CreateMovementBody` → `BirdInflowMovement`), with a `discriminator.mapping` from each value to its member;
 * a member that has its own `$id` (already a component, e.g. `FeedDeliveryMovementRecord`) is mapped as it is.
 * The validators keep the inline schema (AJV's discriminator needs no mapping).
 */
function liftDiscriminated(id: string, schema: Json, components: Json): Json {
  const property = (schema.discriminator as { propertyName?: string } | undefined)?.propertyName;
  if (!property || !Array.isArray(schema.oneOf)) return schema;
  const stem = id.replace(/^Create|Body$/g, '');
  const mapping: Record<string, string> = {};
  const constOf = (member: Json) => ((member.properties as Record<string, Json> | undefined)?.[property] as Json | undefined)?.const;
  const oneOf = (schema.oneOf as Json[]).map((member) => {
    if (typeof member.$ref === 'string') {
      // a member with its own $id, already lifted: mapped to its component
      const value = constOf((components[member.$ref.replace('#/components/schemas/', '')] ?? {}) as Json);
      if (typeof value === 'string') mapping[value] = member.$ref;
      return member;
    }
    const value = constOf(member);
    if (typeof value !== 'string') return member;
    const name = `${pascal(value)}${stem}`;
    components[name] ??= member;
    mapping[value] = `#/components/schemas/${name}`;
    return { $ref: mapping[value] };
  });
  return { ...schema, oneOf, discriminator: { propertyName: property, mapping } };
}

const plain = (s: unknown): Json => JSON.parse(JSON.stringify(s)) as Json;

/** A response's body schema: a name of schemas/responses.ts (what routes declare), or a text body's inline schema. */
function responseSchema(schema: NonNullable<ResponseDoc['schema']>, route: RouteEntry): unknown {
  if (typeof schema !== 'string') return schema;
  const named = (RESPONSE_SCHEMAS as Record<string, unknown>)[schema];
  if (!named) throw new Error(`${route.file}: no response schema named ${schema} in schemas/responses.ts`);
  return named;
}
const errorRef = { $ref: '#/components/schemas/Error' };
const errorContent = (schema: unknown = errorRef) => ({ 'application/json': { schema } });

/** Descriptions of the tags (one per folder of functions/): a new group must add its own. */
const TAGS: Record<string, string> = {
  admin: 'Admin control plane: users, capabilities and the audit trail (admin only)',
  analytics: 'Analytics V2: KPIs per day, cycle and breed standard, predictions, anomalies, financials, suppliers, and the records they read',
  auth: 'Sign-up, e-mail verification, sign-in and sign-out',
  config: 'Farms, houses, the analytics configuration (prices, thresholds, fallbacks) and each farm’s own prices',
  dashboard: 'Role-specific summaries',
  'flock-analytics': 'KPIs across the cycles of a flock and across flocks: history, comparison, ranking',
  flocks: 'Flocks, their cycles, the movement ledger, daily records and weighings',
  inventory: 'Movements across a farm: stock, search, CSV export and the movement input forms',
  optimization: 'Recommendations: proposals, decisions and generation',
  public: 'Without a token: service information, health, this document and its browser',
  iot: 'Sensors: the device registry, ingestion of sensor frames (device key or the IoT Core rule), hourly and daily rollups, house conditions',
  operations: 'Incidents: opened by hand or by jobs, owned until resolved, with an append-only timeline, dedup keys and response-time metrics',
  scale: 'Weight batches sent by connected scales',
  rules: 'Alarm rules: a calculation or sensor metric over a window, a condition, a severity and actions; the calculation catalogue and backtests',
  anomalies:
    'Detections of rules and statistical detectors, with evidence and ranked hypotheses; acknowledged, resolved, dismissed or escalated to an incident',
  predictive:
    'Forecasts computed by the hourly job: weight and harvest date, FCR, eggs, feed run-out, health and device failure risks; runs and forecast accuracy',
  schedules:
    'Feeding, vaccination, medication and other schedules: occurrences computed on the farm’s calendar, the agenda, completions (with their movements) and skips, programme templates',
  procurement:
    'Suppliers, purchase orders and their receipts (which write feed deliveries and chick placements to the ledger), supplier reliability and feed reorder suggestions',
  continuity:
    'Business continuity: farm exports (versioned JSON Lines with a checksum), their restore into a new farm checked against the source’s figures, backup status (point-in-time recovery, RPO/RTO), preparedness drills and readiness',
  sharing: 'Transfers of birds, feed, eggs and equipment between farms: requested by the sender, approved by the receiver, completed on both sides at once',
  compliance:
    'Withdrawal periods of medications (sales inside one are refused unless overridden), Salmonella sampling, the cycle’s compliance report (JSON or CSV) and a farm’s status, each rule with its public source',
};

/**
 * The error answers the stack adds to every operation (see `operation`), as components/responses: one
 * description and one set of headers for all the routes that count against a rate limit.
 */
const COMMON_ERRORS: Record<number, { name: string; description: string; schema?: unknown; headers?: ResponseHeader[] }> = {
  400: {
    name: 'BadRequest',
    description: 'Invalid request: validation failures name each field in `details`; also malformed JSON or an unexpected query parameter',
    schema: { $ref: '#/components/schemas/ValidationError' },
  },
  401: { name: 'Unauthenticated', description: 'Missing, invalid, expired or revoked token', headers: ['WWW-Authenticate'] },
  404: { name: 'NotFound', description: 'Not found' },
  412: { name: 'PreconditionFailed', description: 'If-Match does not match the current version' },
  413: { name: 'PayloadTooLarge', description: 'Request body too large' },
  415: {
    name: 'UnsupportedMediaType',
    description: 'A body with a Content-Type other than application/json (or a `+json` type); a body without one is read as JSON',
  },
  422: { name: 'IdempotencyKeyReused', description: 'Idempotency-Key reused with another body' },
  429: {
    name: 'TooManyRequests',
    description: 'Rate limit hit: retry after Retry-After seconds (RateLimit and RateLimit-Policy tell the limits)',
    headers: ['Retry-After'],
  },
  500: { name: 'InternalError', description: 'Internal server error (never with details)' },
  503: {
    name: 'Unavailable',
    description: 'The database is unavailable or throttled: nothing was written, retry after Retry-After seconds',
    headers: ['Retry-After'],
  },
};

/** The headers of one answer as references to components/headers (which are added as they are used). */
function headerRefs(names: readonly ResponseHeader[], used: Set<ResponseHeader>): Json | undefined {
  if (names.length === 0) return undefined;
  const unique = [...new Set(names)];
  for (const n of unique) used.add(n);
  return Object.fromEntries(unique.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
}

function parameters(where: 'path' | 'query', schema: Json | undefined, components: Json): Json[] {
  if (!schema) return [];
  const props = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => {
    const { description, ...rest } = s;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(description ? { description } : {}),
      schema: componentize(rest, components),
    };
  });
}

const contentOf = (types: string[], schema: unknown): Json => Object.fromEntries(types.map((t) => [t, { schema }]));

interface Shared {
  schemas: Json;
  responses: Json;
  headers: Set<ResponseHeader>;
}

function operation(route: RouteEntry, spec: RouteSpec, shared: Shared): Json {
  const components = shared.schemas;
  const isPublic = spec.capability === 'public';
  const classes = limiterClassesFor(route.path);
  const limits = rateLimits({});
  const idempotent = Boolean(spec.headers?.['Idempotency-Key']);
  // Every answer carries the request id, and the rate-limit state on a route that counts against a limit.
  const common: ResponseHeader[] = ['X-Request-Id', ...(classes.length > 0 ? (['RateLimit-Policy', 'RateLimit'] as const) : [])];
  const headersOf = (status: number, doc?: Pick<ResponseDoc, 'headers'>): ResponseHeader[] => [
    ...common,
    ...(COMMON_ERRORS[status]?.headers ?? []),
    // replayable(): a success of an idempotent write tells a replay, and the version of what it created
    ...(idempotent && status < 300 ? (['ETag', 'Idempotent-Replayed'] as const) : []),
    ...(doc?.headers ?? []),
  ];
  const responses: Json = {};
  for (const [key, doc] of Object.entries(spec.responses)) {
    const status = Number(key);
    const content = doc.schema
      ? {
          ...contentOf([doc.contentType ?? 'application/json'].flat(), componentize(plain(responseSchema(doc.schema, route)), components)),
          ...Object.fromEntries(Object.entries(doc.alternatives ?? {}).map(([type, schema]) => [type, { schema: plain(schema) }])),
        }
      : status >= 400
        ? errorContent(COMMON_ERRORS[status]?.schema)
        : undefined;
    const headers = headerRefs(headersOf(status, doc), shared.headers);
    responses[key] = { description: doc.description, ...(headers ? { headers } : {}), ...(content ? { content } : {}) };
  }
  const add = (status: number, description?: string) => {
    if (responses[status]) return;
    const common = COMMON_ERRORS[status];
    const body = {
      description: description ?? common?.description,
      headers: headerRefs(headersOf(status), shared.headers),
      content: errorContent(common?.schema),
    };
    // the shared answer of every rate-limited route, else (a route without a limit, a text of its own) inline
    if (common && description === undefined && classes.length > 0) {
      shared.responses[common.name] ??= body;
      responses[status] = { $ref: `#/components/responses/${common.name}` };
    } else responses[status] = body;
  };
  // Every route reads a body it is sent (size, content type, JSON) and validates its query string (a route
  // without a query schema takes no parameter), so these answers can come from any operation.
  add(400);
  if (spec.capability === 'device') add(401, 'Missing, malformed or wrong device key (also a rotated secret or a deleted device)');
  else if (!isPublic) {
    add(401);
    add(403, spec.capability === 'none' ? 'Account locked or unverified' : `Missing capability ${spec.capability}, or account locked or unverified`);
  }
  if (spec.params) add(404);
  else if (spec.body && idFields(spec.body.schema).length > 0)
    add(404, 'A record the body names by id (a `…Id` field) is not one of the farm’s: another farm’s record answers as a missing one');
  if (spec.headers?.['If-Match']) add(412);
  add(413);
  add(415);
  if (idempotent) add(422);
  if (classes.length > 0) add(429);
  add(500);
  // A signed-in route loads its user, a public route with a body (sign-up, sign-in, verification) reads
  // the table: either answers 503 when the database is unavailable. (The rate limiter fails open.)
  if (!isPublic || spec.body) add(503);

  const headerParams = Object.entries(spec.headers ?? {}).map(([name, description]) => ({
    name,
    in: 'header',
    required: false,
    description,
    schema: REQUEST_HEADER_SCHEMAS[name] ?? { type: 'string' },
  }));
  return {
    operationId: route.functionName,
    tags: [route.group],
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    security: isPublic ? [] : spec.capability === 'device' ? [{ deviceKey: [] }] : [{ bearerAuth: [] }],
    'x-capability': spec.capability,
    ...(spec.maxBodyBytes ? { 'x-max-body-bytes': spec.maxBodyBytes } : {}),
    'x-rate-limits': classes.map((c) => ({ class: c, ...limits[c] })),
    parameters: [...parameters('path', spec.params?.schema, components), ...parameters('query', spec.query?.schema, components), ...headerParams],
    ...(spec.body ? { requestBody: { required: true, content: { 'application/json': { schema: componentize(spec.body.schema, components) } } } } : {}),
    responses,
  };
}

export async function buildOpenApi(): Promise<Json> {
  const routes = apiRoutes();
  const specs = await loadSpecs(routes);
  const components: Json = { Error: plain(ErrorResponse), ValidationError: plain(ValidationErrorResponse) };
  for (const c of Object.values(components)) delete (c as Json).$id;
  const shared: Shared = { schemas: components, responses: {}, headers: new Set() };
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operation(route, specs.get(route.file)!, shared);
  }
  const groups = [...new Set(routes.map((r) => r.group))];
  const untagged = groups.filter((g) => !TAGS[g]);
  if (untagged.length > 0) throw new Error(`scripts/lib/openapi.ts TAGS: describe the group(s) ${untagged.join(', ')}`);
  const headers = Object.fromEntries(
    Object.entries(RESPONSE_HEADERS)
      .filter(([name]) => shared.headers.has(name as ResponseHeader))
      .map(([name, h]) => [name, plain(h)]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: SERVICE.name,
      version: SERVICE.version,
      description:
        'Serverless REST API for running poultry farms. Authenticate with `POST /api/v1/auth/login` and send `Authorization: Bearer <token>`. ' +
        'Success bodies are `{message, data}` (lists add `page: {limit, nextCursor}`), errors `{error}` (validation adds `details: [{field, message}]`). ' +
        `Endpoint groups: ${Object.values(availableGroups(routes))
          .map((g) => g.basePath)
          .join(', ')}.\n\n` +
        'Request bodies are JSON: send `Content-Type: application/json` (or a `+json` type). A body without a Content-Type is read as JSON too ' +
        '(`curl -d` works without `-H`); any other Content-Type answers 415. ' +
        'A method a path does not declare answers 405 `{error}` with an `Allow` header naming the methods it does; OPTIONS on a known path answers ' +
        'the CORS preflight (204, `Access-Control-Allow-Methods`, `Access-Control-Allow-Headers`, `Access-Control-Max-Age`).\n\n' +
        'Every answer carries `X-Request-Id` (and, on a rate-limited route, `RateLimit` and `RateLimit-Policy`), documented per response, and the same ' +
        'security and CORS headers: `Strict-Transport-Security`, `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer`, ' +
        "`Content-Security-Policy: default-src 'none'; frame-ancestors 'none'` (the docs page sends its own), `Cross-Origin-Resource-Policy: same-origin`, " +
        '`Cache-Control: no-store` (unless a response documents its own), `Access-Control-Allow-Origin` and `Access-Control-Expose-Headers`. ' +
        'A 204 answer has no body and no Content-Type.',
      contact: { name: 'Flockwise API team', email: 'api@flockwise.example' },
    },
    servers: [{ url: '/' }],
    tags: groups.map((name) => ({ name, description: TAGS[name] })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        deviceKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Device-Key',
          description: 'A registered device’s key, `<deviceId>.<secret>`, as given when it was registered or its secret rotated (sensor ingestion only)',
        },
      },
      schemas: components,
      responses: shared.responses,
      headers,
    },
  };
}

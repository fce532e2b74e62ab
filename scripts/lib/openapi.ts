/**
 * Builds the OpenAPI 3.1 document from the route table (routes.yml) and each handler's declared
 * RouteSpec (capability, request schemas, responses). Nothing is described twice: request bodies,
 * parameters and the validators all come from the same TypeBox schemas.
 */
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { availableGroups, SERVICE } from '../../shared/presentation/service-info.js';
import { limiterClassesFor, rateLimits } from '../../shared/config/rate-limits.js';
import { ErrorResponse, ValidationErrorResponse } from '../../schemas/common.js';
import type { RouteSpec } from '../../shared/http/context.js';
import { ROOT, apiRoutes, type RouteEntry } from './route-table.js';

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

/** Plain JSON copy; nested schemas with `$id` move to components and are referenced. */
function componentize(schema: unknown, components: Json): unknown {
  if (Array.isArray(schema)) return schema.map((s) => componentize(s, components));
  if (typeof schema !== 'object' || schema === null) return schema;
  const obj = schema as Json;
  const out: Json = {};
  for (const [k, v] of Object.entries(obj)) if (k !== '$id') out[k] = componentize(v, components);
  const id = obj.$id;
  if (typeof id !== 'string') return out;
  components[id] ??= out;
  return { $ref: `#/components/schemas/${id}` };
}

const plain = (s: unknown): Json => JSON.parse(JSON.stringify(s)) as Json;
const errorRef = { $ref: '#/components/schemas/Error' };
const errorContent = (schema: unknown = errorRef) => ({ 'application/json': { schema } });

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

function operation(route: RouteEntry, spec: RouteSpec, components: Json): Json {
  const isPublic = spec.capability === 'public';
  const classes = limiterClassesFor(route.path);
  const limits = rateLimits({});
  const responses: Json = {};
  for (const [status, doc] of Object.entries(spec.responses)) {
    responses[status] = {
      description: doc.description,
      ...(doc.schema
        ? { content: contentOf([doc.contentType ?? 'application/json'].flat(), componentize(plain(doc.schema), components)) }
        : Number(status) >= 400
          ? { content: errorContent() }
          : {}),
    };
  }
  const add = (status: number, description: string, schema?: unknown) => {
    responses[status] ??= { description, content: errorContent(schema) };
  };
  // Every route reads a body it is sent (size, content type, JSON) and validates its query string (a route
  // without a query schema takes no parameter), so these answers can come from any operation.
  add(400, 'Invalid request: validation failures name each field in `details`; also malformed JSON or an unexpected query parameter', {
    $ref: '#/components/schemas/ValidationError',
  });
  if (!isPublic) {
    add(401, 'Missing, invalid, expired or revoked token');
    add(403, spec.capability === 'none' ? 'Account locked or unverified' : `Missing capability ${spec.capability}, or account locked or unverified`);
  }
  if (spec.params) add(404, 'Not found');
  if (spec.headers?.['If-Match']) add(412, 'If-Match does not match the current version');
  add(413, 'Request body too large');
  add(415, 'Content-Type is not application/json');
  if (spec.headers?.['Idempotency-Key']) add(422, 'Idempotency-Key reused with another body');
  if (classes.length > 0) add(429, 'Rate limit hit (Retry-After, RateLimit and RateLimit-Policy headers)');
  add(500, 'Internal server error (never with details)');

  const headerParams = Object.entries(spec.headers ?? {}).map(([name, description]) => ({
    name,
    in: 'header',
    required: false,
    description,
    schema: { type: 'string' },
  }));
  return {
    operationId: route.functionName,
    tags: [route.group],
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    security: isPublic ? [] : [{ bearerAuth: [] }],
    'x-capability': spec.capability,
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
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operation(route, specs.get(route.file)!, components);
  }
  const groups = [...new Set(routes.map((r) => r.group))];
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
          .join(', ')}.`,
    },
    servers: [{ url: '/' }],
    tags: groups.map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: components,
    },
  };
}

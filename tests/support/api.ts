/**
 * In-process client for integration tests: finds the route for METHOD + path in the route table (the
 * same routes.yml files serverless.yml uses), builds the API Gateway proxy event and calls the real
 * handler through its full middleware stack against DynamoDB Local.
 */
import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { ROOT, loadRoutes, type RouteEntry } from '../../scripts/lib/route-table.js';
import type { RouteHandler } from '../../shared/http/handler.js';

export interface CallOptions {
  body?: unknown;
  /** Sent as-is (malformed JSON, huge bodies). */
  rawBody?: string;
  headers?: Record<string, string>;
  token?: string;
  query?: Record<string, string>;
  /** Client IP; a random private address unless given (so the per-IP limiters do not interfere). */
  ip?: string;
}

export interface CallResult {
  status: number;
  headers: Record<string, string>;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read any field
  raw: string;
}

const routes = loadRoutes();

export function matchRoute(method: string, path: string): { route: RouteEntry; params: Record<string, string> } {
  const segments = path.split('/');
  for (const route of routes) {
    if (route.method !== method && route.method !== 'ANY') continue;
    if (route.path === '/{proxy+}') continue;
    const tpl = route.path.split('/');
    if (tpl.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = tpl.every((t, i) => {
      if (!t.startsWith('{')) return t === segments[i];
      params[t.slice(1, -1)] = decodeURIComponent(segments[i]!);
      return segments[i] !== '';
    });
    if (matches) {
      return { route, params };
    }
  }
  return { route: routes.find((r) => r.path === '/{proxy+}')!, params: { proxy: path.slice(1) } };
}

const modules = new Map<string, Promise<RouteHandler>>();
export function handlerFor(file: string): Promise<RouteHandler> {
  if (!modules.has(file))
    modules.set(
      file,
      import(pathToFileURL(join(ROOT, file)).href).then((m: { handler: RouteHandler }) => m.handler),
    );
  return modules.get(file)!;
}

export function buildEvent(method: string, path: string, resource: string, params: Record<string, string>, opts: CallOptions = {}): APIGatewayProxyEvent {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  const body = opts.rawBody ?? (opts.body === undefined ? null : JSON.stringify(opts.body));
  if (body !== null && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
  return {
    httpMethod: method,
    path,
    resource,
    headers,
    multiValueHeaders: {},
    queryStringParameters: opts.query ?? null,
    multiValueQueryStringParameters: null,
    pathParameters: Object.keys(params).length ? params : null,
    stageVariables: null,
    body,
    isBase64Encoded: false,
    requestContext: {
      requestId: `test-${randomInt(1e9)}`,
      path,
      stage: 'test',
      identity: { sourceIp: opts.ip ?? `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` },
    } as unknown as APIGatewayProxyEvent['requestContext'],
  };
}

const context = { getRemainingTimeInMillis: () => 10_000, functionName: 'test', awsRequestId: 'test' } as unknown as Context;

export async function call(method: string, path: string, opts: CallOptions = {}): Promise<CallResult> {
  const { route, params } = matchRoute(method, path);
  const handler = await handlerFor(route.file);
  const res = (await handler(buildEvent(method, path, route.path, params, opts), context)) as APIGatewayProxyResult;
  let body: unknown;
  try {
    body = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, headers: (res.headers ?? {}) as Record<string, string>, body, raw: res.body };
}

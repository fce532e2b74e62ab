import { ulid } from 'ulidx';
import type { MiddlewareObj } from '@middy/core';
import { initState, peekState, type HttpRequest } from '../context.js';

/**
 * Stage 1: request id, the normalized view of the request, and ONE structured JSON log line per request
 * (method, route, status, duration, user id). Never logs headers, bodies or tokens.
 */
export function requestContext(): MiddlewareObj {
  const before = (request: HttpRequest) => {
    const event = request.event;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(event.headers ?? {})) if (v !== undefined) headers[k.toLowerCase()] = v;
    initState(event, {
      requestId: event.requestContext?.requestId || ulid(),
      startedAt: performance.now(),
      method: event.httpMethod ?? 'GET',
      route: event.resource ?? event.path ?? '/',
      clientIp: event.requestContext?.identity?.sourceIp || 'unknown',
      headers,
      body: undefined,
      forbiddenKeys: [],
      query: { ...(event.queryStringParameters ?? {}) },
      params: { ...(event.pathParameters ?? {}) },
      responseHeaders: {},
    });
  };
  const log = (request: HttpRequest) => {
    const state = peekState(request);
    if (!state || process.env.LOG_REQUESTS === 'false') return;
    const status = request.response?.statusCode ?? 500;
    console.log(
      JSON.stringify({
        level: status >= 500 ? 'error' : 'info',
        msg: 'request',
        requestId: state.requestId,
        method: state.method,
        route: state.route,
        status,
        durationMs: Math.round((performance.now() - state.startedAt) * 10) / 10,
        userId: state.user?.id ?? null,
      }),
    );
  };
  return { before, after: log, onError: log } as MiddlewareObj;
}

import { ulid } from 'ulidx';
import type { MiddlewareObj } from '@middy/core';
import { endInvocation, invocationIds, log, startInvocation } from '../../platform/log.js';
import { initState, peekState, type HttpRequest } from '../context.js';

/**
 * Stage 1: request id, the normalized view of the request, and ONE structured JSON log line per request
 * (method, route, status, duration, user id). Every line logged while the request runs carries its
 * request id and correlation id (the `X-Correlation-Id` header when valid, else the request id). Never
 * logs headers, bodies or tokens.
 */
export function requestContext(): MiddlewareObj {
  const before = (request: HttpRequest) => {
    const event = request.event;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(event.headers ?? {})) if (v !== undefined) headers[k.toLowerCase()] = v;
    const requestId = event.requestContext?.requestId || ulid();
    const ids = invocationIds(requestId, headers['x-correlation-id']);
    startInvocation(ids);
    initState(event, {
      ...ids,
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
  const logRequest = (request: HttpRequest) => {
    const state = peekState(request);
    if (state && process.env.LOG_REQUESTS !== 'false') {
      const status = request.response?.statusCode ?? 500;
      (status >= 500 ? log.error : log.info)('request', {
        requestId: state.requestId,
        correlationId: state.correlationId,
        method: state.method,
        route: state.route,
        status,
        durationMs: Math.round((performance.now() - state.startedAt) * 10) / 10,
        userId: state.user?.id ?? null,
      });
    }
    endInvocation();
  };
  return { before, after: logRequest, onError: logRequest } as MiddlewareObj;
}

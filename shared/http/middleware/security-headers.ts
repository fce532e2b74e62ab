import type { MiddlewareObj } from '@middy/core';
import { peekState, type HttpRequest } from '../context.js';

/**
 * Last stage on the way out (success and error alike): security headers, CORS, the request id and the
 * rate-limit headers collected earlier. A route may set its own Content-Security-Policy (the docs page).
 */
const SECURITY_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Cross-Origin-Resource-Policy': 'same-origin',
};

export function securityHeaders(): MiddlewareObj {
  const apply = (request: HttpRequest) => {
    const response = request.response;
    if (!response) return;
    const state = peekState(request);
    response.headers = {
      ...SECURITY_HEADERS,
      'Access-Control-Allow-Origin': process.env.CORS_ORIGIN || '*',
      'Access-Control-Expose-Headers': 'X-Request-Id, RateLimit, RateLimit-Policy, Retry-After',
      ...(state ? { 'X-Request-Id': state.requestId, ...state.responseHeaders } : {}),
      ...(response.headers as Record<string, string> | undefined),
    };
  };
  return { after: apply, onError: apply } as MiddlewareObj;
}

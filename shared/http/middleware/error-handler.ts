import type { MiddlewareObj } from '@middy/core';
import { HttpError, ServiceUnavailable } from '../../errors.js';
import { isDatabaseUnavailable } from '../../db/client.js';
import { errorBody, json } from '../responses.js';
import { peekState, type HttpRequest } from '../context.js';

/**
 * Typed errors become their status and `{error}` (+ `details` for validation); an unreachable or
 * throttled database is a 503 with Retry-After (nothing was written: every multi-item write is one
 * transaction); anything else is a bug:
 * 500 `{error: "Internal server error"}`, logged with the request id, name and message only (no stack,
 * no request data).
 */
export function errorHandler(): MiddlewareObj {
  const onError = (request: HttpRequest) => {
    let err = request.error;
    if (isDatabaseUnavailable(err)) {
      console.error(JSON.stringify({ level: 'error', msg: 'database unavailable', requestId: peekState(request)?.requestId ?? null, error: err?.name }));
      err = new ServiceUnavailable('Service temporarily unavailable; retry shortly');
    }
    if (err instanceof HttpError) {
      request.response = json(err.statusCode, errorBody(err.message, err.details), err.headers);
      return;
    }
    console.error(
      JSON.stringify({
        level: 'error',
        msg: 'unhandled error',
        requestId: peekState(request)?.requestId ?? null,
        error: err?.name ?? 'Error',
        message: err?.message ?? String(err),
      }),
    );
    request.response = json(500, { error: 'Internal server error' });
  };
  return { onError } as MiddlewareObj;
}

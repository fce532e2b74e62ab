import type { MiddlewareObj } from '@middy/core';
import { isDatabaseUnavailable } from '../../db/client.js';
import { Unavailable } from '../../errors.js';
import { log } from '../../platform/log.js';
import { peekState, type HttpRequest, type RouteSpec } from '../context.js';
import { answerFor } from '../errors.js';
import { errorBody, json } from '../responses.js';

/**
 * Errors become their status and `{error}` (+ `details` for invalid input, each field named with the
 * part of the request it came from); an unreachable or throttled database is a 503 with Retry-After
 * (nothing was written: every multi-item write is one transaction); anything else is a bug: 500
 * `{error: "Internal server error"}`, logged with the request id, name and message only (no stack, no
 * request data).
 */
export function errorHandler(spec: RouteSpec): MiddlewareObj {
  const locate = fieldLocator(spec);
  const challenge = spec.capability === 'device' ? 'DeviceKey header="X-Device-Key"' : 'Bearer';
  const onError = (request: HttpRequest) => {
    let err = request.error;
    if (isDatabaseUnavailable(err)) {
      log.error('database unavailable', { ...idsOf(request), error: err?.name });
      err = new Unavailable('Service temporarily unavailable; retry shortly');
    }
    const answer = answerFor(err, locate, challenge);
    if (answer) {
      request.response = json(answer.statusCode, errorBody(answer.message, answer.details), answer.headers);
      return;
    }
    log.error('unhandled error', { ...idsOf(request), error: err?.name ?? 'Error', message: err?.message ?? String(err) });
    request.response = json(500, { error: 'Internal server error' });
  };
  return { onError } as MiddlewareObj;
}

/** The request's ids for a line of its own (the request context may not have run when an early stage failed). */
function idsOf(request: HttpRequest): { requestId: string | null; correlationId?: string } {
  const state = peekState(request);
  return state ? { requestId: state.requestId, correlationId: state.correlationId } : { requestId: null };
}

const LOCATED = /^(body|query|params|headers)(\.|$)/;

/**
 * Where a field a use case names came from: the route's parameter, query or header of that name, else
 * its body. Fields the validation stage reports already carry their location.
 */
function fieldLocator(spec: RouteSpec): (field: string) => string {
  const params = propertyNames(spec.params?.schema);
  const query = propertyNames(spec.query?.schema);
  const body = propertyNames(spec.body?.schema);
  const headers = new Set(Object.keys(spec.headers ?? {}));
  // An open body (`additionalProperties: true`: a movement's PATCH, re-checked against its type) takes any name,
  // so a name the use case reports is the body's before a path parameter's (`flockId` sent back in a PATCH).
  const openBody = (spec.body?.schema as { additionalProperties?: unknown } | undefined)?.additionalProperties === true;
  return (field) => {
    if (LOCATED.test(field)) return field;
    const root = field.split('.')[0]!;
    if (body.has(root)) return `body.${field}`;
    if (query.has(root)) return `query.${field}`;
    if (params.has(root) && !openBody) return `params.${field}`;
    if (headers.has(root)) return `headers.${field}`;
    return spec.body || !spec.query ? `body.${field}` : `query.${field}`;
  };
}

function propertyNames(schema: unknown, into = new Set<string>()): Set<string> {
  if (typeof schema !== 'object' || schema === null) return into;
  const s = schema as { properties?: object; anyOf?: unknown[]; oneOf?: unknown[]; allOf?: unknown[] };
  for (const name of Object.keys(s.properties ?? {})) into.add(name);
  for (const part of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) propertyNames(part, into);
  return into;
}

import { type AppError, Conflict, Forbidden, Invalid, NotFound, PreconditionFailed, Refused, Unauthenticated, Unavailable } from '../errors.js';

/**
 * The HTTP edge of the error model. Errors of the protocol itself (a method, a body size, a media type,
 * a rate limit) exist only here and carry their status; the application's errors (`shared/errors.ts`)
 * are mapped to a status by their kind, in this one table.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class MethodNotAllowed extends HttpError {
  constructor(message: string, allow: string[]) {
    super(405, message, { Allow: allow.join(', ') });
  }
}
export class PayloadTooLarge extends HttpError {
  constructor(message: string) {
    super(413, message);
  }
}
export class UnsupportedMediaType extends HttpError {
  constructor(message: string) {
    super(415, message);
  }
}
export class TooManyRequests extends HttpError {
  constructor(message: string, headers: Record<string, string>) {
    super(429, message, headers);
  }
}
/** Malformed HTTP input that never reaches a use case (JSON that does not parse). */
export class BadRequest extends HttpError {
  constructor(message: string) {
    super(400, message);
  }
}

/** Status per kind of application error; the first class an error is an instance of wins (subclasses first). */
const STATUS: [abstract new (...args: never[]) => AppError, number][] = [
  [Invalid, 400],
  [Unauthenticated, 401],
  [Forbidden, 403],
  [NotFound, 404],
  [Conflict, 409],
  [PreconditionFailed, 412],
  [Refused, 422],
  [Unavailable, 503],
];

export interface ErrorAnswer {
  statusCode: number;
  message: string;
  details?: { field: string; message: string }[];
  headers: Record<string, string>;
}

/**
 * What the client gets for a thrown error, or undefined for an unexpected one (a bug: 500). Field names
 * in details get the part of the request they came from (`body.`, `query.`, `params.`, `headers.`).
 * `challenge`: the `WWW-Authenticate` of a 401 (a bearer token; a device key on sensor ingestion).
 */
export function answerFor(err: unknown, locate: (field: string) => string, challenge = 'Bearer'): ErrorAnswer | undefined {
  if (err instanceof HttpError) return { statusCode: err.statusCode, message: err.message, headers: err.headers };
  const status = STATUS.find(([kind]) => err instanceof kind)?.[1];
  if (status === undefined) return undefined;
  const headers: Record<string, string> = {};
  if (err instanceof Unauthenticated) headers['WWW-Authenticate'] = challenge;
  const retryAfter = err instanceof Forbidden || err instanceof Unavailable ? err.retryAfterSeconds : undefined;
  if (retryAfter !== undefined) headers['Retry-After'] = String(retryAfter);
  const details = err instanceof Invalid ? err.details?.map((d) => ({ field: locate(d.field), message: d.message })) : undefined;
  return { statusCode: status, message: (err as Error).message, ...(details ? { details } : {}), headers };
}

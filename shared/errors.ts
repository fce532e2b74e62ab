/**
 * Typed errors: any layer throws them, the error middleware turns them into responses. The status code
 * is decided here and only here; the message must name the problem for the client.
 */
export interface FieldError {
  field: string;
  message: string;
}

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequest extends HttpError {
  constructor(message: string, details?: FieldError[]) {
    super(400, message, details);
  }
}
/** 400 with `details`: one entry per offending field. */
export class ValidationFailed extends HttpError {
  constructor(details: FieldError[], message = 'Validation failed') {
    super(400, message, details);
  }
}
export class Unauthorized extends HttpError {
  constructor(message = 'Missing or invalid token') {
    super(401, message, undefined, { 'WWW-Authenticate': 'Bearer' });
  }
}
export class Forbidden extends HttpError {
  constructor(message: string, headers?: Record<string, string>) {
    super(403, message, undefined, headers);
  }
}
export class NotFound extends HttpError {
  constructor(message: string) {
    super(404, message);
  }
}
export class MethodNotAllowed extends HttpError {
  constructor(message: string, allow: string[]) {
    super(405, message, undefined, { Allow: allow.join(', ') });
  }
}
export class Conflict extends HttpError {
  constructor(message: string) {
    super(409, message);
  }
}
/** The write lost to a retry of the same request (same Idempotency-Key): the caller replays the stored response. */
export class DuplicateRequest extends Conflict {
  constructor() {
    super('A request with this Idempotency-Key is being processed');
  }
}
export class PreconditionFailed extends HttpError {
  constructor(message: string) {
    super(412, message);
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
export class Unprocessable extends HttpError {
  constructor(message: string, details?: FieldError[]) {
    super(422, message, details);
  }
}
export class TooManyRequests extends HttpError {
  constructor(message: string, headers: Record<string, string>) {
    super(429, message, undefined, headers);
  }
}
export class ServiceUnavailable extends HttpError {
  constructor(message: string, retryAfterSeconds = 1) {
    super(503, message, undefined, { 'Retry-After': String(retryAfterSeconds) });
  }
}

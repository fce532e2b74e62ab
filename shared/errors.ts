/**
 * Errors named by what went wrong, for every layer below the entry points (services, repositories,
 * domain). They carry no status code: each entry point decides what a kind of failure means for its
 * caller — `shared/http` maps them to statuses and `{error}` bodies, an event handler logs and drops
 * bad input or lets a transient failure retry. Messages name the problem in words a client can act on.
 */
export interface FieldError {
  /** The input field at fault, by its own name (`startDate`, `samples.3`); the HTTP layer adds where it came from (`body.`, `query.`). */
  field: string;
  message: string;
}

export abstract class AppError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The input breaks a rule (shape, range, a date outside its cycle…); `details` name the fields. */
export class Invalid extends AppError {
  constructor(
    message: string,
    readonly details?: FieldError[],
  ) {
    super(message);
  }
}

/** Invalid input reported field by field, under the common message. */
export class ValidationFailed extends Invalid {
  constructor(details: FieldError[], message = 'Validation failed') {
    super(message, details);
  }
}

/** No valid credentials: a missing, forged, expired or revoked token; a wrong password. */
export class Unauthenticated extends AppError {
  constructor(message = 'Missing or invalid token') {
    super(message);
  }
}

/** The caller is known but may not do this (locked, unverified, lacking a capability); `retryAfterSeconds` when it passes with time. */
export class Forbidden extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** The record does not exist, or belongs to a farm the caller cannot see (never distinguished). */
export class NotFound extends AppError {}

/** The request collides with the current state: a balance, a lock, a closed cycle, a lost race, a duplicate. */
export class Conflict extends AppError {}

/** The write lost to a retry of the same request (same idempotency key): the caller replays the stored outcome. */
export class DuplicateRequest extends Conflict {
  constructor() {
    super('A request with this Idempotency-Key is being processed');
  }
}

/** The caller's precondition (the version it read) no longer holds. */
export class PreconditionFailed extends AppError {}

/** Well-formed, but refused as stated: an idempotency key reused for a different request. */
export class Refused extends AppError {}

/** A dependency (the database) is unreachable or throttled; retrying shortly may succeed. Nothing was written. */
export class Unavailable extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds = 1,
  ) {
    super(message);
  }
}

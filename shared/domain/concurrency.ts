import { Conflict, PreconditionFailed } from '../errors.js';

/**
 * Optimistic concurrency for every change: the version the caller read, given as a precondition (an
 * entry point's own way of naming it, such as an HTTP `If-Match`, described by `source` for the
 * message) and/or stated with the change itself (`version` in a body).
 */
export interface Precondition {
  version: number;
  source: string;
}
export interface ExpectedVersion {
  precondition?: Precondition | undefined;
  stated?: number | undefined;
}

/**
 * The version a write must be conditioned on: a stale precondition is PreconditionFailed, a stale stated
 * version a Conflict; without either, the version just read (the conditional write still turns a
 * concurrent change into a Conflict).
 */
export function expectedVersion(current: number, expected: ExpectedVersion, what: string): number {
  const { precondition, stated } = expected;
  if (precondition && precondition.version !== current)
    throw new PreconditionFailed(`${precondition.source} does not match the current version ${current} of ${what}`);
  if (stated !== undefined && stated !== current) throw new Conflict(`${what} is at version ${current}, not ${stated}; read it again and retry`);
  return current;
}

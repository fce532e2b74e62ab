import { Conflict, PreconditionFailed } from '../errors.js';

/** Optimistic concurrency for every PATCH: the version a client read, from `If-Match` or the body. */

/** Reads a version from an `If-Match` header (`"3"`, `W/"3"` or `3`); undefined when absent or not a version. */
export function versionFromIfMatch(header: string | undefined): number | undefined {
  if (!header) return undefined;
  const m = /^(?:W\/)?"?(\d{1,15})"?$/.exec(header.trim());
  return m ? Number(m[1]) : Number.NaN;
}

/**
 * The version a write must be conditioned on: a stale `If-Match` is 412, a stale body `version` 409;
 * without either, the version just read (the conditional write still turns a concurrent change into 409).
 */
export function expectedVersion(current: number, ifMatch: string | undefined, bodyVersion: number | undefined, what: string): number {
  const header = versionFromIfMatch(ifMatch);
  if (header !== undefined && header !== current) throw new PreconditionFailed(`If-Match ${ifMatch} does not match the current version ${current} of ${what}`);
  if (bodyVersion !== undefined && bodyVersion !== current) throw new Conflict(`${what} is at version ${current}, not ${bodyVersion}; read it again and retry`);
  return current;
}

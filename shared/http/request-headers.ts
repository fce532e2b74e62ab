import type { Precondition } from '../domain/concurrency.js';
import { IDEMPOTENCY_KEY_PATTERN } from '../../schemas/compiled/constants/common.js';

/** The request headers routes document in the OpenAPI document (RouteSpec.headers), described once. */
export const IF_MATCH = { 'If-Match': 'The version you read (ETag of GET), e.g. "3"' };
export const IDEMPOTENCY_KEY = {
  'Idempotency-Key':
    'Makes retries safe: 1–255 visible ASCII characters; the same key and body return the first response (Idempotent-Replayed: true), another body 422',
};

/** The schema of each documented request header (by name; a header not listed here is any string). */
export const REQUEST_HEADER_SCHEMAS: Record<string, Record<string, unknown>> = {
  'Idempotency-Key': { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN, examples: ['8f14e45f-ceea-467f-a8f0-2b9d3c1e5a70'] },
  'If-Match': { type: 'string', examples: ['"3"'] },
};

/** The 409 of a route that takes If-Match (the generator adds 412 for the header itself, and 422 for Idempotency-Key). */
export const IF_MATCH_RESPONSES = {
  409: { description: 'Changed concurrently (or a stale `version` in the body)' },
} as const;

/** Reads a version from an `If-Match` header (`"3"`, `W/"3"` or `3`); undefined when absent, NaN when not a version. */
export function versionFromIfMatch(header: string | undefined): number | undefined {
  if (!header) return undefined;
  const m = /^(?:W\/)?"?(\d{1,15})"?$/.exec(header.trim());
  return m ? Number(m[1]) : Number.NaN;
}

/** The request's `If-Match` as the precondition of a change (a header that names no version never matches). */
export function ifMatchOf(headers: Record<string, string>): Precondition | undefined {
  const version = versionFromIfMatch(headers['if-match']);
  return version === undefined ? undefined : { version, source: `If-Match ${headers['if-match']}` };
}

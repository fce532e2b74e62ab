/** The request headers routes document in the OpenAPI document (RouteSpec.headers), described once. */
export const IF_MATCH = { 'If-Match': 'The version you read (ETag of GET), e.g. "3"' };
export const IDEMPOTENCY_KEY = {
  'Idempotency-Key':
    'Makes retries safe: 1–255 visible ASCII characters; the same key and body return the first response (Idempotent-Replayed: true), another body 422',
};

/** The 409 of a route that takes If-Match (the generator adds 412 for the header itself, and 422 for Idempotency-Key). */
export const IF_MATCH_RESPONSES = {
  409: { description: 'Changed concurrently (or a stale `version` in the body)' },
} as const;

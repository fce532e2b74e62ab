/** The request headers routes document in the OpenAPI document (RouteSpec.headers), described once. */
export const IF_MATCH = { 'If-Match': 'The version you read (ETag of GET), e.g. "3"' };
export const IDEMPOTENCY_KEY = {
  'Idempotency-Key': 'Makes retries safe: 1–255 visible ASCII characters; the same key and body return the first response (Idempotent-Replayed: true), another body 422',
};

/** The answers those headers add to a route's documented responses. */
export const IF_MATCH_RESPONSES = {
  409: { description: 'Changed concurrently (or a stale `version` in the body)' },
  412: { description: 'If-Match does not match the current version' },
} as const;
export const IDEMPOTENCY_RESPONSES = {
  422: { description: 'Idempotency-Key reused with another body' },
} as const;

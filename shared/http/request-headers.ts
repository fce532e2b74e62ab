/** The request headers routes document in the OpenAPI document (RouteSpec.headers), described once. */
export const IF_MATCH = { 'If-Match': 'The version you read (ETag of GET), e.g. "3"' };
export const IDEMPOTENCY_KEY = {
  'Idempotency-Key': 'Makes retries safe: 1–255 visible ASCII characters; the same key and body return the first response (Idempotent-Replayed: true), another body 422',
};

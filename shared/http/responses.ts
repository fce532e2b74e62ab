import type { APIGatewayProxyResult } from 'aws-lambda';

/** Response builders for the contract's envelopes: `{message, data}`, lists with `page`, `{error}`. */
export type HttpResponse = APIGatewayProxyResult & { headers: Record<string, string> };

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  return { statusCode, headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(body) };
}

export const ok = (data: unknown, message = 'OK', headers?: Record<string, string>) => json(200, { message, data }, headers);
export const created = (data: unknown, message = 'Created', headers?: Record<string, string>) => json(201, { message, data }, headers);
/** An SVG document (charts): the client asked for it with `Accept: image/svg+xml`. */
export const svg = (document: string): HttpResponse => ({
  statusCode: 200,
  headers: { 'Content-Type': 'image/svg+xml; charset=utf-8', Vary: 'Accept' },
  body: document,
});
/** Does the request's Accept header prefer an SVG image over JSON? */
export const wantsSvg = (headers: Record<string, string>): boolean =>
  /image\/svg\+xml/i.test(headers.accept ?? '') && !/application\/json/i.test(headers.accept ?? '');
/** 204: no body, hence no Content-Type (the security-headers stage adds none either). */
export const noContent = (): HttpResponse => ({ statusCode: 204, headers: {}, body: '' });

export interface Page {
  limit: number;
  nextCursor: string | null;
}
export const list = (data: unknown[], page: Page, message = 'OK') => json(200, { message, data, page });

export function errorBody(error: string, details?: unknown[]): { error: string; details?: unknown[] } {
  return details ? { error, details } : { error };
}

/** Answer to a CORS preflight on a known path (the origin itself is set by the security-headers stage). */
export function preflight(allowedMethods: string[]): HttpResponse {
  const methods = [...allowedMethods, 'OPTIONS'].join(', ');
  return {
    statusCode: 204,
    headers: {
      Allow: methods,
      'Access-Control-Allow-Methods': methods,
      'Access-Control-Allow-Headers': 'Authorization, Content-Type, Idempotency-Key, If-Match',
      'Access-Control-Max-Age': '600',
    },
    body: '',
  };
}

/**
 * The answer of an idempotent write (201 when it created something): the stored first outcome on a replay,
 * marked `Idempotent-Replayed: true`; `warnings` only when the write has some.
 */
export function replayable(result: { created: boolean; message: string; data: unknown; warnings?: unknown[]; replayed: boolean }): HttpResponse {
  const version = (result.data as { version?: unknown } | null | undefined)?.version;
  return json(
    result.created ? 201 : 200,
    { message: result.message, data: result.data, ...(result.warnings?.length ? { warnings: result.warnings } : {}) },
    {
      ...(typeof version === 'number' ? { ETag: `"${version}"` } : {}),
      ...(result.replayed ? { 'Idempotent-Replayed': 'true' } : {}),
    },
  );
}

/**
 * 202: a job was started (an export, a restore) and runs on; `Location` is where to follow it. A replay
 * of the same Idempotency-Key answers the same job, marked `Idempotent-Replayed: true`.
 */
export function accepted(result: { message: string; data: unknown; replayed: boolean }, base: string): HttpResponse {
  const id = (result.data as { id?: unknown } | null | undefined)?.id;
  return json(
    202,
    { message: result.message, data: result.data },
    { ...(typeof id === 'string' ? { Location: `${base}${id}` } : {}), ...(result.replayed ? { 'Idempotent-Replayed': 'true' } : {}) },
  );
}

/**
 * The response headers the API sends, described once (OpenAPI `components/headers`). The generator
 * declares the common ones on every response (X-Request-Id; RateLimit and RateLimit-Policy on rate-limited
 * routes; WWW-Authenticate on 401; Retry-After on 429 and 503; ETag and Idempotent-Replayed on the
 * successes of a route taking Idempotency-Key); a route names the others per status (`ResponseDoc.headers`).
 */
export const RESPONSE_HEADERS = {
  'X-Request-Id': { description: 'Id of this request, also in the server log line: quote it when reporting a problem', schema: { type: 'string' } },
  'RateLimit-Policy': {
    description: 'The limits this route counts against (IETF draft-ietf-httpapi-ratelimit-headers): `"<class>";q=<requests>;w=<window seconds>` per class',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: 'The tightest of those limits: `"<class>";r=<requests left>;t=<seconds until the window resets>`',
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 0 } },
  'WWW-Authenticate': { description: 'The authentication scheme: `Bearer`', schema: { type: 'string', const: 'Bearer' } },
  ETag: { description: 'The version of the returned resource (`"3"`): send it back as If-Match to change it', schema: { type: 'string' } },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer of an earlier request with the same Idempotency-Key and body (nothing was written again)',
    schema: { type: 'string', const: 'true' },
  },
  'Content-Disposition': { description: '`attachment; filename="…"`: the file name to save the download as', schema: { type: 'string' } },
  Location: { description: 'Where to follow the job this request started, or where to download the file', schema: { type: 'string' } },
  'X-Total-Count': { description: 'Number of rows in the file', schema: { type: 'integer', minimum: 0 } },
  Vary: { description: '`Accept`: the media type depends on the Accept header', schema: { type: 'string' } },
  'Cache-Control': { description: 'How long the answer may be cached (other answers are `no-store`)', schema: { type: 'string' } },
} as const;
export type ResponseHeader = keyof typeof RESPONSE_HEADERS;

/** The SVG alternative of a chart route's 200 (`Accept: image/svg+xml`, see `svg`), for its ResponseDoc. */
export const SVG_CHART = { alternatives: { 'image/svg+xml': { type: 'string', description: 'An SVG chart' } }, headers: ['Vary'] } as const satisfies {
  alternatives: Record<string, unknown>;
  headers: readonly ResponseHeader[];
};

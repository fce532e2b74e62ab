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

/** The answer of an idempotent write (201 when it created something): the stored first outcome on a replay, marked `Idempotent-Replayed: true`. */
export function replayable(result: { created: boolean; message: string; data: unknown; replayed: boolean }): HttpResponse {
  const version = (result.data as { version?: unknown } | null | undefined)?.version;
  return json(
    result.created ? 201 : 200,
    { message: result.message, data: result.data },
    {
      ...(typeof version === 'number' ? { ETag: `"${version}"` } : {}),
      ...(result.replayed ? { 'Idempotent-Replayed': 'true' } : {}),
    },
  );
}

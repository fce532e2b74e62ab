import { describe, expect, it, vi } from 'vitest';
import { buildEvent, call, handlerFor, matchRoute } from '../support/api.js';
import { adminLogin, userWith } from '../support/accounts.js';
import { httpHandler, publicHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { dbCalls, resetDbCalls, totalDbCalls } from '../../shared/db/client.js';
import type { Context } from 'aws-lambda';
import { log as serviceLog } from '../../shared/platform/log.js';
import { captureLogs } from '../support/logs.js';

const context = {} as Context;

describe('request parsing', () => {
  it('malformed JSON → 400 {error} only, nothing written', async () => {
    const res = await call('POST', '/api/v1/auth/signup', { rawBody: '{"email": "a@b.c",' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Malformed JSON in request body' });
  });

  it('a body over the cap → 413, a non-JSON content type → 415', async () => {
    const big = await call('POST', '/api/v1/auth/signup', { rawBody: JSON.stringify({ name: 'x'.repeat(200_000) }) });
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ error: 'Request body exceeds 102400 bytes' });
    const form = await call('POST', '/api/v1/auth/login', { rawBody: 'email=a&password=b', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(415);
    expect(form.body).toEqual({ error: 'Content-Type must be application/json (or absent), got "application/x-www-form-urlencoded"' });
  });

  it('a body without a Content-Type is read as JSON (`curl -d` without `-H`)', async () => {
    const { route, params } = matchRoute('POST', '/api/v1/auth/login');
    const event = buildEvent('POST', '/api/v1/auth/login', route.path, params, { body: { email: 5, password: 'x' } });
    delete event.headers['Content-Type'];
    const res = await (await handlerFor(route.file))(event, context);
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).details).toEqual([{ field: 'body.email', message: 'must be string' }]);
  });

  it('a JSON body that is not an object, and wrong types, are validation errors naming the field', async () => {
    expect((await call('POST', '/api/v1/auth/login', { body: [1, 2] })).body.details).toEqual([{ field: 'body', message: 'must be object' }]);
    const res = await call('POST', '/api/v1/auth/login', { body: { email: 5, password: null } });
    expect(res.body.details).toEqual([
      { field: 'body.email', message: 'must be string' },
      { field: 'body.password', message: 'must be string' },
    ]);
  });

  it('a __proto__ or constructor.prototype key is refused by name, even where a body takes extra properties', async () => {
    const token = await adminLogin();
    const open = (raw: string) => call('POST', '/api/v2/analytics/validate-daily-data', { token, rawBody: raw });
    const proto = await open('{"dailyRecord":"2026-11-02","productionStage":"growing","__proto__":{"isAdmin":true}}');
    expect(proto.status).toBe(400);
    expect(proto.body.details).toEqual([{ field: 'body.__proto__', message: 'is not allowed' }]);
    const ctor = await open('{"dailyRecord":"2026-11-02","productionStage":"growing","extra":{"constructor":{"prototype":{"x":1}}}}');
    expect(ctor.status).toBe(400);
    expect(ctor.body.details).toEqual([{ field: 'body.constructor', message: 'is not allowed' }]);
    // the same extra without the forbidden key is accepted: the refusal is about the key, not the shape
    expect((await open('{"dailyRecord":"2026-11-02","productionStage":"growing","extra":{"ctor":{"prototype":{"x":1}}}}')).status).toBe(200);
    // deeper than the parser's key check walks: still found (without recursion)
    const deep = `${'['.repeat(20_000)}{"__proto__":1}${']'.repeat(20_000)}`;
    const deepRes = await open(`{"dailyRecord":"2026-11-02","productionStage":"growing","extra":${deep}}`);
    expect(deepRes.status).toBe(400);
    expect(deepRes.body.details).toContainEqual({ field: 'body.__proto__', message: 'is not allowed' });
  });

  it('path parameters and query strings are validated too', async () => {
    const token = await adminLogin();
    const bad = await call('GET', '/api/v1/admin/users/not-a-ulid', { token });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ field: 'params.userId', message: 'must match pattern "^[0-9A-HJKMNP-TV-Z]{26}$"' }]);
    const unknownQuery = await call('GET', '/api/v1/admin/capabilities', { token, query: { debug: '1' } });
    expect(unknownQuery.status).toBe(400);
    expect(unknownQuery.body.details).toEqual([{ field: 'query.debug', message: 'is not allowed' }]);
  });
});

describe('responses', () => {
  it('a 204 has no body and no Content-Type (but the common headers)', async () => {
    const admin = await adminLogin();
    const { id } = await userWith();
    const res = await call('DELETE', `/api/v1/admin/users/${id}`, { token: admin });
    expect(res.status).toBe(204);
    expect(res.raw).toBe('');
    expect(Object.keys(res.headers).map((h) => h.toLowerCase())).not.toContain('content-type');
    expect(res.headers['X-Request-Id']).toBeTruthy();
  });
});

describe('errors', () => {
  it('an unexpected error is a 500 {error} with nothing leaked; the log keeps name and message but no stack', async () => {
    const logs = captureLogs();
    const broken = publicHandler({ summary: 'broken', responses: {} }, async () => {
      throw new TypeError('cannot read properties of undefined');
    });
    const res = await broken(buildEvent('GET', '/broken', '/broken', {}), context);
    expect(res.statusCode).toBe(500);
    expect(JSON.parse(res.body)).toEqual({ error: 'Internal server error' });
    expect(res.headers?.['X-Content-Type-Options']).toBe('nosniff');
    const logged = logs.text();
    expect(logged).toContain('"msg":"unhandled error"');
    expect(logged).toContain('"error":"TypeError","message":"cannot read properties of undefined"');
    expect(logged).not.toContain('middleware.test.ts');
    expect(logged).not.toMatch(/\n\s+at /);
    expect(res.body).not.toContain('undefined');
    vi.restoreAllMocks();
  });

  it('a route without a declared capability cannot be built (deny by default)', () => {
    expect(() => httpHandler({ summary: 'x', responses: {} } as never, async () => ok(null))).toThrow(/must declare its capability/);
  });
});

describe('log lines', () => {
  /** A route whose use case logs a line of its own, and its request line (LOG_REQUESTS=true for the call). */
  async function linesOf(headers: Record<string, string>): Promise<{ requestId: string; lines: Record<string, unknown>[] }> {
    const logs = captureLogs();
    const route = publicHandler({ summary: 'logs', responses: {} }, async () => {
      serviceLog.warn('from the use case', { step: 1 });
      return ok(null);
    });
    const event = buildEvent('GET', '/logs', '/logs', {}, { headers });
    process.env.LOG_REQUESTS = 'true';
    const res = await route(event, context).finally(() => {
      process.env.LOG_REQUESTS = 'false';
    });
    vi.restoreAllMocks();
    expect(res.statusCode).toBe(200);
    return { requestId: event.requestContext.requestId, lines: logs.lines() };
  }

  it('every line of a request carries its request id and the caller’s X-Correlation-Id', async () => {
    const { requestId, lines } = await linesOf({ 'X-Correlation-Id': 'order-flow-42' });
    expect(lines).toEqual([
      { level: 'warn', msg: 'from the use case', requestId, correlationId: 'order-flow-42', step: 1 },
      expect.objectContaining({
        level: 'info',
        msg: 'request',
        requestId,
        correlationId: 'order-flow-42',
        method: 'GET',
        route: '/logs',
        status: 200,
        userId: null,
      }),
    ]);
  });

  it('without a usable X-Correlation-Id (none, too long, not visible ASCII) the correlation id is the request id', async () => {
    const sent: Record<string, string>[] = [
      {},
      { 'x-correlation-id': 'x'.repeat(129) },
      { 'X-Correlation-Id': 'two words' },
      { 'X-Correlation-Id': 'line\nbreak' },
    ];
    for (const headers of sent) {
      const { requestId, lines } = await linesOf(headers);
      expect(lines.map((l) => [l.requestId, l.correlationId])).toEqual([
        [requestId, requestId],
        [requestId, requestId],
      ]);
    }
  });
});

describe('DynamoDB work per request (counted, not timed)', () => {
  it('an authenticated single-item read costs 1 user-load call + 1 data call (+ 1 limiter counter for both classes)', async () => {
    const token = await adminLogin();
    const me = await call('POST', '/api/v1/auth/verify-token', { token, body: {} });
    resetDbCalls();
    await call('GET', `/api/v1/admin/users/${me.body.data.user.id}`, { token });
    // general + date limiter on one item (UpdateItem ×1), user + revocation (BatchGetItem ×1), the user read (GetItem ×1)
    expect({ ...dbCalls }).toEqual({ UpdateItem: 1, BatchGetItem: 1, GetItem: 1 });
    expect(totalDbCalls()).toBe(3);
  });

  it('an auth-class route counts general + auth (both 900 s by default) in one limiter UpdateItem', async () => {
    const token = await adminLogin();
    resetDbCalls();
    const res = await call('POST', '/api/v1/auth/verify-token', { token, body: {} });
    expect(res.status).toBe(200);
    expect(res.headers['RateLimit-Policy']).toBe('"general";q=3000;w=900, "auth";q=50;w=900');
    expect({ ...dbCalls }).toEqual({ UpdateItem: 1, BatchGetItem: 1 });
  });

  it('a public route with no data costs only its limiter call; /health only its probe', async () => {
    resetDbCalls();
    await call('GET', '/');
    expect({ ...dbCalls }).toEqual({ UpdateItem: 1 });
    resetDbCalls();
    await call('GET', '/health');
    expect({ ...dbCalls }).toEqual({ GetItem: 1 });
  });
});

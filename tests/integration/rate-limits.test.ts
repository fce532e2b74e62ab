import { describe, expect, it } from 'vitest';

// Small limits for this file only; handlers read them when first imported (lazily, by call()).
Object.assign(process.env, { RATE_LIMIT_AUTH_MAX: '4', RATE_LIMIT_DATE_MAX: '3', RATE_LIMIT_GENERAL_MAX: '12', RATE_LIMIT_GENERAL_WINDOW_SECONDS: '600' });

const { call } = await import('../support/api.js');
const { adminLogin } = await import('../support/accounts.js');

describe('rate limits', () => {
  it('auth limiter: the 5th auth request from one client answers 429 {error} with Retry-After and RateLimit headers', async () => {
    const ip = '192.0.2.10';
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 5; i++) {
      last = await call('POST', '/api/v1/auth/login', { ip, body: { email: `nobody${i}@example.com`, password: 'whatever-123' } });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    expect(Object.keys(last!.body)).toEqual(['error']);
    expect(last!.body.error).toMatch(/^Rate limit exceeded \(auth: 4 requests per 900 s\); retry in \d+ s$/);
    const retryAfter = Number(last!.headers['Retry-After']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(last!.headers['RateLimit-Policy']).toBe('"general";q=12;w=600, "auth";q=4;w=900');
    expect(last!.headers.RateLimit).toBe(`"auth";r=0;t=${retryAfter}`);
  });

  it('auth limiter also counts per account: one e-mail from many addresses is limited', async () => {
    const email = 'target@example.com';
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await call('POST', '/api/v1/auth/login', { ip: `198.51.100.${i + 1}`, body: { email, password: 'guess-guess-1' } })).status);
    expect(statuses.at(-1)).toBe(429);
  });

  it('date limiter (admin, inventory) and the general limiter count separately per client', async () => {
    const token = await adminLogin();
    const ip = '192.0.2.20';
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call('GET', '/api/v1/admin/capabilities', { ip, token })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // other routes of the same client still pass the general limiter
    const rest = await call('POST', '/api/v1/auth/verify-token', { ip, token, body: {} });
    expect(rest.status).toBe(200);
    expect(rest.headers['RateLimit-Policy']).toContain('"general";q=12;w=600');
    expect(rest.headers.RateLimit).toMatch(/^"(general|auth)";r=\d+;t=\d+$/);
    // another client is unaffected
    expect((await call('GET', '/api/v1/admin/capabilities', { ip: '192.0.2.21', token })).status).toBe(200);
  });

  it('counts requests whose bodies are refused (malformed, oversized) before reading them', async () => {
    const ip = '192.0.2.40';
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call('POST', '/api/v1/auth/login', { ip, rawBody: '{"email":' })).status);
    statuses.push((await call('POST', '/api/v1/auth/signup', { ip, rawBody: 'x'.repeat(200_000) })).status);
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
  });

  it('general limiter applies to every route; /health is never limited', async () => {
    const ip = '192.0.2.30';
    const statuses = [];
    for (let i = 0; i < 13; i++) statuses.push((await call('GET', '/', { ip })).status);
    expect(statuses.slice(0, 12).every((s) => s === 200)).toBe(true);
    expect(statuses[12]).toBe(429);
    for (let i = 0; i < 20; i++) {
      const health = await call('GET', '/health', { ip });
      expect(health.status).toBe(200);
      expect(health.headers.RateLimit).toBeUndefined();
    }
  });
});

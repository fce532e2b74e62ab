import { describe, expect, it } from 'vitest';

// This file's handlers talk to a DynamoDB that is not there (nothing listens on port 9).
process.env.DYNAMODB_ENDPOINT = 'http://127.0.0.1:9';
const { call } = await import('../support/api.js');

describe('GET /health with the table unreachable', () => {
  it('answers 503 {status: "degraded"} quickly, with the same fields', async () => {
    const started = Date.now();
    const res = await call('GET', '/health');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: 'degraded', environment: 'test' });
    expect(Object.keys(res.body).sort()).toEqual(['environment', 'status', 'timestamp', 'uptime']);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('other routes answer 503 {error} with Retry-After, leaking nothing (the limiter fails open, the user load fails closed)', async () => {
    const res = await call('POST', '/api/v1/auth/verify-token', { token: 'x.y.z', body: {} });
    expect(res.status).toBe(401);
    const login = await call('POST', '/api/v1/auth/login', { body: { email: 'a@b.co', password: 'whatever-123' } });
    expect(login.status).toBe(503);
    expect(login.body).toEqual({ error: 'Service temporarily unavailable; retry shortly' });
    expect(login.headers['Retry-After']).toBe('1');
  });
});

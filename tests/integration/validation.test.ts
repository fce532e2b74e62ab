import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { adminLogin } from '../support/accounts.js';

/** Numbers JSON Schema lets through but no client means: refused with 400 before anything is written (found by the fuzzer). */
describe('numbers beyond what JSON Schema checks', () => {
  it('a coerced Infinity in a numeric query parameter is 400, not 500', async () => {
    const admin = await adminLogin();
    for (const [path, value] of [
      ['/api/v1/admin/users', 'Infinity'],
      ['/api/v1/admin/audit', '-Infinity'],
      ['/api/v1/config/farms', '1e400'],
    ] as const) {
      const res = await call('GET', path, { token: admin, query: { limit: value } });
      expect(res.status, `${path} ${res.raw}`).toBe(400);
      expect(res.body.details).toContainEqual({ field: 'query.limit', message: expect.any(String) });
    }
  });

  it('numbers DynamoDB cannot store (|n| < 1e-130) are 400 naming the field, and nothing is created', async () => {
    const admin = await adminLogin();
    const before = (await call('GET', '/api/v1/config/farms', { token: admin, query: { limit: '100' } })).body.data.length;
    const res = await call('POST', '/api/v1/config/farms', { token: admin, body: { name: 'Tiny', totalAreaHa: 1e-300 } });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'body.totalAreaHa', message: 'is too small or too large a number to store' }]);
    const huge = await call('POST', '/api/v1/config/farms', {
      token: admin,
      rawBody: '{"name":"Huge","totalAreaHa":1e400}',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(huge.status).toBe(400);
    expect((await call('GET', '/api/v1/config/farms', { token: admin, query: { limit: '100' } })).body.data.length).toBe(before);
    const zero = await call('PUT', '/api/v1/config/analytics', { token: admin, body: { pricing: { medicationPerTreatment: 0 } } });
    expect(zero.status, zero.raw).toBe(200); // zero is a number like any other
  });
});

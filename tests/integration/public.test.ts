import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { ENDPOINT_GROUPS } from '../../shared/presentation/service-info.js';
import { apiRoutes } from '../../scripts/lib/route-table.js';

/** A path is in a group when it is the group's base path or lies under it. */
const under = (path: string, basePath: string) => path === basePath || path.startsWith(`${basePath}/`);

describe('public routes', () => {
  it('GET / names the service, version 2.0.0, the base path of every group that has a route, and the doc links', async () => {
    const res = await call('GET', '/');
    expect(res.status).toBe(200);
    expect(res.body.data.version).toBe('2.0.0');
    const endpoints = res.body.data.endpoints as Record<string, { basePath: string }>;
    const basePaths = Object.values(endpoints).map((g) => g.basePath);
    expect(basePaths).toEqual(
      expect.arrayContaining(['/api/v1/auth', '/api/v2/analytics', '/api/v1/flocks/{flockId}/cycles', '/api/v1/scale', '/api/v1/admin']),
    );
    expect(res.body.data.links).toMatchObject({ docs: '/docs', openapi: '/openapi.json' });
  });

  it('GET / lists a group if and only if the route table (routes.yml) has a route in it', async () => {
    const endpoints = (await call('GET', '/')).body.data.endpoints as Record<string, { basePath: string }>;
    const paths = apiRoutes().map((r) => r.path);
    // no group without a route is announced as available
    for (const [name, g] of Object.entries(endpoints))
      expect(
        paths.some((p) => under(p, g.basePath)),
        `${name} (${g.basePath}) has no route`,
      ).toBe(true);
    // and every group of the contract that has a route is listed, under its own name
    for (const [name, g] of Object.entries(ENDPOINT_GROUPS))
      if (paths.some((p) => under(p, g.basePath))) expect(endpoints[name], `${name} has routes but is not listed`).toEqual(g);
    // every /api route belongs to a listed group
    for (const p of paths.filter((p) => p.startsWith('/api/')))
      expect(
        Object.values(endpoints).some((g) => under(p, g.basePath)),
        `${p} is in no listed group`,
      ).toBe(true);
    // groups of the contract not built yet stay out
    const unrouted = Object.keys(ENDPOINT_GROUPS).filter((name) => !paths.some((p) => under(p, ENDPOINT_GROUPS[name]!.basePath)));
    for (const name of unrouted) expect(endpoints).not.toHaveProperty(name);
  });

  it('GET /health answers {status, timestamp, uptime, environment} and carries no rate-limit headers', async () => {
    const res = await call('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', environment: 'test' });
    expect(typeof res.body.uptime).toBe('number');
    expect(new Date(res.body.timestamp).toISOString()).toBe(res.body.timestamp);
    expect(res.headers.RateLimit).toBeUndefined();
  });

  it('unknown routes answer 404 JSON, known paths with another method 405 with Allow', async () => {
    const missing = await call('GET', '/api/v1/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Route not found: GET /api/v1/nothing-here' });
    const wrongMethod = await call('DELETE', '/api/v1/auth/login');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.Allow).toBe('POST');
  });

  it('answers a CORS preflight on a known path with the allowed methods and headers', async () => {
    const res = await call('OPTIONS', '/api/v1/admin/users/01JD3Y4Z9V6Q8K2M5N7P0R1S3T', {
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'PATCH' },
    });
    expect(res.status).toBe(204);
    expect(res.headers['Access-Control-Allow-Methods']).toBe('DELETE, GET, PATCH, OPTIONS');
    expect(res.headers['Access-Control-Allow-Headers']).toContain('Authorization');
    expect(res.headers['Access-Control-Allow-Origin']).toBe('*');
    expect((await call('OPTIONS', '/nowhere')).status).toBe(404);
  });

  it('every response carries the security headers and a request id', async () => {
    const res = await call('GET', '/');
    expect(res.headers).toMatchObject({ 'X-Content-Type-Options': 'nosniff', 'X-Frame-Options': 'DENY', 'Cache-Control': 'no-store' });
    expect(res.headers['X-Request-Id']).toBeTruthy();
  });

  it('serves the OpenAPI document and the docs page with its assets', async () => {
    const doc = await call('GET', '/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(doc.body.paths['/api/v1/auth/login'].post.security).toEqual([]);
    const page = await call('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers['Content-Type']).toContain('text/html');
    expect(page.raw).toContain('docs/swagger-ui-bundle.js');
    const asset = await call('GET', '/docs/swagger-ui-bundle.js');
    expect(asset.status).toBe(200);
    expect(asset.raw.length).toBeGreaterThan(100_000);
    expect((await call('GET', '/docs/..%2Fpackage.json')).status).toBe(400);
  });
});

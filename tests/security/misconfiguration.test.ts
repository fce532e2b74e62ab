/**
 * OWASP API8:2023 (security misconfiguration), generated from the route table: every route answers with
 * the security headers and a request id, only its declared methods are served (others 405 with Allow),
 * and no response carries a stack trace or internal detail.
 */
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { adminLogin } from '../support/accounts.js';
import { loadRoutes } from '../../scripts/lib/route-table.js';
import { allowedMethods } from '../../shared/http/route-match.js';

const routes = loadRoutes().filter((r) => r.path !== '/{proxy+}');
const concrete = (path: string) =>
  path.replace(/\{(\w+)\}/g, (_m, name: string) =>
    name === 'date' ? '2026-11-02' : name === 'asset' ? 'swagger-init.js' : name === 'movementType' ? 'bird_inflow' : '01JD3Y4Z9V6Q8K2M5N7P0R1S3T',
  );
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

describe('security misconfiguration', () => {
  it('every route sends the security headers and a request id, and no stack trace', async () => {
    const token = await adminLogin();
    for (const r of routes) {
      const res = await call(r.method, concrete(r.path), { token, body: {} });
      const label = `${r.method} ${r.path} → ${res.status}`;
      expect(res.status, label).toBeLessThan(500);
      expect(res.headers['X-Content-Type-Options'], label).toBe('nosniff');
      expect(res.headers['Strict-Transport-Security'], label).toMatch(/max-age=\d+/);
      expect(res.headers['Content-Security-Policy'], label).toBeTruthy();
      expect(res.headers['X-Request-Id'], label).toBeTruthy();
      expect(res.raw, label).not.toMatch(/\n\s+at |node_modules|\.ts:\d+|Error: /);
    }
  }, 60_000);

  it('only declared methods are served: any other method on a known path is 405 with Allow', async () => {
    const table = routes.map(({ method, path }) => ({ method, path }));
    const paths = [...new Set(routes.map((r) => r.path))];
    for (const path of paths) {
      const allowed = allowedMethods(table, concrete(path));
      for (const method of METHODS.filter((m) => !allowed.includes(m))) {
        const res = await call(method, concrete(path), { body: {} });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.Allow, `${method} ${path}`).toBe(allowed.join(', '));
        expect(Object.keys(res.body)).toEqual(['error']);
      }
    }
  }, 60_000);
});

import { describe, expect, it } from 'vitest';
import { loadRoutes } from '../../scripts/lib/route-table.js';
import { loadSpecs } from '../../scripts/lib/openapi.js';
import { isCapability } from '../../shared/domain/capabilities.js';

/** Function-level authorization as declared: every route names a known capability, "none" or "public". */
describe('route table', () => {
  const routes = loadRoutes();

  it('has unique METHOD + path pairs and camelCase function keys pointing at kebab-case files', () => {
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const r of routes) {
      expect(r.functionName).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(r.file).toMatch(/^functions\/[a-z-]+\/[a-z0-9-]+\.ts$/);
    }
  });

  it('every handler declares a capability; public routes are exactly the contract’s public ones plus docs and the catch-all', async () => {
    const specs = await loadSpecs(routes);
    const publicRoutes: string[] = [];
    const deviceRoutes: string[] = [];
    for (const r of routes) {
      const spec = specs.get(r.file)!;
      const known = spec.capability === 'public' || spec.capability === 'none' || spec.capability === 'device' || isCapability(spec.capability);
      expect(known, `${r.method} ${r.path}`).toBe(true);
      if (spec.capability === 'public') publicRoutes.push(`${r.method} ${r.path}`);
      if (spec.capability === 'device') deviceRoutes.push(`${r.method} ${r.path}`);
    }
    // a device key opens exactly one route: sensor ingestion
    expect(deviceRoutes).toEqual(['POST /api/v1/iot/ingest']);
    expect(publicRoutes.sort()).toEqual(
      [
        'GET /',
        'GET /health',
        'POST /api/v1/auth/signup',
        'POST /api/v1/auth/login',
        'POST /api/v1/auth/verify-email',
        'GET /openapi.json',
        'GET /docs',
        'GET /docs/{asset}',
        'ANY /{proxy+}',
      ].sort(),
    );
  });

  it('every admin route requires the admin-only manage_users capability', async () => {
    const specs = await loadSpecs(routes);
    for (const r of routes.filter((x) => x.path.startsWith('/api/v1/admin'))) expect(specs.get(r.file)!.capability, r.path).toBe('manage_users');
  });
});

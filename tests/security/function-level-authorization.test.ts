/**
 * OWASP API5:2023 (broken function-level authorization), generated from the route table: every route ×
 * every role gets exactly what the route's declared capability and the role's defaults say, and every
 * non-public route refuses a missing token. A new route is covered the moment it is in a routes.yml.
 */
import { ulid } from 'ulidx';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { ADMIN, PASSWORD, adminLogin, login, userWith } from '../support/accounts.js';
import { loadRoutes } from '../../scripts/lib/route-table.js';
import { loadSpecs } from '../../scripts/lib/openapi.js';
import { ROLES, ROLE_CAPABILITIES, type Role } from '../../shared/domain/capabilities.js';
import type { RouteSpec } from '../../shared/http/context.js';

const SAMPLE_PARAMS: Record<string, () => string> = { date: () => '2026-11-02', movementType: () => 'bird_inflow' };

function concrete(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => (SAMPLE_PARAMS[name] ?? ulid)());
}

const routes = loadRoutes().filter((r) => r.path !== '/{proxy+}');
let specs: Map<string, RouteSpec>;
const tokens = new Map<Role, string>();
const credentials = new Map<Role, { email: string; password: string }>();

beforeAll(async () => {
  specs = await loadSpecs(routes);
  tokens.set('admin', await adminLogin());
  credentials.set('admin', ADMIN);
  for (const role of ROLES.filter((r) => r !== 'admin')) {
    const u = await userWith({ role });
    tokens.set(role, u.token);
    credentials.set(role, { email: u.email, password: PASSWORD });
  }
});

/** Logout revokes the token it is called with: give it a session of its own. */
async function tokenFor(role: Role, path: string): Promise<string> {
  if (path !== '/api/v1/auth/logout') return tokens.get(role)!;
  const c = credentials.get(role)!;
  return login(c.email, c.password);
}

describe('function-level authorization, every route × every role', () => {
  it('covers every route of the route table', () => {
    expect(routes.length).toBeGreaterThan(40);
    expect(specs.size).toBe(new Set(routes.map((r) => r.file)).size);
  });

  it('non-public routes answer 401 without a token', async () => {
    for (const r of routes) {
      if (specs.get(r.file)!.capability === 'public') continue;
      const res = await call(r.method, concrete(r.path), { body: {} });
      expect(res.status, `${r.method} ${r.path}`).toBe(401);
      expect(Object.keys(res.body)).toEqual(['error']);
    }
  });

  it('a role without the capability gets 403 naming it; a role with it gets past the guard', async () => {
    for (const r of routes) {
      const { capability } = specs.get(r.file)!;
      if (capability === 'public') continue;
      if (capability === 'device') {
        // a user's token is not a device key, whatever the role
        for (const role of ROLES) expect((await call(r.method, concrete(r.path), { token: await tokenFor(role, r.path), body: {} })).status).toBe(401);
        continue;
      }
      for (const role of ROLES) {
        const allowed = capability === 'none' || role === 'admin' || ROLE_CAPABILITIES[role].includes(capability);
        const res = await call(r.method, concrete(r.path), { token: await tokenFor(role, r.path), body: {} });
        const label = `${role} ${r.method} ${r.path} (${capability})`;
        if (allowed) {
          expect(res.status, label).not.toBe(403);
          expect(res.status, label).toBeLessThan(500);
        } else {
          expect(res.status, label).toBe(403);
          expect(res.body, label).toEqual({ error: `Missing capability: ${capability}` });
        }
      }
    }
  }, 120_000);
});

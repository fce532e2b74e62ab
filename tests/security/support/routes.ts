/**
 * The route table and each route's declared spec, for the generated OWASP checks: a route added to a
 * routes.yml is covered by every check below without touching the tests.
 */
import { ulid } from 'ulidx';
import { loadRoutes, type RouteEntry } from '../../../scripts/lib/route-table.js';
import { loadSpecs } from '../../../scripts/lib/openapi.js';
import type { RouteSpec } from '../../../shared/http/context.js';

export type { RouteEntry, RouteSpec };

export interface Route extends RouteEntry {
  spec: RouteSpec;
  /** `METHOD /path`, for test names and failure labels. */
  label: string;
}

/** Every endpoint of the API (the catch-all 404 route is not one) with its declared spec. */
export async function apiRoutes(): Promise<Route[]> {
  const routes = loadRoutes().filter((r) => r.path !== '/{proxy+}');
  const specs = await loadSpecs(routes);
  return routes.map((r) => ({ ...r, spec: specs.get(r.file)!, label: `${r.method} ${r.path}` }));
}

export const isPublic = (r: Route) => r.spec.capability === 'public';
/** Sensor ingestion authenticates with a device key, not a token (its own suite: iot-device-keys.test.ts). */
export const takesDeviceKey = (r: Route) => r.spec.capability === 'device';
export const hasBody = (r: Route) => r.spec.body !== undefined;

/** Path parameters that are not ids of a record. */
export const STATIC_PARAMS: Record<string, string> = { movementType: 'bird_inflow', asset: 'swagger-init.js' };

/** The path with its parameters filled from `ids` (then STATIC_PARAMS); any other parameter gets a fresh ULID. */
export function fill(path: string, ids: Record<string, string> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(ids[name] ?? STATIC_PARAMS[name] ?? ulid()));
}

/** Whether every parameter of the path names a real record of `ids` (so a valid request can succeed). */
export function knownParams(path: string, ids: Record<string, string>): boolean {
  return [...path.matchAll(/\{(\w+)\}/g)].every(([, name]) => ids[name!] !== undefined || STATIC_PARAMS[name!] !== undefined);
}

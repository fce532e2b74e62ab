/** What `GET /` tells a client: the service, its version and the base path of each endpoint group that has routes. */
export const SERVICE = { name: 'Flockwise API', version: '2.0.0' } as const;

export interface EndpointGroup {
  basePath: string;
  description: string;
}

/**
 * The 21 groups of the interface contract (service version 2.0.0), routed or not. Never shown as they
 * are: `availableGroups` keeps those that have a route.
 */
export const ENDPOINT_GROUPS: Record<string, EndpointGroup> = {
  auth: { basePath: '/api/v1/auth', description: 'Authentication' },
  dashboard: { basePath: '/api/v1/dashboard', description: 'Dashboard (role-specific summaries)' },
  inventory: { basePath: '/api/v1/inventory', description: 'Inventory (movements of birds, feed, eggs)' },
  analytics: { basePath: '/api/v2/analytics', description: 'Analytics V2 (daily, cycle, breed, predictions, anomalies, financials)' },
  flockAnalytics: { basePath: '/api/v1/flock-analytics', description: 'Flock Analytics' },
  rules: { basePath: '/api/v1/rules', description: 'Rules (analytics rule engine)' },
  config: { basePath: '/api/v1/config', description: 'Configuration' },
  anomalies: { basePath: '/api/v1/anomalies', description: 'Anomalies (detected anomalies, hypotheses)' },
  flocks: { basePath: '/api/v1/flocks', description: 'Flocks' },
  cycles: { basePath: '/api/v1/flocks/{flockId}/cycles', description: 'Cycles' },
  schedules: { basePath: '/api/v1/schedules', description: 'Schedules (feeding, vaccination, inspection)' },
  predictive: { basePath: '/api/v1/predictive', description: 'Predictive (failure forecasting, health predictions)' },
  compliance: { basePath: '/api/v1/compliance', description: 'Compliance' },
  continuity: { basePath: '/api/v1/continuity', description: 'Continuity (business continuity, disaster recovery)' },
  optimization: { basePath: '/api/v1/optimization', description: 'Optimization' },
  sharing: { basePath: '/api/v1/sharing', description: 'Sharing (resource sharing, transfers)' },
  operations: { basePath: '/api/v1/operations', description: 'Operations (incident management)' },
  procurement: { basePath: '/api/v1/procurement', description: 'Procurement (orders, suppliers)' },
  iot: { basePath: '/api/v1/iot', description: 'IoT (devices, sensor ingestion)' },
  scale: { basePath: '/api/v1/scale', description: 'Scale (weight measurements)' },
  admin: { basePath: '/api/v1/admin', description: 'Admin (admin control plane, admin-only)' },
};

/** A route's path is the group's base path or lies under it (`/api/v1/flocks/{flockId}/cycles/…` is in `cycles`). */
const inGroup = (path: string, basePath: string): boolean => path === basePath || path.startsWith(`${basePath}/`);

/**
 * The groups that have at least one route, in the order of ENDPOINT_GROUPS. `routes` is the route table
 * (`schemas/compiled/routes.json` at run time, `apiRoutes()` at build time), so a group is listed only
 * once it has an endpoint.
 */
export function availableGroups(routes: ReadonlyArray<{ path: string }>): Record<string, EndpointGroup> {
  return Object.fromEntries(Object.entries(ENDPOINT_GROUPS).filter(([, g]) => routes.some((r) => inGroup(r.path, g.basePath))));
}

/** What `GET /` tells a client: the service, its version and the base path of each of the seed's 21 groups. */
export const SERVICE = { name: 'Flockwise API', version: '2.0.0' } as const;

export const ENDPOINT_GROUPS: Record<string, { basePath: string; description: string }> = {
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

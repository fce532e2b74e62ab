/**
 * The capability catalogue (GET /api/v1/admin/capabilities) and the roles' default sets.
 * The six names of the interface contract (service version 2.0.0) keep their meaning; the others guard
 * the groups the contract leaves open.
 * Admin-only capabilities can never be held by a non-admin, even explicitly.
 */
import { ROLES, type Role } from '../../schemas/vocabulary.js';

export const CAPABILITIES = {
  view_analytics: 'Read analytics, dashboards, schedules, incidents, transfers and other farm data',
  edit_analytics: 'Write analytics records: egg production, water readings, age-adjusted data, daily-data validation',
  manage_flocks: 'Create, update and archive flocks and their production cycles; recompute their forecasts',
  create_movement: 'Record inventory movements, daily records and weights',
  update_analytics_config: 'Change the analytics configuration (pricing, thresholds, …). Admin only',
  manage_system: 'System operations: optimization recommendations',
  manage_continuity: 'Export a farm, restore an export into a new farm (which also requires manage_farms), record preparedness drills',
  manage_rules: 'Create, change and switch off the alarm rules of a farm',
  manage_farms: 'Create and update farms and houses',
  manage_schedules: 'Create, update and complete feeding, vaccination and inspection schedules',
  complete_tasks: 'Complete or skip the occurrences of the farm’s schedules (field work: the vaccination or medication movement is written with it)',
  manage_incidents: 'Open, update and resolve operational incidents and anomalies',
  manage_procurement: 'Manage suppliers and purchase orders',
  manage_devices: 'Register and configure IoT devices and bird scales',
  manage_transfers: 'Request, approve and complete resource transfers between farms and flocks',
  manage_compliance: 'Record compliance checks and audited overrides (e.g. sale during withdrawal)',
  manage_users: 'Admin control plane: users, capabilities, audit log. Admin only',
} as const;

export type Capability = keyof typeof CAPABILITIES;
export const ALL_CAPABILITIES = Object.keys(CAPABILITIES) as Capability[];
export const ADMIN_ONLY: ReadonlySet<Capability> = new Set<Capability>(['update_analytics_config', 'manage_users']);

export { ROLES, type Role };

export const ROLE_CAPABILITIES: Record<Role, readonly Capability[]> = {
  admin: ALL_CAPABILITIES,
  manager: [
    'view_analytics',
    'edit_analytics',
    'manage_flocks',
    'create_movement',
    'manage_farms',
    'manage_schedules',
    'complete_tasks',
    'manage_incidents',
    'manage_rules',
    'manage_procurement',
    'manage_devices',
    'manage_transfers',
    'manage_compliance',
    'manage_continuity',
  ],
  worker: ['view_analytics', 'create_movement', 'complete_tasks'],
  veterinarian: ['view_analytics', 'edit_analytics', 'create_movement', 'manage_compliance', 'manage_incidents', 'complete_tasks'],
  viewer: ['view_analytics'],
};

/**
 * The roles from the least to the most trusted: each role's defaults include every capability of the roles
 * before it (tests/unit/capabilities.test.ts), so "this role or above" means "can do at least as much".
 */
export const ROLE_ORDER: readonly Role[] = ['viewer', 'worker', 'veterinarian', 'manager', 'admin'];

const rank = (role: Role | 'system') => (role === 'system' ? ROLE_ORDER.length : ROLE_ORDER.indexOf(role));

/** Whether `role` is `floor` or above it in ROLE_ORDER (the system, acting on its own, is above every role). */
export function roleAtLeast(role: Role | 'system', floor: Role | 'system'): boolean {
  return rank(role) >= rank(floor);
}

export function isCapability(name: string): name is Capability {
  return Object.hasOwn(CAPABILITIES, name);
}

/** Effective capabilities: admin holds all; an explicit list replaces the role's defaults. */
export function effectiveCapabilities(role: Role, explicit: readonly string[] | null): Capability[] {
  if (role === 'admin') return [...ALL_CAPABILITIES];
  const source = explicit ?? ROLE_CAPABILITIES[role];
  return source.filter((c): c is Capability => isCapability(c) && !ADMIN_ONLY.has(c));
}

/** Problems with an explicit capability list for a user of `role` (empty when acceptable). */
export function capabilityGrantProblems(role: Role, explicit: readonly string[]): string[] {
  const problems: string[] = [];
  for (const name of explicit) {
    if (!isCapability(name)) problems.push(`unknown capability "${name}"`);
    else if (ADMIN_ONLY.has(name) && role !== 'admin') problems.push(`"${name}" is reserved for admins`);
  }
  return problems;
}

export function catalogue() {
  return ALL_CAPABILITIES.map((name) => ({
    name,
    description: CAPABILITIES[name],
    adminOnly: ADMIN_ONLY.has(name),
    roles: ROLES.filter((r) => ROLE_CAPABILITIES[r].includes(name)),
  }));
}

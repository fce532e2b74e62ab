import type { Capability, Role } from './capabilities.js';

/**
 * Who a use case acts for, whatever the entry point: a signed-in user behind an HTTP route, or the
 * system itself behind an IoT Core rule or a scheduled job. Services take a Caller and plain values,
 * never a request.
 */
export interface Caller {
  /** The user id, or `system:<job>` for the system. Recorded as the actor of audited changes. */
  id: string;
  role: Role | 'system';
  capabilities: ReadonlySet<Capability>;
  /** The farms the caller is assigned to (ignored when `allFarms`). */
  farmIds: readonly string[];
  /** Admins and system jobs see every farm. */
  allFarms: boolean;
}

/**
 * The system acting on its own: a job or a device rule, holding exactly the capabilities it needs,
 * across every farm or only the ones named.
 */
export function systemCaller(job: string, capabilities: readonly Capability[], farmIds: readonly string[] | 'all'): Caller {
  return {
    id: `system:${job}`,
    role: 'system',
    capabilities: new Set(capabilities),
    farmIds: farmIds === 'all' ? [] : [...farmIds],
    allFarms: farmIds === 'all',
  };
}

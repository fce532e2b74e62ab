import type { Caller } from './caller.js';

/**
 * Farm scoping: admins (and system jobs) see every farm; everyone else only the farms they are assigned
 * to. A record of a farm the caller may not see is answered exactly like a missing one (not found, never
 * forbidden), so ids of other farms reveal nothing.
 */
export function canAccessFarm(caller: Pick<Caller, 'allFarms' | 'farmIds'>, farmId: string): boolean {
  return caller.allFarms || caller.farmIds.includes(farmId);
}

import type { Caller } from './caller.js';

/**
 * Farm scoping: admins (and system jobs) see every farm; everyone else only the farms they are assigned
 * to. A record of a farm the caller may not see is answered exactly like a missing one (not found, never
 * forbidden), so ids of other farms reveal nothing.
 */
export function canAccessFarm(caller: Pick<Caller, 'allFarms' | 'farmIds'>, farmId: string): boolean {
  return caller.allFarms || caller.farmIds.includes(farmId);
}

/**
 * The one way a use case scopes what it loaded: the record when it exists and belongs to a farm the
 * caller may see, else `notFound()` (the same answer for both, so another farm's ids reveal nothing).
 * `farmOf` says where the farm is when the record does not carry `farmId` itself.
 */
export function visibleTo<T>(
  caller: Pick<Caller, 'allFarms' | 'farmIds'>,
  record: T | undefined,
  notFound: () => Error,
  farmOf: (record: T) => string = (r) => (r as { farmId: string }).farmId,
): T {
  if (record === undefined || record === null || !canAccessFarm(caller, farmOf(record))) throw notFound();
  return record;
}

/**
 * Farm scoping (DESIGN §5): admins see every farm; everyone else only the farms they are assigned to.
 * A record of a farm the caller may not see is answered exactly like a missing one (404), never 403,
 * so ids of other farms reveal nothing.
 */
export interface FarmScoped {
  role: string;
  farmIds: readonly string[];
}

export function canAccessFarm(user: FarmScoped, farmId: string): boolean {
  return user.role === 'admin' || user.farmIds.includes(farmId);
}

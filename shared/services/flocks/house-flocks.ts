import { getCycle } from '../../db/cycles.js';
import type { CycleRecord } from '../../domain/flocks/records.js';
import { activeFlocksOfFarm, type FlockSummary } from '../../db/inventory.js';
import type { FlockContext } from '../../domain/iot/climate.js';
import { ageOn } from '../../domain/age.js';

/** The flock with an active cycle in the house, with its cycle: the age curve, the cycle days that take sensor figures, the scale's weights. */
export interface HouseFlock {
  flock: FlockSummary;
  cycle: CycleRecord;
}

export async function houseFlock(farmId: string, houseId: string): Promise<HouseFlock | null> {
  const flock = (await activeFlocksOfFarm(farmId)).find((f) => f.houseId === houseId && f.activeCycleId);
  if (!flock) return null;
  const cycle = await getCycle(flock.id, flock.activeCycleId!);
  return cycle && cycle.status === 'active' ? { flock, cycle } : null;
}

/** The flock's age on a UTC day, or null before its cycle started. */
export function flockOn(house: HouseFlock | null, day: string): FlockContext | null {
  if (!house || day < house.cycle.startDate) return null;
  return { birdType: house.cycle.birdType, ageDays: ageOn(house.cycle, day) };
}

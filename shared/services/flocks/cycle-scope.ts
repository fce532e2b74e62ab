import { cycleNotFound } from '../../domain/references.js';
import { visibleTo } from '../../domain/farm-access.js';
import { readCycleHead } from '../../db/analytics.js';
import { getCycle } from '../../db/cycles.js';
import type { CycleRecord } from '../../domain/flocks/records.js';
import type { Caller } from '../../domain/caller.js';

/**
 * A cycle read within the caller's farms, apart from ./cycles.ts (whose answers compute KPIs against the
 * breed standards), so the movement routes that only scope a cycle do not carry the standards' tables.
 */

/** The cycle, if it exists under that flock and the caller may see its farm: one read. */
export async function scopedCycle(user: Caller, flockId: string, cycleId: string): Promise<CycleRecord> {
  return visibleTo(user, await getCycle(flockId, cycleId), () => cycleNotFound(flockId, cycleId));
}

/**
 * A cycle with its flock and the stored analytics configuration: ONE BatchGetItem. Another farm's cycle
 * (or a missing flock) is NotFound like a missing one.
 */
export async function scopedCycleHead(user: Caller, flockId: string, cycleId: string) {
  const { flock, cycle, storedConfig } = await readCycleHead(flockId, cycleId);
  const head = flock && cycle ? { flock, cycle, storedConfig } : undefined;
  return visibleTo(
    user,
    head,
    () => cycleNotFound(flockId, cycleId),
    (h) => h.cycle.farmId,
  );
}

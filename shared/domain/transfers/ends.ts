import { Conflict } from '../../errors.js';
import { cycleNotFound, flockNotFound } from '../references.js';
import type { TransferEndRecord } from './records.js';

/**
 * The ends of a ledger transfer (birds, feed, eggs): a flock of the end's farm and its cycle (named, else
 * its active one), active. A flock or cycle of another farm is a missing one (404).
 */

/** A flock as an end needs it, as read. */
export interface EndFlock {
  id: string;
  farmId: string;
  activeCycleId: string | null;
}
/** A cycle as an end needs it, as read. */
export interface EndCycle {
  id: string;
  flockId: string;
  farmId: string;
  status: string;
}
/** An end's flock and cycle, as read (either may be missing). */
export interface EndFacts<C extends EndCycle = EndCycle> {
  flock: EndFlock | undefined;
  cycle: C | undefined;
}

/** The cycle to read for an end: the one named, else the flock's active one; none for a flock of another farm. */
export const endCycleId = (farmId: string, flock: EndFlock | undefined, cycleId?: string): string | undefined =>
  flock?.farmId === farmId ? (cycleId ?? flock.activeCycleId ?? undefined) : undefined;

/** The end at a flock of the farm (already judged to be one) and its active cycle; `advice` says what to do when there is none. */
export function activeEnd(
  farmId: string,
  flock: EndFlock,
  cycleId: string | undefined,
  cycle: EndCycle | undefined,
  advice: { none: string; closed: string },
): TransferEndRecord {
  const id = cycleId ?? flock.activeCycleId;
  if (!id) throw new Conflict(`Flock ${flock.id} has no active cycle; ${advice.none}`);
  if (cycle?.farmId !== flock.farmId) throw cycleNotFound(flock.id, id);
  if (cycle.status !== 'active') throw new Conflict(`Cycle ${id} of flock ${flock.id} is closed; ${advice.closed}`);
  return { farmId, flockId: flock.id, cycleId: id, movementId: null };
}

/** A flock of the farm, else the 404 of a missing one. */
export function flockOfFarm(farmId: string, flockId: string, flock: EndFlock | undefined): EndFlock {
  if (flock?.farmId !== farmId) throw flockNotFound(flockId);
  return flock;
}

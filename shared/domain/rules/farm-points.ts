/**
 * Points of the farm-level calculation templates (./calculations.ts, `appliesTo: 'farm'`): facts of the farm
 * rather than of a cycle, one point per calendar day, judged once per farm whatever its flocks.
 */
import { drillStatus, type DrillFact } from '../continuity/readiness.js';
import type { SeriesPoint } from './evaluation.js';

/** What a farm-level template reads: the farm's drills and the day it was created. */
export interface FarmFacts {
  drills: readonly DrillFact[];
  createdAt: string | null;
}

/**
 * Daily points of a farm-level calculation, one per day of `days` (UTC dates, oldest first), each judged
 * as the day stood at its end. generatorDrillOverdueDays is drillStatus's count (../continuity/readiness.ts,
 * the same due date as the readiness report). Throws on an id that is not a farm-level calculation.
 */
export function farmPoints(id: string, facts: FarmFacts, days: readonly string[]): SeriesPoint[] {
  if (id !== 'generatorDrillOverdueDays') throw new RangeError(`${id} is not a farm-level calculation`);
  return days.map((day): SeriesPoint => {
    const s = drillStatus('generator', facts.drills, day, facts.createdAt);
    const context = { ageDays: null, lastDrillDate: s.lastDate, lastDrillResult: s.lastResult, dueDate: s.dueDate, everyDays: s.everyDays };
    if (s.daysOverdue === null)
      return { bucket: day, value: null, context: { ...context, reason: 'no generator drill recorded, and the farm’s creation date is unknown' } };
    return { bucket: day, value: s.daysOverdue, context };
  });
}

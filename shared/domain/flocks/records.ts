import type { CycleCounters } from '../cycle-summary.js';
import type { DayAggregate, WeightMethod } from '../weights.js';

/** Flocks, their cycles, daily records and weighings as stored and decided on (keys and items: shared/db/flocks.ts, cycles.ts, daily-records.ts, weights.ts). */
export interface FlockRecord {
  id: string;
  farmId: string;
  houseId: string | null;
  name: string;
  birdType: 'broiler' | 'layer' | 'breeder';
  breed: string | null;
  hatchDate: string | null;
  source: string | null;
  notes: string | null;
  status: 'active' | 'archived';
  activeCycleId: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** A production cycle with the running counters the ledger keeps in the same transactions as its movements. */
export interface CycleRecord extends CycleCounters {
  id: string;
  flockId: string;
  farmId: string;
  birdType: 'broiler' | 'layer' | 'breeder';
  hatchDate: string | null;
  name: string | null;
  status: 'active' | 'closed';
  startDate: string;
  /**
   * The date of its earliest bird_inflow still recorded (the birds' age counts from it when the hatch date
   * is unknown: ../age.ts); derived from the ledger's `placedByDate.<date>` counters when the record is
   * read. Null (or absent, in records built without reading) when no inflow is known.
   */
  placedOn?: string | null;
  endDate: string | null;
  closedAt: string | null;
  targetAgeDays: number | null;
  /** The farm's lighting programme for the cycle (absent on cycles created before it existed). */
  lightingProgramme?: ReadonlyArray<{ fromAgeDays: number; lightHours: number }> | null;
  targetWeightGrams: number | null;
  notes: string | null;
  latestWeight: { date: string; grams: number } | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** One day's form of a cycle, with the ids of the movements it wrote. */
export interface DailyRecord {
  cycleId: string;
  flockId: string;
  date: string;
  stage: string;
  fields: Record<string, unknown>;
  movementIds: string[];
  warnings: string[];
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  version: number;
}

/** A weighing session (manual samples: one per weighing; an automatic scale: one per device and day, with its running aggregate). */
export interface WeightRecord {
  id: string;
  cycleId: string;
  flockId: string;
  farmId: string;
  date: string;
  method: WeightMethod;
  deviceId: string | null;
  houseId: string | null;
  /** Mean weight, g (0.1). */
  grams: number;
  sampleSize: number | null;
  sd: number | null;
  cv: number | null;
  uniformityPct: number | null;
  notes: string | null;
  /** Manual sessions sent as individual weighings. */
  samples?: number[];
  /** Automatic sessions: the running aggregate of the device's day. */
  day?: DayAggregate;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  version: number;
}

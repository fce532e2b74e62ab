/**
 * What the analytics engine computes from: the facts of one cycle, read in a bounded number of
 * DynamoDB calls (the cycle record, its daily rollups, its weighings). Everything in
 * `shared/domain/analytics` is pure: these inputs + the analytics configuration in, figures out.
 */
import { BIRD_FLOW_COUNTERS, recordOf } from '../counters.js';
import type { BirdType, Confidence, WeightMethod } from '../weights.js';
import type { FigureSource } from '../iot/house-figures.js';
import type { HouseDay } from '../iot/house-days.js';

/** The numeric counters of a day's rollup (the ledger adds to them: ../ledger.ts), named once. */
export const DAY_COUNTERS = [
  ...BIRD_FLOW_COUNTERS,
  // Σ quantity × averageWeightGrams of the bird_inflow movements that gave a placement weight, and how many birds that covers
  'inflowWeightGramsSum',
  'birdsInflowWeighed',
  // feed
  'feedDeliveredKg',
  'feedConsumedKg',
  // eggs
  'eggsCollected',
  'eggsCracked',
  'eggsDirty',
  'eggsDoubleYolk',
  // floor eggs (laid outside the nests), and the eggs graded by grade or size (`eggsByGrade`)
  'eggsFloor',
  'eggsGraded',
  // Σ totalEggs × averageEggWeightGrams of the collections that gave an egg weight, and the eggs that covers
  'eggWeightGramsSum',
  'eggsWeighed',
  'eggsSold',
  'eggsLost',
  // water and health
  'waterLiters',
  'medications',
  'vaccinations',
  // money carried on the movements themselves (a price on the movement wins over the pricing config):
  // birds placed with a unitCost, and Σ quantity × unitCost
  'birdsPlacedPriced',
  'birdPlacementCostPriced',
  // transfers between flocks with a unitCost: birds and Σ quantity × unitCost, in (the pullet cost) and out (the cost passed on)
  'birdsTransferredInPriced',
  'transferInCostPriced',
  'birdsTransferredOutPriced',
  'transferOutCostPriced',
  // sales: live kg of the sales that gave a weight; birds with a unitPrice and Σ quantity × unitPrice;
  // live kg of unpriced sales that gave a weight; birds of sales with neither
  'soldWeightKg',
  'birdsSoldPriced',
  'birdSaleRevenuePriced',
  'soldWeightKgUnpriced',
  'birdsSoldUnpricedUnweighed',
  // eggs sold with a unitPrice and Σ quantity × unitPrice
  'eggsSoldPriced',
  'eggSaleRevenuePriced',
] as const;
export type DayCounter = (typeof DAY_COUNTERS)[number];

/**
 * The per-key counters of a day's rollup, named once: a map each (deaths per cause; feed kg per feed
 * type consumed and delivered; feed delivered with a unitPrice per type, kg and Σ kg × unitPrice). In
 * the rollup item they are `<name>.<key>` attributes (`deathsByCause.heat`).
 */
export const DAY_COUNTER_MAPS = [
  'deathsByCause',
  'feedConsumedKgByType',
  'feedDeliveredKgByType',
  'feedDeliveredPricedKgByType',
  'feedDeliveredCostByType',
  'eggsByGrade',
] as const;
export type DayCounterMap = (typeof DAY_COUNTER_MAPS)[number];

const DAY_COUNTER_SET: ReadonlySet<string> = new Set(DAY_COUNTERS);
export const isDayCounter = (name: string): name is DayCounter => DAY_COUNTER_SET.has(name);

/** One calendar day of a cycle's ledger (the `DAY#<date>` rollup). Days without movements are absent; treat them as zeros. */
export interface DayTotals extends Record<DayCounter, number>, Record<DayCounterMap, Record<string, number>> {
  date: string;
  /** pH of the day's drinking-water readings (POST /api/v2/analytics/water-readings), in the order recorded. */
  waterPh?: number[];
  /**
   * Where the day's water and feed figures come from: `manual` (recorded movements, which always win),
   * `sensor` (the house's water meters and silo load cells, on a day without a manual figure), or null (none).
   */
  sources?: { waterLiters: FigureSource | null; feedConsumedKg: FigureSource | null };
}

/** One weighing session (GET …/weights): the mean body weight of the flock on a date. */
export interface WeighingPoint {
  date: string;
  grams: number;
  method: WeightMethod;
  confidence: Confidence;
  sampleSize: number | null;
  cv: number | null;
  uniformityPct: number | null;
}

/** The cycle and its flock, as far as the KPIs need them. */
export interface CycleFacts {
  cycleId: string;
  flockId: string;
  birdType: BirdType;
  /** Free text; analytics looks it up among the shipped breed standards. */
  breed: string | null;
  /** Age day 0 is the hatch date when known, else the first placement, else the start date (../age.ts). */
  hatchDate: string | null;
  /** The date of the cycle's first bird_inflow (null: none recorded, or recorded before the cycle record kept it). */
  placedOn?: string | null;
  startDate: string;
  /** Closed cycles: the end date; active: null (the series runs to `asOf`). */
  endDate: string | null;
  status: 'active' | 'closed';
  targetAgeDays: number | null;
  targetWeightGrams: number | null;
  /** Usable floor area of the flock's house, m² (stocking density); null when the flock has no house. */
  houseAreaM2: number | null;
}

export interface CycleInputs {
  cycle: CycleFacts;
  days: DayTotals[];
  weighings: WeighingPoint[];
  /** The last date the figures cover (today for an active cycle, its end date for a closed one). */
  asOf: string;
  /**
   * The farm-local today (the farm's time zone): a day from it on is not over, so a rate counts it only
   * once its record is in (../analytics/layer-figures.ts). Absent: every day up to asOf is over.
   */
  today?: string;
  /**
   * The climate of the flock's house per farm-local day, from the climate sensors' hours ingestion keeps
   * on the cycle's days (none or absent: no climate sensor in the house, or no house). The expected water of a broiler day is
   * corrected with the day's mean temperature.
   */
  houseDays?: HouseDay[];
  /** The farm's feed stock, every feed type together, when a figure needs it (days of feed left). */
  farmFeed?: FarmFeed | undefined;
}

/** A farm's feed stock: kg now, the net change of each date, and what was taken out each date (shared/domain/stock-dates.ts). */
export interface FarmFeed {
  kg: number;
  dated: Map<string, number>;
  out: Map<string, number>;
}

export const ZERO_DAY: Omit<DayTotals, 'date'> = { ...recordOf(DAY_COUNTERS, () => 0), ...recordOf(DAY_COUNTER_MAPS, (): Record<string, number> => ({})) };

/** A day of zeros (a day without movements). */
export const emptyDay = (date: string): DayTotals => ({ ...structuredClone(ZERO_DAY), date });

/**
 * A figure the API reports: a value with its unit, or null with the reason it could not be computed.
 * `assumptions` names every fallback (analytics config `fallbacks`) that stood in for a missing input.
 */
export interface Figure {
  value: number | null;
  unit: string;
  reason?: string;
  assumptions?: string[];
}

/**
 * What the analytics engine computes from: the facts of one cycle, read in a bounded number of
 * DynamoDB calls (the cycle record, its daily rollups, its weighings). Everything in
 * `shared/domain/analytics` is pure: these inputs + the analytics configuration in, figures out.
 */
import type { BirdType, Confidence, WeightMethod } from '../weights.js';

/** One calendar day of a cycle's ledger (the `DAY#<date>` rollup). Days without movements are absent; treat them as zeros. */
export interface DayTotals {
  date: string;
  // birds
  placed: number;
  transferredIn: number;
  deaths: number;
  culls: number;
  sold: number;
  transferredOut: number;
  deathsByCause: Record<string, number>;
  /** Σ quantity × averageWeightGrams of the bird_inflow movements that gave a placement weight, and how many birds that covers. */
  inflowWeightGramsSum: number;
  birdsInflowWeighed: number;
  // feed
  feedDeliveredKg: number;
  feedConsumedKg: number;
  feedConsumedKgByType: Record<string, number>;
  feedDeliveredKgByType: Record<string, number>;
  // eggs
  eggsCollected: number;
  eggsCracked: number;
  eggsDirty: number;
  eggsDoubleYolk: number;
  /** Σ totalEggs × averageEggWeightGrams of the collections that gave an egg weight, and the eggs that covers. */
  eggWeightGramsSum: number;
  eggsWeighed: number;
  eggsSold: number;
  eggsLost: number;
  // water and health
  waterLiters: number;
  /** pH of the day's drinking-water readings (POST /api/v2/analytics/water-readings), in the order recorded. */
  waterPh?: number[];
  medications: number;
  vaccinations: number;
  // money carried on the movements themselves (a price on the movement wins over the pricing config)
  /** Birds placed with a unitCost, and Σ quantity × unitCost. */
  birdsPlacedPriced: number;
  birdPlacementCostPriced: number;
  /** Feed delivered with a unitPrice, per feed type: kg and Σ kg × unitPrice. */
  feedDeliveredPricedKgByType: Record<string, number>;
  feedDeliveredCostByType: Record<string, number>;
  /** Sales: birds with a unitPrice and Σ quantity × unitPrice; live kg of unpriced sales that gave a weight; birds of sales with neither. */
  soldWeightKg: number;
  birdsSoldPriced: number;
  birdSaleRevenuePriced: number;
  soldWeightKgUnpriced: number;
  birdsSoldUnpricedUnweighed: number;
  /** Eggs sold with a unitPrice and Σ quantity × unitPrice. */
  eggsSoldPriced: number;
  eggSaleRevenuePriced: number;
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
  /** Age day 0: the hatch date when known, else the cycle's start date. */
  hatchDate: string | null;
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
}

export const ZERO_DAY: Omit<DayTotals, 'date'> = {
  placed: 0,
  transferredIn: 0,
  deaths: 0,
  culls: 0,
  sold: 0,
  transferredOut: 0,
  deathsByCause: {},
  inflowWeightGramsSum: 0,
  birdsInflowWeighed: 0,
  feedDeliveredKg: 0,
  feedConsumedKg: 0,
  feedConsumedKgByType: {},
  feedDeliveredKgByType: {},
  eggsCollected: 0,
  eggsCracked: 0,
  eggsDirty: 0,
  eggsDoubleYolk: 0,
  eggWeightGramsSum: 0,
  eggsWeighed: 0,
  eggsSold: 0,
  eggsLost: 0,
  waterLiters: 0,
  medications: 0,
  vaccinations: 0,
  birdsPlacedPriced: 0,
  birdPlacementCostPriced: 0,
  feedDeliveredPricedKgByType: {},
  feedDeliveredCostByType: {},
  soldWeightKg: 0,
  birdsSoldPriced: 0,
  birdSaleRevenuePriced: 0,
  soldWeightKgUnpriced: 0,
  birdsSoldUnpricedUnweighed: 0,
  eggsSoldPriced: 0,
  eggSaleRevenuePriced: 0,
};

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

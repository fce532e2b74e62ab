/**
 * Cycle financials (GET /api/v2/analytics/financials/{flockId}/{cycleId}): costs and revenue of one
 * cycle from its movements × the `pricing` section of the analytics configuration. Pure: the daily
 * rollups, the configuration and the live weight of the birds still alive in, figures out.
 *
 * A price carried on the movement itself always wins over the configuration (`unitCost` on
 * bird_inflow and bird transfers, `unitPrice` on feed_delivery, bird_sale, egg_sale). Every line says which quantity was
 * priced from movements and which from configuration defaults, and every default that stood in is
 * written out in `assumptions` ("412 kg of grower priced at the farm’s 0.45 USD/kg (pricing.feedPerKg)").
 *
 * This module: the output types (JSON-ready). The rules are written where they are applied: costs
 * (./costs.ts), revenue (./revenue.ts), margin, kg produced and unit costs (./cycle.ts), per hen and per egg
 * (./layer.ts), rounding (./amounts.ts).
 */
import type { Figure } from '../inputs.js';

/** One cost or revenue line: its amount, the quantity it prices, and how much came from movement prices vs the configuration. */
export interface FinancialLine {
  /** Amount in `currency`, cents. */
  amount: number;
  /** The quantity priced (in `unit`). */
  quantity: number;
  /** What `quantity` counts: birds, kg, m3, treatments, bird-doses, eggs. */
  unit: string;
  /** Quantity priced with prices carried on the movements. */
  pricedFromMovements: number;
  /** Quantity priced with configuration defaults. */
  pricedFromConfig: number;
  amountFromMovements: number;
  amountFromConfig: number;
  /** amount ÷ quantity (4 decimals); null when the quantity is 0. */
  averageUnitPrice: number | null;
  /** The configuration defaults that stood in for missing prices on this line. */
  assumptions: string[];
}

export type FeedPriceSource = 'deliveries' | 'farmDeliveries' | 'feedPerKgByType' | 'feedPerKg';

/** Feed consumed of one type and how it was valued. */
export interface FeedTypeCost {
  /** null: consumption recorded without a feed type. */
  feedType: string | null;
  consumedKg: number;
  /** Price per kg used (4 decimals). */
  unitPrice: number;
  /** deliveries: the cycle's average delivered price (of this type; of all types for untyped consumption); farmDeliveries: the farm's (deliveries booked without a cycle, up to the cycle's last day); else the pricing config key. */
  priceSource: FeedPriceSource;
  /** Priced kg delivered that the average stands on (0 unless priceSource is deliveries or farmDeliveries). */
  deliveredPricedKg: number;
  amount: number;
}

export interface BirdSalesBreakdown {
  pricedBirds: number;
  pricedRevenue: number;
  /** Unpriced sales with a totalWeightKg: birds, kg and revenue at pricing.liveWeightPerKg. */
  weighedUnpricedBirds: number;
  weighedUnpricedKg: number;
  weighedUnpricedRevenue: number;
  /** Unpriced sales without a weight: birds and revenue at pricing.birdPerHead. */
  unweighedUnpricedBirds: number;
  unweighedUnpricedRevenue: number;
}

export interface KgProduced extends Figure {
  /** Live kg of the sales that recorded totalWeightKg. */
  soldKg: number;
  /** Live kg of the birds alive at asOf (null: unknown). */
  aliveKg: number | null;
  birdsAlive: number;
  /** Birds sold without a recorded weight, as far as the rollups tell (see the module doc). */
  birdsSoldUnweighed: number;
}

export interface CycleFinancials {
  currency: string;
  costs: {
    chicks: FinancialLine;
    /** Birds transferred in from another flock at the cost per bird their transfer carried. */
    pullets: FinancialLine;
    feed: FinancialLine & { byType: FeedTypeCost[] };
    water: FinancialLine & { liters: number };
    medication: FinancialLine;
    vaccination: FinancialLine & { vaccinations: number };
    other: FinancialLine;
    /** Σ of the lines above: every cost this cycle paid or took over. */
    gross: number;
    /** Birds transferred out at the cost per bird their transfer carried: it leaves with them. */
    transferredOut: FinancialLine;
    /** gross − transferredOut: the cost this cycle keeps. */
    total: number;
  };
  revenue: {
    birds: FinancialLine & { breakdown: BirdSalesBreakdown };
    eggs: FinancialLine;
    total: number;
  };
  margin: Figure;
  marginPct: Figure;
  kgProduced: KgProduced;
  costPerKgLiveweight: Figure;
  costPerBirdPlaced: Figure;
  /** Total cost ÷ birds alive at asOf: a rearing cycle's cost per pullet, the unitCost to send with a transfer. */
  costPerBirdAlive: BasedFigure;
  costPerEgg: Figure;
  costPerTray: Figure;
  feedCostSharePct: Figure;
  /** Per hen housed and per egg (./layer.ts). */
  layer: LayerFinancials;
  /** Feed in bags and eggs in trays (unitConversions.feedBagKg, eggsPerTray), 2 decimals. */
  quantities: {
    feedBagKg: number;
    feedDeliveredKg: number;
    feedDeliveredBags: number;
    feedConsumedKg: number;
    feedConsumedBags: number;
    eggsPerTray: number;
    eggsCollected: number;
    eggsCollectedTrays: number;
    eggsSold: number;
    eggsSoldTrays: number;
  };
  /** Every assumption of every line, in line order, then those of the ratios. */
  assumptions: string[];
}

/** The live weight of the birds alive at asOf (from the KPI engine); reason/assumptions are passed through. */
export interface LiveWeightInput {
  kg: number | null;
  reason?: string;
  assumptions?: string[];
}

/** A figure with the division it is, written out with its numbers. */
export interface BasedFigure extends Figure {
  basis: string;
}

/** The per-hen and per-egg figures of a laying cycle (./layer.ts). */
export interface LayerFinancials {
  /** Birds placed + transferred in. */
  hensHoused: number;
  marginPerHenHoused: BasedFigure;
  feedPerHenHousedKg: BasedFigure;
  eggMassKg: BasedFigure;
  costPerDozenEggs: BasedFigure;
  costPerKgEggs: BasedFigure;
}

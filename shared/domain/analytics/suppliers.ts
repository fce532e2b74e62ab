/**
 * Feed supplier reliability (GET /api/v2/analytics/cycle/{flockId}/{cycleId}/suppliers), from the
 * cycle's feed_delivery movements. Pure: the deliveries in, one entry per supplier out.
 * Rates, score, weights and why: docs/analytics-reports.md ("Supplier reliability").
 */
import { round } from '../weights.js';
import { figure, missing } from './figures.js';
import type { Figure } from './inputs.js';
import { daysBetween } from '../../platform/calendar.js';

/** One feed_delivery movement as the analytics needs it. */
export interface FeedDeliveryFact {
  date: string;
  supplierId?: string | null;
  feedType: string;
  quantityKg: number;
  orderedDate?: string | null;
  /** The delivery date the supplier promised. */
  expectedDate?: string | null;
  orderedQuantityKg?: number | null;
  /** e.g. mould, wet, contaminated, wrong_type, damaged_bags, other. */
  qualityIssues?: string[] | null;
  /** Price per kg. */
  unitPrice?: number | null;
  /** ISO 4217 currency of `unitPrice`; absent or null: the report's currency (a movement's price is in its farm's currency). */
  currency?: string | null;
}

export const UNKNOWN_SUPPLIER = 'unknown';

export const SCORE_WEIGHTS = { quality: 0.4, onTime: 0.35, quantity: 0.25 } as const;
export type ScoreComponent = keyof typeof SCORE_WEIGHTS;

export interface SupplierReliability {
  supplierId: string;
  deliveries: number;
  kg: number;
  /** Per feed type: deliveries, kg and the average price per kg of its priced deliveries. */
  feedTypes: Record<string, { deliveries: number; kg: number; averagePricePerKg: Figure }>;
  firstDelivery: string;
  lastDelivery: string;
  onTime: {
    /** % of the deliveries with an expectedDate that arrived on or before it. */
    ratePct: Figure;
    onTime: number;
    late: number;
    /** Mean days late of the late deliveries. */
    averageDaysLate: Figure;
    /** Mean days from orderedDate to delivery. */
    averageLeadTimeDays: Figure;
  };
  quantity: {
    /** Mean |delivered − ordered| ÷ ordered × 100. */
    meanAbsVariancePct: Figure;
    /** Mean (delivered − ordered) ÷ ordered × 100: negative when short on average. */
    meanVariancePct: Figure;
    shortDeliveries: number;
    overDeliveries: number;
    exactDeliveries: number;
  };
  quality: {
    issueRatePct: Figure;
    deliveriesWithIssues: number;
    issuesByKind: Record<string, number>;
  };
  /** In the report's currency (the unit names it). */
  price: {
    averagePerKg: Figure;
    pricedKg: number;
  };
  /** Deliveries priced in another currency, averaged per currency (never added into `price`). */
  otherCurrencyPrices: Array<{ currency: string; deliveries: number; pricedKg: number; averagePerKg: Figure }>;
  /** Each component 0–100 (null: no data) and the reliability score, `index`. */
  components: Record<ScoreComponent, Figure>;
  score: Figure;
  /** Deliveries that fed each figure. */
  basis: { onTime: number; leadTime: number; quantity: number; quality: number; price: number };
}

export interface SupplierReliabilityReport {
  suppliers: SupplierReliability[];
  deliveries: number;
  kg: number;
  /** The weights of the score (before renormalisation over the components a supplier has data for). */
  scoreWeights: Record<ScoreComponent, number>;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
/** A Figure of `n` in `unit` (2 decimals unless told), or null with `reason`. */
const fig = (n: number | null, unit: string, reason: string, digits = 2): Figure => (n === null ? missing(unit, reason) : figure(n, unit, digits));
const PRICE_DIGITS = 4;
const SCORE_UNIT = 'index';
const NO_EXPECTED = 'no delivery carries an expectedDate';
const NO_ORDERED_QTY = 'no delivery carries an orderedQuantityKg';
const NO_PRICE = 'no priced delivery (unitPrice)';

export interface SupplierOptions {
  /** ISO 4217 currency of the unit prices (the analytics configuration's `pricing.currency`). */
  currency?: string;
}
/** Variances below this % count as exact (floating point noise). */
const EXACT_PCT = 1e-9;

/** A delivery priced in `currency`: one without a currency is in the report's (a movement's price is in its farm's currency). */
const pricedIn = (d: FeedDeliveryFact, currency: string): boolean => d.unitPrice !== undefined && d.unitPrice !== null && (d.currency ?? currency) === currency;

const kgAndCost = (ds: readonly FeedDeliveryFact[]) => ({
  kg: ds.reduce((a, d) => a + d.quantityKg, 0),
  cost: ds.reduce((a, d) => a + d.quantityKg * d.unitPrice!, 0),
});

/** The deliveries priced in other currencies than the report's, averaged per currency (sorted by code): never summed with the report's. */
function otherCurrencyPrices(deliveries: readonly FeedDeliveryFact[], currency: string) {
  const codes = [...new Set(deliveries.flatMap((d) => (d.currency && d.currency !== currency && pricedIn(d, d.currency) ? [d.currency] : [])))].sort();
  return codes.map((code) => {
    const ds = deliveries.filter((d) => d.currency === code && pricedIn(d, code));
    const { kg, cost } = kgAndCost(ds);
    return { currency: code, deliveries: ds.length, pricedKg: round(kg, 4), averagePerKg: figure(cost / kg, `${code}/kg`, PRICE_DIGITS) };
  });
}

function supplierOf(deliveries: readonly FeedDeliveryFact[], supplierId: string, currency: string): SupplierReliability {
  const priceUnit = `${currency}/kg`;
  const sorted = [...deliveries].sort((a, b) => a.date.localeCompare(b.date));
  const kg = sorted.reduce((a, d) => a + d.quantityKg, 0);

  const feedTypes: SupplierReliability['feedTypes'] = {};
  const typePriced = new Map<string, { kg: number; cost: number }>();
  for (const d of sorted) {
    const t = feedTypes[d.feedType] ?? { deliveries: 0, kg: 0, averagePricePerKg: missing(priceUnit, NO_PRICE) };
    feedTypes[d.feedType] = t;
    t.deliveries += 1;
    t.kg += d.quantityKg;
    if (pricedIn(d, currency)) {
      const p = typePriced.get(d.feedType) ?? { kg: 0, cost: 0 };
      p.kg += d.quantityKg;
      p.cost += d.quantityKg * d.unitPrice!;
      typePriced.set(d.feedType, p);
    }
  }
  for (const [type, t] of Object.entries(feedTypes)) {
    t.kg = round(t.kg, 4);
    const p = typePriced.get(type);
    t.averagePricePerKg = fig(p && p.kg > 0 ? p.cost / p.kg : null, priceUnit, NO_PRICE, PRICE_DIGITS);
  }

  // on time
  const withExpected = sorted.filter((d) => d.expectedDate);
  const daysLate = withExpected.map((d) => daysBetween(d.expectedDate!, d.date));
  const lateDays = daysLate.filter((x) => x > 0);
  const onTimeCount = daysLate.length - lateDays.length;
  const onTimeRate = withExpected.length ? (onTimeCount / withExpected.length) * 100 : null;
  const leadTimes = sorted.filter((d) => d.orderedDate).map((d) => daysBetween(d.orderedDate!, d.date));

  // quantity
  const withOrdered = sorted.filter((d) => d.orderedQuantityKg !== undefined && d.orderedQuantityKg !== null && d.orderedQuantityKg > 0);
  const variances = withOrdered.map((d) => ((d.quantityKg - d.orderedQuantityKg!) / d.orderedQuantityKg!) * 100);
  const meanAbs = mean(variances.map(Math.abs));

  // quality
  const issuesByKind: Record<string, number> = {};
  let withIssues = 0;
  for (const d of sorted) {
    const kinds = [...new Set((d.qualityIssues ?? []).map((k) => k.trim()).filter(Boolean))];
    if (kinds.length) withIssues += 1;
    for (const k of kinds) issuesByKind[k] = (issuesByKind[k] ?? 0) + 1;
  }
  const issueRate = sorted.length ? (withIssues / sorted.length) * 100 : null;

  // price
  const priced = sorted.filter((d) => pricedIn(d, currency));
  const { kg: pricedKg, cost: pricedCost } = kgAndCost(priced);

  const raw: Record<ScoreComponent, number | null> = {
    onTime: onTimeRate === null ? null : round(onTimeRate, 2),
    quantity: meanAbs === null ? null : round(Math.max(0, 100 - meanAbs), 2),
    quality: issueRate === null ? null : round(100 - issueRate, 2),
  };
  const components: Record<ScoreComponent, Figure> = {
    onTime: fig(raw.onTime, SCORE_UNIT, NO_EXPECTED),
    quantity: fig(raw.quantity, SCORE_UNIT, NO_ORDERED_QTY),
    quality: fig(raw.quality, SCORE_UNIT, 'no delivery'),
  };
  const score = reliabilityScore(raw);

  return {
    supplierId,
    deliveries: sorted.length,
    kg: round(kg, 4),
    feedTypes,
    firstDelivery: sorted[0]!.date,
    lastDelivery: sorted[sorted.length - 1]!.date,
    onTime: {
      ratePct: fig(onTimeRate, '%', NO_EXPECTED),
      onTime: onTimeCount,
      late: lateDays.length,
      averageDaysLate: fig(mean(lateDays), 'days', withExpected.length ? 'no late delivery' : NO_EXPECTED),
      averageLeadTimeDays: fig(mean(leadTimes), 'days', 'no delivery carries an orderedDate'),
    },
    quantity: {
      meanAbsVariancePct: fig(meanAbs, '%', NO_ORDERED_QTY),
      meanVariancePct: fig(mean(variances), '%', NO_ORDERED_QTY),
      shortDeliveries: variances.filter((v) => v < -EXACT_PCT).length,
      overDeliveries: variances.filter((v) => v > EXACT_PCT).length,
      exactDeliveries: variances.filter((v) => Math.abs(v) <= EXACT_PCT).length,
    },
    quality: { issueRatePct: fig(issueRate, '%', 'no delivery'), deliveriesWithIssues: withIssues, issuesByKind },
    price: { averagePerKg: fig(pricedKg > 0 ? pricedCost / pricedKg : null, priceUnit, NO_PRICE, PRICE_DIGITS), pricedKg: round(pricedKg, 4) },
    otherCurrencyPrices: otherCurrencyPrices(sorted, currency),
    components,
    score: score === null ? missing(SCORE_UNIT, 'no component has data') : figure(score, SCORE_UNIT, 1),
    basis: { onTime: withExpected.length, leadTime: leadTimes.length, quantity: withOrdered.length, quality: sorted.length, price: priced.length },
  };
}

/** Weighted mean of the components that have data (weights SCORE_WEIGHTS renormalised over them), 1 decimal; null when none has. */
export function reliabilityScore(components: Record<ScoreComponent, number | null>): number | null {
  let weight = 0;
  let sum = 0;
  for (const key of Object.keys(SCORE_WEIGHTS) as ScoreComponent[]) {
    const c = components[key];
    if (c === null) continue;
    weight += SCORE_WEIGHTS[key];
    sum += SCORE_WEIGHTS[key] * c;
  }
  return weight > 0 ? round(sum / weight, 1) : null;
}

/** The currency a report over several farms averages prices in: theirs when they share one, else the service's. */
export const reportCurrency = (farmCurrencies: readonly string[], serviceCurrency: string): string => {
  const codes = new Set(farmCurrencies);
  return codes.size === 1 ? [...codes][0]! : serviceCurrency;
};

/** Reliability of every supplier of the deliveries (see the module doc). */
export function supplierReliability(deliveries: readonly FeedDeliveryFact[], options: SupplierOptions = {}): SupplierReliabilityReport {
  const currency = options.currency ?? 'USD';
  const groups = new Map<string, FeedDeliveryFact[]>();
  for (const d of deliveries) {
    const id = d.supplierId?.trim() ? d.supplierId : UNKNOWN_SUPPLIER;
    const group = groups.get(id);
    if (group) group.push(d);
    else groups.set(id, [d]);
  }
  const suppliers = [...groups.entries()]
    .map(([id, ds]) => supplierOf(ds, id, currency))
    .sort((a, b) => b.kg - a.kg || a.supplierId.localeCompare(b.supplierId));
  return {
    suppliers,
    deliveries: deliveries.length,
    kg: round(
      deliveries.reduce((a, d) => a + d.quantityKg, 0),
      4,
    ),
    scoreWeights: { ...SCORE_WEIGHTS },
  };
}

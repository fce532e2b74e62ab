/**
 * A house's daily water and feed from its meters and silo load cells (pure), from the devices' daily
 * rollups. They stand in for the day's manual figures only when the day has none (./../analytics merges
 * them and names the source of each figure: `manual | sensor`).
 */
import type { SensorMetric } from '../../../schemas/vocabulary.js';
import { counterIncrease, type BucketStats } from './rollups.js';

/** The metrics that become a house's daily figures: a device reporting one writes them on the cycle's days. */
export const HOUSE_FIGURE_METRICS: readonly SensorMetric[] = ['waterLitersTotal', 'siloKg'];
export const feedsHouseFigures = (metrics: readonly SensorMetric[]): boolean => metrics.some((m) => HOUSE_FIGURE_METRICS.includes(m));

/**
 * Litres the meter counted on `day`: from the last reading of the day before (else from the day's first
 * reading) to the day's last; a reset or a replaced meter counts from the day's first reading
 * (`counterIncrease`, the rule of the hourly and daily rollups too).
 */
export function waterLitersOfDay(day: BucketStats | undefined, previousDay: BucketStats | undefined): number | null {
  const today = day?.waterLitersTotal;
  return today ? counterIncrease(today, previousDay?.waterLitersTotal) : null;
}

/**
 * Kilograms of feed that left the silo on `day`: what the load cells lost from the day's first reading to
 * its last, net of refills (rises of ≥ 100 kg between readings are deliveries, added back). Null without
 * readings; never negative (a refill smaller than the threshold shows as less consumption, not as feed).
 */
export function feedKgOfDay(day: BucketStats | undefined): number | null {
  const silo = day?.siloKg;
  if (!silo) return null;
  return round3(Math.max(0, silo.first - silo.last + (silo.refillKg ?? 0)));
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Where a day's water or feed figure comes from. */
export type FigureSource = 'manual' | 'sensor';

/** Sensor figures of one day of a cycle, per device (several meters or silos in one house add up). */
export interface SensorDayFigures {
  waterLiters: Record<string, number>;
  feedKg: Record<string, number>;
}

/**
 * The day's figure and its source: a manual figure (recorded movements) wins whenever the day has one;
 * otherwise the sum of the house's sensor figures; otherwise none.
 */
export function dayFigure(manual: number, sensor: Record<string, number> | undefined): { value: number; source: FigureSource | null } {
  if (manual > 0) return { value: manual, source: 'manual' };
  const values = Object.values(sensor ?? {});
  if (values.length === 0) return { value: 0, source: null };
  return { value: round3(values.reduce((a, b) => a + b, 0)), source: 'sensor' };
}

/**
 * A broiler flock on its breed's curve: expected water is the breed's daily feed intake × the water:feed
 * ratio (warmer houses drinking more); the day's weight between weighings grows along the curve, so the
 * daily FCR moves smoothly; and a flock fed and watered on the Ross 308 curve raises nothing.
 */
import { describe, expect, it } from 'vitest';
import { ANALYTICS_DEFAULTS } from '../../schemas/analytics-config.js';
import { standardFeedIntake, standardWeightGrams } from '../../shared/domain/analytics/breed-standards.js';
import { emptyDay, type CycleInputs, type DayTotals } from '../../shared/domain/analytics/inputs.js';
import { dailySeries } from '../../shared/domain/analytics/kpis/daily.js';
import { broilerWaterMl } from '../../shared/domain/analytics/kpis/feed-water.js';
import { COBB_500 } from '../../shared/domain/analytics/standards/cobb-500.js';
import { ROSS_308 } from '../../shared/domain/analytics/standards/ross-308.js';
import { thresholdBreaches } from '../../shared/domain/analytics/threshold-breaches.js';
import { rossBroilerCycle } from '../support/cycle-facts.js';

const config = () => structuredClone(ANALYTICS_DEFAULTS);
const B0 = '2026-06-01';
const dateOf = (n: number) => new Date(Date.parse(B0) + n * 86_400_000).toISOString().slice(0, 10);
const BIRDS = 22_000;

/** A Ross 308 house of 22,000 placed on day 0, eating and drinking on the breed curve (1.7 l per kg). */
function rossOnTheCurve(days: number): CycleInputs {
  const ledger: DayTotals[] = Array.from({ length: days + 1 }, (_, n) => {
    // the birds present that day: placed, less 11 deaths on each day before (0.05 % a day)
    const feedKg = n === 0 ? 0 : (standardFeedIntake(ROSS_308, n)!.grams * (BIRDS - 11 * (n - 1))) / 1000;
    return { ...emptyDay(dateOf(n)), placed: n === 0 ? BIRDS : 0, deaths: n === 0 ? 0 : 11, feedConsumedKg: feedKg, waterLiters: feedKg * 1.7 };
  });
  return {
    cycle: rossBroilerCycle(B0),
    days: ledger,
    weighings: [3, 7, 10, 14].map((n) => ({
      date: dateOf(n),
      grams: standardWeightGrams(ROSS_308, n)!.grams * 0.97,
      method: 'manual_sample' as const,
      confidence: 'medium' as const,
      sampleSize: 100,
      cv: 9,
      uniformityPct: 85,
    })),
    asOf: dateOf(days),
  };
}

describe('expected water of broilers', () => {
  it("is the breed's feed intake for the age × 1.7 l/kg, not age × 5.7 ml", () => {
    const ctx = { config: config(), standard: ROSS_308 };
    // day 1: 12 g (the cumulative feed of day 1) × 1.7 = 20.4 ml (age × 5.7 ml gave 5.7 ml, a quarter of it)
    expect(broilerWaterMl(ctx, 1, null).ml).toBeCloseTo(20.4, 9);
    expect(broilerWaterMl(ctx, 7, null)).toMatchObject({
      basis: 'Ross 308 daily feed intake at day 7 (35 g) × 1.7 l/kg water:feed at 21 °C (no house temperature for the day)',
    });
    expect(broilerWaterMl(ctx, 35, null).ml).toBeCloseTo(306, 9);
  });

  it('rises 6.5 % per °C above 21 °C', () => {
    const ctx = { config: config(), standard: ROSS_308 };
    expect(broilerWaterMl(ctx, 35, 31).ml).toBeCloseTo(180 * 1.7 * 1.65, 9);
    expect(broilerWaterMl(ctx, 35, 18).ml).toBeCloseTo(306, 9); // below 21 °C: the 21 °C figure
  });

  it('reads the intake where the publisher prints only cumulative feed (Cobb week 1), and falls back without a standard', () => {
    expect(standardFeedIntake(COBB_500, 3)).toEqual({ grams: 180 / 7, basis: 'Cobb 500 cumulative feed of the first 7 days (180 g), a mean per day' });
    expect(standardFeedIntake(COBB_500, 9)).toMatchObject({ grams: 44 });
    expect(broilerWaterMl({ config: config(), standard: null }, 10, null)).toEqual({
      ml: 57,
      basis: 'no breed standard: age × 5.7 ml (consumption.broilerWaterMlPerBirdPerAgeDay)',
    });
  });

  it('a flock fed and watered on the Ross 308 curve is at 100 % of expected every day and raises nothing', () => {
    const inputs = rossOnTheCurve(14);
    const rows = dailySeries(inputs, config());
    for (const r of rows.slice(1)) expect(r.waterPctOfExpected.value).toBe(100);
    expect(thresholdBreaches(inputs, config())).toEqual([]);
  });

  it('daily FCR moves smoothly between weighings: the weight grows along the curve instead of standing still', () => {
    const rows = dailySeries(rossOnTheCurve(14), config());
    const fcr = rows.slice(3, 15).map((r) => r.fcr.value!);
    // weighed at 97 % of the curve on days 3, 7, 10 and 14: FCR stays within 5 % of the Ross 308 cumulative FCR every day
    for (const [i, r] of rows.slice(3, 15).entries()) {
      const standard = ROSS_308.series.find((x) => x.key === 'cumulativeFcr')!.points.find(([d]) => d === r.ageDays)![1];
      expect(Math.abs(fcr[i]! / standard - 1), `day ${r.ageDays}: FCR ${fcr[i]} vs ${standard}`).toBeLessThan(0.05);
    }
    expect(rows[5]!.bodyWeight.assumptions?.[0]).toMatch(
      /^estimated from the weighing on 2026-06-04 \(2 days earlier, [\d.]+ g\) grown along the Ross 308 curve/,
    );
  });
});

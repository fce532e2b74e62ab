/**
 * Heat is heat, disease is disease (pure): a daily alarm is judged on the climate of its farm-local day
 * (the hottest hour of the house's climate sensors against the broiler age curve, named in the evidence),
 * heat stress ranks before disease whenever the house is that hot, disease ranks first when deaths rise
 * with feed and water falling in a house on the curve; and a broiler's expected water follows the day's
 * mean house temperature (+6.5 % per °C above 21 °C, or above the age curve while it is warmer, on the
 * breed intake × 1.7).
 */
import { describe, expect, it } from 'vitest';
import { ANALYTICS_DEFAULTS } from '../../schemas/analytics-config.js';
import { emptyDay, type CycleInputs } from '../../shared/domain/analytics/inputs.js';
import { dailySeries } from '../../shared/domain/analytics/kpis/daily.js';
import { broilerWaterMl, intakeLevels } from '../../shared/domain/analytics/kpis/feed-water.js';
import { standardFeedIntake } from '../../shared/domain/analytics/breed-standards.js';
import { ROSS_308 } from '../../shared/domain/analytics/standards/ross-308.js';
import { rankHypotheses, type Signals } from '../../shared/domain/diagnosis/hypotheses.js';
import { climateOfDay } from '../../shared/domain/diagnosis/signals.js';
import { houseDaysOf, type HouseDay } from '../../shared/domain/iot/house-days.js';
import type { BucketStats } from '../../shared/domain/iot/rollups.js';
import { temperatureRange } from '../../shared/domain/iot/climate.js';
import { rossBroilerCycle } from '../support/cycle-facts.js';

const DAY = '2026-07-15';
/** The hourly rollup of one sensor: `n` readings averaging `meanC`, with humidity and NH₃. */
const hour = (h: number, meanC: number, n = 4): { bucket: string; stats: BucketStats } => {
  const ts = Date.parse(`${DAY}T${String(h).padStart(2, '0')}:00:00Z`);
  const stat = (v: number) => ({ n, sum: v * n, min: v, max: v, first: v, firstTs: ts, last: v, lastTs: ts });
  return { bucket: `${DAY}T${String(h).padStart(2, '0')}`, stats: { temperatureC: stat(meanC), humidityPct: stat(55), nh3Ppm: stat(8) } };
};
/** A hot summer day: 29 °C at night up to 36 °C at 13:00 UTC (14:00 in Lagos, UTC+1). */
const hotDay = Array.from({ length: 24 }, (_, h) => hour(h, 29 + 7 * Math.max(0, 1 - Math.abs(h - 13) / 8)));
const broiler30 = { birdType: 'broiler' as const, ageDays: 30 };

describe('the climate of a farm-local day', () => {
  it('its hottest hour (named on the farm clock), its mean temperature and its NH₃ and humidity, pooled over sensors', () => {
    const second = hotDay.map((h) => ({ ...h, stats: { temperatureC: { ...h.stats.temperatureC!, sum: h.stats.temperatureC!.sum - 4 } } }));
    const [day, ...rest] = houseDaysOf([hotDay, second], 'Africa/Lagos').filter((d) => d.date === DAY);
    expect(rest).toEqual([]);
    // 13:00 UTC is 14:00 in Lagos; the two sensors pooled reading by reading (36 and 35)
    expect(day!.hottest).toEqual({ hour: `${DAY}T13`, localTime: '14:00', temperatureC: 35.5 });
    expect(day!.humidityPct).toBe(55);
    expect(day!.nh3Ppm).toBe(8);
    // the hours of the Lagos day start at 23:00 UTC the day before: the 23:00 UTC hour of DAY is the next day's
    expect(houseDaysOf([hotDay], 'Africa/Lagos').map((d) => d.date)).toEqual(['2026-07-15', '2026-07-16']);
  });
});

describe('heat stress against disease', () => {
  const house = (d: HouseDay | null) => climateOfDay(d, broiler30);
  const [hot] = houseDaysOf([hotDay], 'UTC');
  const curve = temperatureRange(broiler30);
  const onCurveC = (curve.min! + curve.max!) / 2;
  const [mild] = houseDaysOf([Array.from({ length: 24 }, (_, h) => hour(h, onCurveC - 1 + (h === 14 ? 1 : 0)))], 'UTC');
  const base: Signals = { metric: 'dailyMortalityPct', houseName: 'House 2', mortalityBaselinePct: 0.12 };

  it('day 30, 150 dead of 2,000 on a 29–36 °C day: heat stress first, naming the reading, its hour and the age curve', () => {
    const h = rankHypotheses({ ...base, mortalityPct: 7.5, feedChangePct: -12, waterChangePct: 6, ...house(hot!) });
    expect(h[0]!.cause).toBe('Heat stress');
    expect(h[0]!.supporting).toContainEqual(
      expect.stringContaining('36.0 °C at 13:00 in House 2, 15.0 °C above the 21.0 °C target for age 30 days (19.0–23.0 °C)'),
    );
    expect(h.findIndex((x) => x.cause === 'Disease')).toBeGreaterThan(0);
  });

  it('deaths rising with feed and water falling in a house on the age curve: disease first', () => {
    const h = rankHypotheses({ ...base, mortalityPct: 0.4, feedChangePct: -15, waterChangePct: -14, ...house(mild!) });
    expect(h[0]!.cause).toBe('Disease');
    expect(h[0]!.supporting).toContainEqual(expect.stringContaining('house temperature on the age curve (hottest hour 21.0 °C at 14:00 in House 2'));
    expect(h.some((x) => x.cause === 'Heat stress')).toBe(false);
  });

  it('a house hot for the age is never ranked disease, even with feed and water down and deaths three times the week before', () => {
    const warm: HouseDay = { ...hot!, hottest: { ...hot!.hottest!, temperatureC: onCurveC + 4 } };
    const h = rankHypotheses({ ...base, mortalityPct: 0.36, feedChangePct: -18, waterChangePct: -15, ...house(warm) });
    expect(h[0]!.cause).toBe('Heat stress');
    const disease = h.find((x) => x.cause === 'Disease')!;
    expect(disease.score).toBeLessThanOrEqual(h[0]!.score);
    expect(disease.contradicting).toContainEqual(expect.stringContaining('25.0 °C at 13:00 in House 2, 4.0 °C above'));
  });

  it('no climate sensor reading that day: the temperature is unknown, neither for nor against a cause', () => {
    expect(house(null)).toMatchObject({ temperatureDeviationC: null, temperature: null, nh3Ppm: null });
    expect(rankHypotheses({ ...base, mortalityPct: 7.5, ...house(null) }).map((x) => x.cause)).toEqual(['Disease']);
  });
});

describe('expected water follows the house temperature', () => {
  const start = '2026-06-15';
  const inputs = (meanC: number | null): CycleInputs => ({
    cycle: rossBroilerCycle(start),
    days: [
      { ...emptyDay(start), placed: 2000 },
      { ...emptyDay(DAY), waterLiters: 400, feedConsumedKg: 240 },
    ],
    weighings: [],
    asOf: DAY,
    houseDays: meanC === null ? [] : [{ date: DAY, meanTemperatureC: meanC, hottest: null, nh3Ppm: null, humidityPct: null, co2Ppm: null }],
  });
  const dayOf = (meanC: number | null) => dailySeries(inputs(meanC), structuredClone(ANALYTICS_DEFAULTS)).find((d) => d.date === DAY)!;

  it('a 31 °C day expects 65 % more water than a day on the 21 °C curve, and the % of expected falls with it', () => {
    const onCurve = dayOf(21);
    const hotDay = dayOf(31);
    const intakeKg = (standardFeedIntake(ROSS_308, 30)!.grams * onCurve.birds.present) / 1000;
    expect(onCurve.expectedWaterLiters.value).toBeCloseTo(intakeKg * 1.7, 2);
    expect(hotDay.expectedWaterLiters.value).toBeCloseTo(intakeKg * 1.7 * 1.65, 2);
    expect(hotDay.expectedWaterLiters.value!).toBeGreaterThan(onCurve.expectedWaterLiters.value!);
    expect(hotDay.waterPctOfExpected.value!).toBeLessThan(onCurve.waterPctOfExpected.value!);
    expect(hotDay.expectedWaterLiters.assumptions?.[0]).toContain('at 31 °C');
  });

  it('the causes weigh the intake against growth alone: drinking what a hot house expects is intake up, not a drop', () => {
    const hot = inputs(31);
    const row = dailySeries(hot, structuredClone(ANALYTICS_DEFAULTS)).find((d) => d.date === DAY)!;
    expect(intakeLevels(hot, structuredClone(ANALYTICS_DEFAULTS))(row)).toBeCloseTo(row.waterPctOfExpected.value! * 1.65, 1);
    expect(intakeLevels(inputs(null), structuredClone(ANALYTICS_DEFAULTS))(dayOf(null))).toBe(dayOf(null).waterPctOfExpected.value);
  });

  it('a brooding house kept on the age curve is the chicks’ comfort, not heat: no correction; above the curve, 6.5 % per °C', () => {
    const ctx = { config: structuredClone(ANALYTICS_DEFAULTS), standard: ROSS_308 };
    const target10 = (temperatureRange({ birdType: 'broiler', ageDays: 10 }).min! + temperatureRange({ birdType: 'broiler', ageDays: 10 }).max!) / 2;
    expect(broilerWaterMl(ctx, 10, target10).ml).toBeCloseTo(broilerWaterMl(ctx, 10, null).ml, 9);
    expect(broilerWaterMl(ctx, 10, target10 + 2).ml).toBeCloseTo(broilerWaterMl(ctx, 10, null).ml * 1.13, 9);
  });

  it('without a climate sensor, the ratio alone (21 °C)', () => {
    expect(dayOf(null).expectedWaterLiters.value).toBeCloseTo(dayOf(21).expectedWaterLiters.value!, 6);
    expect(dayOf(null).expectedWaterLiters.assumptions?.[0]).toContain('no house temperature for the day');
  });
});

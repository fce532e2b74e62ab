import { describe, expect, it } from 'vitest';
import { eggQualityTrend, isoWeek, leastSquaresSlope } from '../../shared/domain/analytics/egg-quality.js';
import { emptyDay, type DayTotals } from '../../shared/domain/analytics/inputs.js';

/** Every expected number below is worked out by hand in the comment next to it. */

/** A Figure (docs/analytics.md "Figures"); a null one is matched with toMatchObject, or given its reason. */
const f = (value: number | null, unit: string) => ({ value, unit });
const day = (date: string, fields: Partial<Omit<DayTotals, 'date'>> = {}): DayTotals => ({ ...emptyDay(date), ...fields });
/** A collection of `eggs` eggs with `crackedPct` % cracked, all weighed at `grams`. */
const collection = (date: string, eggs: number, cracked: number, grams: number | null, extra: Partial<DayTotals> = {}) =>
  day(date, { eggsCollected: eggs, eggsCracked: cracked, ...(grams === null ? {} : { eggWeightGramsSum: eggs * grams, eggsWeighed: eggs }), ...extra });

describe('calendar helpers', () => {
  it('ISO weeks: Monday to Sunday, week 1 holds the first Thursday, 53-week years', () => {
    // 2026-01-01 is a Thursday: its week (Mon 2025-12-29 … Sun 2026-01-04) is 2026-W01
    expect(isoWeek('2026-01-01')).toEqual({ key: '2026-W01', year: 2026, week: 1, monday: '2025-12-29', sunday: '2026-01-04' });
    expect(isoWeek('2025-12-29').key).toBe('2026-W01');
    // 2026-03-02 is a Monday: 2026-01-05 (W02) + 8 weeks → W10
    expect(isoWeek('2026-03-02')).toMatchObject({ key: '2026-W10', monday: '2026-03-02', sunday: '2026-03-08' });
    expect(isoWeek('2026-03-08').key).toBe('2026-W10');
    // a year that starts on a Thursday has 53 weeks: 2027-01-01 (a Friday) is in 2026-W53
    expect(isoWeek('2027-01-01')).toMatchObject({ key: '2026-W53', monday: '2026-12-28' });
    expect(isoWeek('2027-01-04').key).toBe('2027-W01');
  });

  it('least-squares slope', () => {
    // x̄ = 1, ȳ = 2; Σ(x−x̄)(y−ȳ) = (−1)(−1) + 0 + (1)(1) = 2; Σ(x−x̄)² = 2 → 1
    expect(
      leastSquaresSlope([
        [0, 1],
        [1, 2],
        [2, 3],
      ]),
    ).toBe(1);
    expect(
      leastSquaresSlope([
        [0, 1],
        [1, 2],
      ]),
    ).toBeNull(); // below 3 points
  });
});

describe('eggQualityTrend: daily reference', () => {
  const days = [
    collection('2026-03-02', 1_000, 20, 60, { eggsDirty: 10, eggsDoubleYolk: 5 }),
    day('2026-03-03', { eggsCollected: 980, eggsCracked: 30, eggWeightGramsSum: 500 * 62, eggsWeighed: 500 }), // half the eggs weighed, 62 g
    // 2026-03-04: no movements
    collection('2026-03-05', 1_020, 10, null, { eggsDirty: 20 }),
  ];
  const hens = { '2026-03-01': 1_100, '2026-03-04': 1_090 };
  const r = eggQualityTrend(days, hens, { window: 'day' });

  it('one period per calendar day, including the day without a collection', () => {
    expect(r.from).toBe('2026-03-02');
    expect(r.to).toBe('2026-03-05');
    expect(r.periods.map((p) => p.period)).toEqual(['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05']);
    // 03-02: cracked 20 ÷ 1,000 = 2.00 %, dirty 1.00 %, double yolk 0.50 %; saleable 1,000 − 20 − 10 = 970 (97.00 %); 60.0 g;
    // hens 1,100 (carried from 03-01) → hen-day 1,000 ÷ 1,100 = 90.909 → 90.91
    expect(r.periods[0]).toEqual({
      period: '2026-03-02',
      from: '2026-03-02',
      to: '2026-03-02',
      days: 1,
      eggsCollected: 1_000,
      eggsCracked: 20,
      eggsDirty: 10,
      eggsDoubleYolk: 5,
      crackedPct: f(2, '%'),
      dirtyPct: f(1, '%'),
      doubleYolkPct: f(0.5, '%'),
      saleableEggs: 970,
      saleablePct: f(97, '%'),
      averageEggWeightGrams: f(60, 'g'),
      eggsWeighed: 1_000,
      henDays: 1_100,
      henDayPct: f(90.91, '%'),
    });
    // 03-03: 30 ÷ 980 = 3.0612 → 3.06 %; saleable 950 ÷ 980 = 96.94 %; 31,000 g ÷ 500 = 62.0 g; 980 ÷ 1,100 = 89.09 %
    expect(r.periods[1]).toMatchObject({
      crackedPct: f(3.06, '%'),
      dirtyPct: f(0, '%'),
      saleableEggs: 950,
      saleablePct: f(96.94, '%'),
      averageEggWeightGrams: f(62, 'g'),
      eggsWeighed: 500,
      henDayPct: f(89.09, '%'),
    });
    // 03-04: nothing collected → ratios null; hens 1,090 → hen-day 0 %
    expect(r.periods[2]).toMatchObject({
      eggsCollected: 0,
      crackedPct: { value: null, unit: '%', reason: 'no eggs collected in the period' },
      dirtyPct: { value: null, unit: '%', reason: 'no eggs collected in the period' },
      saleableEggs: 0,
      saleablePct: { value: null, unit: '%', reason: 'no eggs collected in the period' },
      averageEggWeightGrams: { value: null, unit: 'g', reason: 'no eggs collected in the period' },
      henDays: 1_090,
      henDayPct: f(0, '%'),
    });
    // 03-05: 10 ÷ 1,020 = 0.98 %; 20 ÷ 1,020 = 1.96 %; saleable 990 ÷ 1,020 = 97.06 %; no weight; 1,020 ÷ 1,090 = 93.58 %
    expect(r.periods[3]).toMatchObject({
      crackedPct: f(0.98, '%'),
      dirtyPct: f(1.96, '%'),
      saleableEggs: 990,
      saleablePct: f(97.06, '%'),
      averageEggWeightGrams: { value: null, unit: 'g', reason: 'no collection of the period gave an egg weight' },
      henDayPct: f(93.58, '%'),
    });
  });

  it('overall: egg weight weighted by eggs, not a mean of daily means', () => {
    // 3,000 eggs; cracked 60 → 2.00 %; dirty 30 → 1.00 %; saleable 2,910 → 97.00 %
    // double yolk: of the graded eggs only (the days that recorded double yolks: 03-02's 1,000) → 5 ÷ 1,000 = 0.50 %
    // (not 5 ÷ 3,000 = 0.17 %: the eggs of 03-03 and 03-05 were never looked at for double yolks)
    // weight (60,000 + 31,000) ÷ 1,500 = 60.667 → 60.7 g (the mean of daily means would be 61.0)
    // hen-days 1,100 + 1,100 + 1,090 + 1,090 = 4,380; 3,000 ÷ 4,380 = 68.49 %
    expect(r.overall).toEqual({
      period: '2026-03-02/2026-03-05',
      from: '2026-03-02',
      to: '2026-03-05',
      days: 4,
      eggsCollected: 3_000,
      eggsCracked: 60,
      eggsDirty: 30,
      eggsDoubleYolk: 5,
      crackedPct: f(2, '%'),
      dirtyPct: f(1, '%'),
      doubleYolkPct: f(0.5, '%'),
      saleableEggs: 2_910,
      saleablePct: f(97, '%'),
      averageEggWeightGrams: f(60.7, 'g'),
      eggsWeighed: 1_500,
      henDays: 4_380,
      henDayPct: f(68.49, '%'),
    });
  });

  it('trend over the last 7 days: days without eggs are skipped; fewer than 3 values is insufficient', () => {
    // cracked: (x, y) = (0, 2.00), (1, 3.06), (3, 0.98); x̄ = 4/3, ȳ = 6.04/3 = 2.01333
    // Σ(x−x̄)(y−ȳ) = (−1.3333)(−0.01333) + (−0.3333)(1.04667) + (1.6667)(−1.03333) = 0.01778 − 0.34889 − 1.72222 = −2.05333
    // Σ(x−x̄)² = 1.7778 + 0.1111 + 2.7778 = 4.6667 → slope −0.44 per day = −3.08 per week → beyond 0.2: improving
    expect(r.trend.periods).toBe(4);
    expect(r.trend.crackedPct).toEqual({
      direction: 'improving',
      unit: '%',
      points: 3,
      slopePerPeriod: f(-0.44, 'pp/day'),
      slopePerWeek: f(-3.08, 'pp/week'),
      tolerancePerWeek: 0.2,
      mean: f(2.01, '%'),
      latest: f(0.98, '%'),
    });
    // dirty: (0, 1.00), (1, 0), (3, 1.96): x̄ = 4/3, ȳ = 0.98667; Σ(x−x̄)(y−ȳ) = (−1.3333)(0.01333) + (−0.3333)(−0.98667) + (1.6667)(0.97333)
    // = −0.01778 + 0.32889 + 1.62222 = 1.93333; ÷ 4.6667 = 0.41429 per day → 2.9 per week: worsening
    expect(r.trend.dirtyPct).toMatchObject({ direction: 'worsening', slopePerPeriod: f(0.4143, 'pp/day'), slopePerWeek: f(2.9, 'pp/week') });
    expect(r.trend.averageEggWeightGrams).toEqual({
      direction: 'insufficient_data',
      unit: 'g',
      points: 2,
      slopePerPeriod: { value: null, unit: 'g/day', reason: 'needs at least 3 periods with eggs; has 2' },
      slopePerWeek: { value: null, unit: 'g/week', reason: 'needs at least 3 periods with eggs; has 2' },
      tolerancePerWeek: 0.2,
      mean: f(61, 'g'),
      latest: { value: null, unit: 'g', reason: 'latest period: no collection of the period gave an egg weight' },
      reason: 'needs at least 3 periods with eggs; has 2',
    });
  });
});

describe('eggQualityTrend: weekly reference with a 4-week trend', () => {
  // One collection day per ISO week W10…W14 of 2026; the range ends on Wednesday 2026-04-01, so W14 has 3 days.
  const days = [
    collection('2026-03-02', 1_000, 50, 58), // W10: 5.00 % (outside the last 4 weeks)
    collection('2026-03-09', 1_000, 10, 60), // W11: 1.00 %, 60.0 g
    collection('2026-03-16', 1_000, 13, 60.5), // W12: 1.30 %, 60.5 g
    collection('2026-03-23', 1_000, 16, 61), // W13: 1.60 %, 61.0 g
    collection('2026-03-31', 1_000, 19, 61.5), // W14: 1.90 %, 61.5 g
  ];
  const r = eggQualityTrend(days, undefined, { window: 'week', to: '2026-04-01' });

  it('ISO weeks, the last clipped to the range', () => {
    expect(r.periods.map((p) => [p.period, p.from, p.to, p.days])).toEqual([
      ['2026-W10', '2026-03-02', '2026-03-08', 7],
      ['2026-W11', '2026-03-09', '2026-03-15', 7],
      ['2026-W12', '2026-03-16', '2026-03-22', 7],
      ['2026-W13', '2026-03-23', '2026-03-29', 7],
      ['2026-W14', '2026-03-30', '2026-04-01', 3],
    ]);
    // no hens given: hen-day unknown
    expect(r.periods[0]).toMatchObject({ henDays: null, henDayPct: { value: null, unit: '%', reason: 'hens alive not known' }, crackedPct: f(5, '%') });
  });

  it('cracked % rising 0.3 points a week is worsening; egg weight rising 0.5 g a week is improving; flat dirty % is stable', () => {
    expect(r.trend).toMatchObject({ periods: 4, from: '2026-03-09', to: '2026-04-01' });
    // x 0..3, y 1.0 1.3 1.6 1.9: slope 0.3 per week > 0.2 → worsening; mean 1.45
    expect(r.trend.crackedPct).toMatchObject({
      direction: 'worsening',
      slopePerPeriod: f(0.3, 'pp/week'),
      slopePerWeek: f(0.3, 'pp/week'),
      mean: f(1.45, '%'),
      latest: f(1.9, '%'),
      points: 4,
    });
    // y 60, 60.5, 61, 61.5: slope 0.5 g per week → improving; mean 60.75 → 60.8 (g: 1 decimal, like every weight Figure)
    expect(r.trend.averageEggWeightGrams).toMatchObject({ direction: 'improving', slopePerWeek: f(0.5, 'g/week'), mean: f(60.8, 'g') });
    expect(r.trend.dirtyPct).toMatchObject({ direction: 'stable', slopePerWeek: f(0, 'pp/week'), mean: f(0, '%') });
  });

  it('a slope exactly at the tolerance is stable; the tolerance and the number of periods are options', () => {
    // 1.0, 1.2, 1.4, 1.6 %: slope 0.2 per week = tolerance → stable
    const gentle = [
      ['2026-03-09', 10],
      ['2026-03-16', 12],
      ['2026-03-23', 14],
      ['2026-03-30', 16],
    ] as const;
    const weekly = gentle.map(([date, cracked]) => collection(date, 1_000, cracked, 60));
    expect(eggQualityTrend(weekly, null, { window: 'week' }).trend.crackedPct).toMatchObject({ direction: 'stable', slopePerWeek: f(0.2, 'pp/week') });
    expect(eggQualityTrend(weekly, null, { window: 'week', tolerance: { crackedPctPerWeek: 0.1 } }).trend.crackedPct.direction).toBe('worsening');
    // the last 5 weeks of the reference include W10's 5 %: y 5, 1, 1.3, 1.6, 1.9; x̄ 2, ȳ 2.16;
    // Σ(x−x̄)(y−ȳ) = (−2)(2.84) + (−1)(−1.16) + 0 + (1)(−0.56) + (2)(−0.26) = −5.68 + 1.16 − 0.56 − 0.52 = −5.6; ÷ 10 = −0.56 → improving
    expect(eggQualityTrend(days, null, { window: 'week', to: '2026-04-01', trendPeriods: 5 }).trend.crackedPct).toMatchObject({
      direction: 'improving',
      slopePerWeek: f(-0.56, 'pp/week'),
    });
  });

  it('weeks crossing the new year (2026 has 53 ISO weeks)', () => {
    const r2 = eggQualityTrend([collection('2026-12-31', 100, 1, 60), collection('2027-01-05', 100, 2, 61)], null, {
      window: 'week',
      from: '2026-12-28',
      to: '2027-01-10',
    });
    expect(r2.periods.map((p) => [p.period, p.from, p.to, p.crackedPct.value])).toEqual([
      ['2026-W53', '2026-12-28', '2027-01-03', 1],
      ['2027-W01', '2027-01-04', '2027-01-10', 2],
    ]);
  });
});

describe('eggQualityTrend: edge cases', () => {
  it('no days at all: no periods, no overall, trend insufficient', () => {
    const r = eggQualityTrend([], undefined, { window: 'week' });
    expect(r).toMatchObject({ from: null, to: null, periods: [], overall: null, trend: { periods: 0, from: null, to: null } });
    expect(r.trend.crackedPct).toMatchObject({
      direction: 'insufficient_data',
      points: 0,
      mean: { value: null, unit: '%', reason: 'no period with eggs' },
      latest: { value: null, unit: '%', reason: 'no period' },
      slopePerWeek: { value: null, unit: 'pp/week', reason: 'needs at least 3 periods with eggs; has 0' },
    });
  });

  it('zero eggs (a broiler cycle, or layers before lay): every ratio null, saleable 0', () => {
    const days = [day('2026-03-02', { placed: 1_000 }), day('2026-03-03', { deaths: 2 }), day('2026-03-04', { feedConsumedKg: 100 })];
    const r = eggQualityTrend(days, { '2026-03-02': 1_000, '2026-03-03': 998 }, { window: 'day' });
    for (const p of r.periods)
      expect(p).toMatchObject({
        eggsCollected: 0,
        crackedPct: { value: null, unit: '%', reason: 'no eggs collected in the period' },
        dirtyPct: { value: null, unit: '%', reason: 'no eggs collected in the period' },
        doubleYolkPct: { value: null, unit: '%', reason: 'no eggs collected in the period' },
        saleablePct: { value: null, unit: '%', reason: 'no eggs collected in the period' },
        averageEggWeightGrams: { value: null, unit: 'g', reason: 'no eggs collected in the period' },
        // hen-day counts the laying period, from the first day with eggs: there is none yet
        henDayPct: { value: null, unit: '%', reason: 'no eggs collected in the period' },
      });
    expect(r.overall).toMatchObject({ eggsCollected: 0, saleableEggs: 0, henDays: 0 }); // no laying day: no hen-day counted
    expect(r.trend.crackedPct.direction).toBe('insufficient_data');
  });

  it('hen-days are unknown for a period that starts before the first hens entry', () => {
    const r = eggQualityTrend([collection('2026-03-02', 900, 0, null), collection('2026-03-03', 950, 0, null)], { '2026-03-03': 1_000 }, { window: 'week' });
    // W10 covers 03-02 … 03-03 in range; 03-02 has no hens entry → null
    expect(r.periods[0]).toMatchObject({
      period: '2026-W10',
      days: 2,
      henDays: null,
      henDayPct: { value: null, unit: '%', reason: 'hens alive unknown on a day of the period (before the first bird count)' },
    });
    const d = eggQualityTrend([collection('2026-03-02', 900, 0, null), collection('2026-03-03', 950, 0, null)], { '2026-03-03': 1_000 }, { window: 'day' });
    expect(d.periods.map((p) => p.henDayPct.value)).toEqual([null, 95]); // 950 ÷ 1,000
  });

  it('cracked and dirty beyond the collection never make saleable eggs negative; days outside the range are ignored', () => {
    const r = eggQualityTrend([day('2026-03-01', { eggsCollected: 999 }), day('2026-03-02', { eggsCollected: 10, eggsCracked: 8, eggsDirty: 5 })], null, {
      window: 'day',
      from: '2026-03-02',
    });
    expect(r.periods).toHaveLength(1);
    expect(r.periods[0]).toMatchObject({ eggsCollected: 10, saleableEggs: 0, saleablePct: f(0, '%'), crackedPct: f(80, '%'), dirtyPct: f(50, '%') });
  });

  it('two rollups for the same date are summed', () => {
    const r = eggQualityTrend([collection('2026-03-02', 100, 1, 60), collection('2026-03-02', 100, 3, 62)], null, { window: 'day' });
    // 4 ÷ 200 = 2 %; (6,000 + 6,200) ÷ 200 = 61 g
    expect(r.periods[0]).toMatchObject({ eggsCollected: 200, crackedPct: f(2, '%'), averageEggWeightGrams: f(61, 'g') });
  });
});

import { describe, expect, it } from 'vitest';
import {
  EMPTY_DAY,
  addToDay,
  agesAt,
  binOf,
  confidenceOf,
  dayStats,
  histogramMedian,
  ingestDay,
  isImplausible,
  latestAllowedDate,
  manualInputProblems,
  manualStats,
  median,
  phaseOf,
  readingDate,
  sampleStats,
  withinUniformityBand,
} from '../../shared/domain/weights.js';

/** Every expected number below is worked out by hand in the comment next to it. */
describe('sample statistics (docs/domain.md: CV = SD(n−1) ÷ mean × 100; uniformity = share within ±10 % of the mean)', () => {
  it('five birds around 2 kg', () => {
    // mean 10000/5 = 2000; squared deviations 40000+10000+0+10000+40000 = 100000; var = 100000/4 = 25000;
    // SD = √25000 = 158.114 → 158.1; CV = 158.114/2000 = 7.906 % → 7.91; all within [1800, 2200] (bounds count) → 100 %.
    expect(sampleStats([1800, 1900, 2000, 2100, 2200])).toEqual({ n: 5, mean: 2000, sd: 158.1, cv: 7.91, uniformityPct: 100 });
  });

  it('six birds, two outside the band', () => {
    // mean 6000/6 = 1000; deviations −200 −100 0 0 100 200 → 40000+10000+0+0+10000+40000 = 100000; var = 100000/5 = 20000;
    // SD = 141.421 → 141.4; CV 14.14 %; band [900, 1100]: 900, 1000, 1000, 1100 → 4/6 = 66.67 % → 66.7.
    expect(sampleStats([800, 900, 1000, 1000, 1100, 1200])).toEqual({ n: 6, mean: 1000, sd: 141.4, cv: 14.14, uniformityPct: 66.7 });
  });

  it('day-old chicks with a fractional mean', () => {
    // mean 127/3 = 42.333 → 42.3; deviations −2.333 −0.333 2.667 → 5.444+0.111+7.111 = 12.667; var 6.333; SD 2.5166 → 2.5;
    // CV 2.5166/42.333 = 5.945 % → 5.94 (unrounded mean); band [38.1, 46.57] holds all three → 100 %.
    expect(sampleStats([40, 42, 45])).toEqual({ n: 3, mean: 42.3, sd: 2.5, cv: 5.94, uniformityPct: 100 });
  });

  it('one bird: a mean, no spread', () => {
    expect(sampleStats([1234.56])).toEqual({ n: 1, mean: 1234.6, sd: null, cv: null, uniformityPct: null });
  });

  it('the ±10 % band includes its bounds', () => {
    expect(withinUniformityBand(900, 1000)).toBe(true);
    expect(withinUniformityBand(1100, 1000)).toBe(true);
    expect(withinUniformityBand(899.9, 1000)).toBe(false);
    expect(withinUniformityBand(1100.1, 1000)).toBe(false);
  });

  it('a reported average keeps its sample size and has no spread', () => {
    expect(manualStats({ grams: 1530.25, sampleSize: 120 })).toEqual({ n: 120, mean: 1530.3, sd: null, cv: null, uniformityPct: null });
    expect(manualStats({ grams: 1530 })).toEqual({ n: null, mean: 1530, sd: null, cv: null, uniformityPct: null });
  });

  it('exactly one of grams or samples', () => {
    expect(manualInputProblems({ grams: 1000 })).toEqual([]);
    expect(manualInputProblems({ samples: [1000] })).toEqual([]);
    expect(manualInputProblems({ grams: 1000, samples: [1000] })).toEqual([
      { field: 'samples', message: 'send either grams (one average) or samples (individual weighings), not both' },
    ]);
    expect(manualInputProblems({})).toEqual([{ field: 'grams', message: 'is required unless samples (individual weighings) are sent' }]);
    expect(manualInputProblems({ samples: [1], sampleSize: 5 })[0]!.field).toBe('sampleSize');
  });
});

describe('confidence from sample size and CV', () => {
  it.each([
    [{ method: 'manual_sample', n: 100, cv: 10 }, 'high'],
    [{ method: 'automatic_scale', n: 2500, cv: 7.5 }, 'high'],
    [{ method: 'manual_sample', n: 100, cv: 10.01 }, 'medium'],
    [{ method: 'manual_sample', n: 99, cv: 5 }, 'medium'],
    [{ method: 'manual_sample', n: 30, cv: 20 }, 'medium'],
    [{ method: 'manual_sample', n: 29, cv: 5 }, 'low'],
    [{ method: 'manual_sample', n: 30, cv: 20.01 }, 'low'],
    [{ method: 'manual_sample', n: 1, cv: null }, 'low'],
    [{ method: 'manual_sample', n: null, cv: null }, 'low'],
    [{ method: 'manual_sample', n: 100, cv: null }, 'medium'],
    [{ method: 'manual_sample', n: 99, cv: null }, 'low'],
    [{ method: 'estimated', n: 1000, cv: 5 }, 'low'],
  ] as const)('%o → %s', (input, expected) => {
    expect(confidenceOf(input)).toBe(expected);
  });
});

describe('phase from bird type and age', () => {
  it.each([
    ['broiler', 0, 'brooding'],
    ['broiler', 10, 'brooding'],
    ['broiler', 11, 'growing'],
    ['broiler', 24, 'growing'],
    ['broiler', 25, 'finishing'],
    ['broiler', 60, 'finishing'],
    ['layer', 0, 'brooding'],
    ['layer', 27, 'brooding'],
    ['layer', 28, 'rearing'],
    ['layer', 125, 'rearing'],
    ['layer', 126, 'laying'],
    ['layer', 600, 'laying'],
    ['breeder', 27, 'brooding'],
    ['breeder', 28, 'rearing'],
    ['breeder', 167, 'rearing'],
    ['breeder', 168, 'laying'],
  ] as const)('%s at %i days → %s', (birdType, age, phase) => {
    expect(phaseOf(birdType, age)).toBe(phase);
  });

  it('ages: days in cycle from the start, age from the hatch date when known', () => {
    expect(agesAt('2026-11-05', { startDate: '2026-11-01', hatchDate: '2026-10-30' })).toEqual({ daysInCycle: 4, ageDays: 6 });
    expect(agesAt('2026-11-05', { startDate: '2026-11-01', hatchDate: null })).toEqual({ daysInCycle: 4, ageDays: 4 });
    // pullets placed at 16 weeks: laying by age although the cycle is 3 days old
    const pullets = agesAt('2026-11-04', { startDate: '2026-11-01', hatchDate: '2026-07-01' });
    expect(pullets).toEqual({ daysInCycle: 3, ageDays: 126 });
    expect(phaseOf('layer', pullets.ageDays)).toBe('laying');
  });

  it('the future starts after today in UTC+14', () => {
    expect(latestAllowedDate(new Date('2026-11-21T09:59:59Z'))).toBe('2026-11-21');
    expect(latestAllowedDate(new Date('2026-11-21T10:00:00Z'))).toBe('2026-11-22');
  });
});

describe('automatic scale days: running sums and a histogram', () => {
  it('mean, SD and CV from the sums equal the two-pass figures', () => {
    // mean 2000; deviations ±150, ±50, 0 → 22500·2 + 2500·2 = 50000; var 12500; SD 111.803 → 111.8; CV 5.59 %;
    // every reading is well inside [1800, 2200], so the histogram gives exactly 100 %.
    const day = addToDay(EMPTY_DAY, [1850, 1950, 2000, 2050, 2150]);
    expect(day).toMatchObject({ n: 5, sum: 10000, sumSq: 1850 ** 2 + 1950 ** 2 + 2000 ** 2 + 2050 ** 2 + 2150 ** 2, min: 1850, max: 2150 });
    expect(dayStats(day)).toEqual({ n: 5, mean: 2000, sd: 111.8, cv: 5.59, uniformityPct: 100 });
  });

  it('uniformity from the histogram when readings are clear of the band edges', () => {
    // mean 1000, band [900, 1100]: 1000 and 1000 inside, 700 and 1300 outside → 50 %;
    // deviations ±300 → 180000/3 = 60000; SD 244.949 → 244.9; CV 24.49 %.
    expect(dayStats(addToDay(EMPTY_DAY, [700, 1000, 1000, 1300]))).toEqual({ n: 4, mean: 1000, sd: 244.9, cv: 24.49, uniformityPct: 50 });
  });

  it('two batches merge into exactly what one batch of all readings gives', () => {
    const a = [1810, 1990, 2020, 2075, 1930];
    const b = [2105, 1880, 2010];
    const merged = dayStats(addToDay(addToDay(EMPTY_DAY, a), b));
    expect(merged).toEqual(dayStats(addToDay(EMPTY_DAY, [...a, ...b])));
    const exact = sampleStats([...a, ...b]);
    expect({ ...merged, uniformityPct: undefined }).toEqual({ ...exact, uniformityPct: undefined });
    expect(Math.abs(merged.uniformityPct! - exact.uniformityPct!)).toBeLessThanOrEqual(100 / 8); // at most one reading's share in an edge bin
  });

  it('histogram uniformity stays within the two edge bins of the exact figure on a realistic day', () => {
    // 1000 deterministic readings around 2 kg (CV ≈ 10 %)
    let seed = 42;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const values = Array.from({ length: 1000 }, () => Math.round(2000 * (1 + 0.17 * (rand() + rand() + rand() - 1.5))));
    const exact = sampleStats(values);
    const approx = dayStats(addToDay(EMPTY_DAY, values));
    expect(approx.mean).toBe(exact.mean);
    expect(approx.sd).toBe(exact.sd);
    expect(Math.abs(approx.uniformityPct! - exact.uniformityPct!)).toBeLessThan(1);
  });

  it('bins are 0.5 % wide', () => {
    expect(binOf(1000)).toBe(binOf(1004.9));
    expect(binOf(1000) + 1).toBe(binOf(1000 * 1.005 + 0.01));
    expect(Math.abs(histogramMedian(addToDay(EMPTY_DAY, [1900, 2000, 2100]).hist) / 2000 - 1)).toBeLessThan(0.005);
  });

  it('implausible readings: below 1 g (2.7e-72 g included: its square would not store), above 10 kg, not a number', () => {
    expect([0, -5, 0.5, 2.7e-72, 10_000.5, Number.NaN].map(isImplausible)).toEqual([true, true, true, true, true, true]);
    expect([1, 42, 10_000].map(isImplausible)).toEqual([false, false, false]);
  });

  it('outliers: beyond ±50 % of the day’s median, once the day has 3 readings', () => {
    // median of [900, 1900, 2000, 2100, 4200] is 2000 → band [1000, 3000]: 900 and 4200 go.
    const first = ingestDay(undefined, [2000, 2100, 1900, 4200, 900]);
    expect(first.accepted).toEqual([2000, 2100, 1900]);
    expect(first.outliers).toBe(2);
    expect(dayStats(first.merged)).toMatchObject({ n: 3, mean: 2000 });
    // two readings: no way to tell which one is wrong, both stay
    expect(ingestDay(undefined, [1000, 5000]).accepted).toEqual([1000, 5000]);
    // a later batch is judged against the merged day: stored 10 × 2000 g, median ≈ 2000 → 3100 > 3000 goes
    const later = ingestDay(addToDay(EMPTY_DAY, Array(10).fill(2000)), [2050, 3100]);
    expect(later.accepted).toEqual([2050]);
    expect(later.merged.n).toBe(11);
    expect(median([3, 1, 2, 10])).toBe(2.5);
  });

  it('a reading counts for the date written in its timestamp', () => {
    expect(readingDate('2026-11-20T23:30:00-05:00')).toBe('2026-11-20');
    expect(readingDate('2026-11-21T06:30:00+10:00')).toBe('2026-11-21');
  });
});

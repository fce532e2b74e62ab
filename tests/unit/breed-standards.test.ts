import { describe, expect, it } from 'vitest';
import { findBreedStandard, listBreedStandards, standardAt, standardWeightGrams, INTERPOLATION_NOTE } from '../../shared/domain/analytics/breed-standards.js';

/** The tables of docs/domain.md, copied here by hand so the shipped data is checked against the reference. */
const REFERENCE = {
  ross: {
    days: [0, 7, 14, 21, 28, 35, 42, 49, 56],
    weight: [44, 213, 533, 1012, 1616, 2296, 2998, 3681, 4318],
    fcr: [0.78, 1.005, 1.142, 1.269, 1.399, 1.531, 1.663, 1.793],
  },
  cobb: { weight: [42, 202, 570, 1116, 1783, 2521, 3278, 4001, 4641], fcr: [0.891, 1.029, 1.182, 1.322, 1.441, 1.555, 1.686, 1.842] },
  // Hy-Line Brown: the midpoints of the published bands
  hyline: {
    rearingWeeks: [1, 5, 10, 17],
    rearingWeight: [75, 390, 940, 1537.5],
    weeks: [18, 20, 24, 28, 40, 60, 80, 85, 90, 100],
    henDay: [4.4, 44.05, 94.35, 95.7, 94.05, 89.05, 79.35, 76.7, 74.4, 70.85],
    weight: [1610, 1740, 1885, 1960, 2020, 2030, 2030, 2030, 2030, 2030],
  },
  lohmann: {
    weeks: [1, 4, 8, 12, 16, 18, 20, 24, 30, 40, 60, 80, 95],
    weight: [75, 273, 677, 1047, 1351, 1493, 1635, 1846, 1921, 1946, 1996, 2046, 2058],
    henDayWeeks: [20, 24, 30, 40, 60, 80, 95],
    henDay: [45, 92, 95.2, 94, 86.3, 75.3, 66.8],
  },
};

describe('breed matching (normalized name or alias, same bird type, no fuzzy matching)', () => {
  it.each(['Ross 308', 'ross-308', 'ROSS308', ' ross_308 ', 'Aviagen Ross 308'])('%s → Ross 308', (name) => {
    expect(findBreedStandard(name, 'broiler')?.id).toBe('ross-308');
  });

  it.each(['Cobb 500', 'COBB-500', 'cobb500'])('%s → Cobb 500', (name) => {
    expect(findBreedStandard(name, 'broiler')?.id).toBe('cobb-500');
  });

  it.each([
    ['Hy-Line Brown', 'hy-line-brown'],
    ['hyline brown', 'hy-line-brown'],
    ['Lohmann Brown', 'lohmann-brown-classic'],
    ['LOHMANN BROWN-CLASSIC', 'lohmann-brown-classic'],
  ])('%s → %s', (name, id) => {
    expect(findBreedStandard(name, 'layer')?.id).toBe(id);
  });

  it.each([
    ['Ross 308 AP', 'broiler'], // another Aviagen product with its own objectives
    ['Ross', 'broiler'],
    ['Cobb 500 SF', 'broiler'],
    ['Heritage Red', 'broiler'],
    ['', 'broiler'],
    ['---', 'broiler'],
    ['Ross 308', 'breeder'], // parent stock follows another standard
    ['Ross 308', 'layer'],
    ['Hy-Line Brown', 'broiler'],
    ['Hy-Line Brown', 'breeder'],
  ] as const)('%s (%s) → no standard', (name, type) => {
    expect(findBreedStandard(name, type)).toBeNull();
  });

  it('no breed → no standard', () => {
    expect(findBreedStandard(null, 'broiler')).toBeNull();
  });
});

describe('values at an age: linear interpolation between tabulated ages, nothing outside the table', () => {
  const ross = findBreedStandard('Ross 308', 'broiler')!;
  const cobb = findBreedStandard('Cobb 500', 'broiler')!;
  const hyline = findBreedStandard('Hy-Line Brown', 'layer')!;
  const lohmann = findBreedStandard('Lohmann Brown-Classic', 'layer')!;

  it('broilers follow the published daily objectives: Ross 308 day 3 is 102 g, not 116.4 g interpolated between weeks', () => {
    const v = standardAt(ross, 3).values;
    expect(v.bodyWeight).toMatchObject({ value: 102, unit: 'g', interpolated: false });
    expect(v.dailyFeedIntake).toMatchObject({ value: 20, unit: 'g/bird/day', interpolated: false });
    expect(v.cumulativeFeed).toMatchObject({ value: 48, unit: 'g' });
    expect(v.cumulativeFcr).toMatchObject({ value: 0.476, interpolated: false });
    // day 10: 330 g, FCR 0.900 as printed (the weekly points gave 350.1 g and 0.8764)
    expect(standardAt(ross, 10).values.bodyWeight).toMatchObject({ value: 330, interpolated: false });
    expect(standardAt(ross, 10).values.cumulativeFcr).toMatchObject({ value: 0.9, interpolated: false });
  });

  it('every day of the daily tables agrees with the weekly checkpoints and with itself', () => {
    for (let d = 1; d <= 56; d++) {
      const v = standardAt(ross, d).values;
      const prev = standardAt(ross, d - 1).values;
      // the day's gain is the difference of the day's weights (Aviagen rounds each to 1 g)
      expect(Math.abs(v.bodyWeight!.value! - prev.bodyWeight!.value! - v.dailyGain!.value!)).toBeLessThanOrEqual(1);
      if (d >= 2) expect(Math.abs(v.cumulativeFeed!.value! - prev.cumulativeFeed!.value! - v.dailyFeedIntake!.value!)).toBeLessThanOrEqual(1);
      // cumulative FCR = cumulative feed ÷ weight, within the table's rounding
      expect(Math.abs(v.cumulativeFeed!.value! / v.bodyWeight!.value! - v.cumulativeFcr!.value!)).toBeLessThan(0.007);
    }
    for (let d = 8; d <= 56; d++) {
      const v = standardAt(cobb, d).values;
      expect(Math.abs(v.cumulativeFeed!.value! - standardAt(cobb, d - 1).values.cumulativeFeed!.value! - v.dailyFeedIntake!.value!)).toBeLessThanOrEqual(1);
    }
  });

  it('a tabulated day is not interpolated', () => {
    expect(standardAt(ross, 7).values.bodyWeight).toMatchObject({ value: 213, interpolated: false });
    expect(standardAt(ross, 56).values.cumulativeFcr).toMatchObject({ value: 1.793, interpolated: false });
  });

  it('every tabulated point equals the docs/domain.md table', () => {
    REFERENCE.ross.days.forEach((d, i) => {
      expect(standardAt(ross, d).values.bodyWeight!.value).toBe(REFERENCE.ross.weight[i]);
      expect(standardAt(cobb, d).values.bodyWeight!.value).toBe(REFERENCE.cobb.weight[i]);
      if (i > 0) {
        expect(standardAt(ross, d).values.cumulativeFcr!.value).toBe(REFERENCE.ross.fcr[i - 1]);
        expect(standardAt(cobb, d).values.cumulativeFcr!.value).toBe(REFERENCE.cobb.fcr[i - 1]);
      }
    });
    REFERENCE.hyline.weeks.forEach((w, i) => {
      expect(standardAt(hyline, w * 7).values.henDayPct!.value).toBe(REFERENCE.hyline.henDay[i]);
      expect(standardAt(hyline, w * 7).values.bodyWeight!.value).toBe(REFERENCE.hyline.weight[i]);
    });
    for (const [i, w] of REFERENCE.hyline.rearingWeeks.entries())
      expect(standardAt(hyline, w * 7).values.bodyWeight!.value).toBe(REFERENCE.hyline.rearingWeight[i]);
    for (const [i, w] of REFERENCE.lohmann.weeks.entries()) expect(standardAt(lohmann, w * 7).values.bodyWeight!.value).toBe(REFERENCE.lohmann.weight[i]);
    for (const [i, w] of REFERENCE.lohmann.henDayWeeks.entries()) expect(standardAt(lohmann, w * 7).values.henDayPct!.value).toBe(REFERENCE.lohmann.henDay[i]);
  });

  it('no extrapolation: null with the reason outside the table', () => {
    const before = standardAt(cobb, 3).values.cumulativeFcr!;
    expect(before.value).toBeNull();
    expect(before.reason).toBe('age 3 days is outside the Cobb 500 cumulative FCR table (day 7 to day 56); standards are not extrapolated');
    expect(standardAt(ross, 1).values.dailyFeedIntake!.value).toBeNull(); // printed from day 2 (day 1 only as the cumulative 12 g)
    expect(standardAt(ross, 57).values.bodyWeight!.value).toBeNull();
    expect(standardAt(hyline, 125).values.henDayPct!.value).toBeNull(); // week 18 = day 126 is the first
    expect(standardAt(hyline, 701).values.henDayPct!.value).toBeNull(); // week 100 = day 700 is the last
  });

  it('Cobb 500 day 30 is the published 1989 g (the weekly points interpolated gave 1993.9 g)', () => {
    expect(standardAt(cobb, 30).values.bodyWeight).toMatchObject({ value: 1989, interpolated: false });
  });

  it('week tables: week N = N × 7 days, interpolated in days', () => {
    // Hy-Line day 130 = 4/7 of the way from week 18 (day 126, 4.4 %) to week 19 (day 133, 8.2–27.1 → 17.65 %):
    // 4.4 + 4/7 × 13.25 = 11.971 %; weight 1610 + 4/7 × (1680 − 1610) = 1650 g, its band 1590–1710 g
    expect(standardAt(hyline, 130).values.henDayPct).toMatchObject({ value: 11.97, interpolated: true });
    expect(standardAt(hyline, 130).values.bodyWeight).toMatchObject({ value: 1650, unit: 'g', band: { low: 1590, high: 1710 } });
    // Lohmann day 100 (week 14.29): 1205 + (100 − 98) ÷ (105 − 98) × (1279 − 1205) = 1205 + 2/7 × 74 = 1226.143
    expect(standardAt(lohmann, 100).values.bodyWeight!.value).toBe(1226.1);
    // Lohmann's production goals: day 200 = 94.7 + 4/7 × (95.0 − 94.7) = 94.871 %
    expect(standardAt(lohmann, 200).values.henDayPct).toMatchObject({ value: 94.87, interpolated: true });
  });

  it('body weight in grams whatever the table unit', () => {
    expect(standardWeightGrams(hyline, 126)).toEqual({ grams: 1610, interpolated: false });
    expect(standardWeightGrams(ross, 10)).toEqual({ grams: 330, interpolated: false });
    expect(standardWeightGrams(lohmann, 6)).toBeNull(); // week 1 = day 7 is the first
    const kg = { ...hyline, series: [{ key: 'bodyWeight', label: 'Body weight', unit: 'kg', decimals: 3, basis: 'published', points: [[18, 1.61]] }] } as const;
    expect(standardWeightGrams(kg as unknown as typeof hyline, 126)).toEqual({ grams: 1610, interpolated: false });
  });
});

describe('GET /api/v2/analytics/breeds', () => {
  const list = listBreedStandards();

  it('lists the four standards with source, edition and status', () => {
    expect(list.map((s) => [s.id, s.birdType, s.status, s.edition])).toEqual([
      ['ross-308', 'broiler', 'official', 2022],
      ['cobb-500', 'broiler', 'official', 2022],
      ['hy-line-brown', 'layer', 'approximate', null],
      ['lohmann-brown-classic', 'layer', 'approximate', null],
    ]);
    expect(list[0]!.source).toMatchObject({ publisher: 'Aviagen' });
    expect(list[1]!.source).toMatchObject({ publisher: 'Cobb-Vantress' });
    for (const s of list) expect(s.interpolation).toBe(INTERPOLATION_NOTE);
    expect(INTERPOLATION_NOTE).toMatch(/^values as tabulated/);
  });

  it('series with units, age ranges and the tabulated points', () => {
    const ross = list[0]!;
    expect(ross.series.map((s) => [s.key, s.unit, s.ageRange])).toEqual([
      ['bodyWeight', 'g', { from: 0, to: 56, unit: 'day' }],
      ['dailyGain', 'g', { from: 1, to: 56, unit: 'day' }],
      ['dailyFeedIntake', 'g/bird/day', { from: 2, to: 56, unit: 'day' }],
      ['cumulativeFeed', 'g', { from: 1, to: 56, unit: 'day' }],
      ['cumulativeFcr', 'kg/kg', { from: 1, to: 56, unit: 'day' }],
    ]);
    expect(ross.series[0]!.points).toHaveLength(57);
    expect(ross.series[0]!.points.filter((p) => p.age % 7 === 0).map((p) => p.value)).toEqual(REFERENCE.ross.weight);
    const hyline = list[2]!;
    expect(hyline.series.find((s) => s.key === 'henDayPct')).toMatchObject({
      unit: '%',
      ageRange: { from: 18, to: 100, unit: 'week' },
      ageRangeDays: { from: 126, to: 700 },
      basis: 'band midpoint',
    });
    expect(hyline.series.find((s) => s.key === 'henDayPct')!.points[1]).toEqual({ age: 19, ageDays: 133, value: 17.65, low: 8.2, high: 27.1 });
    expect(list[3]!.series).toHaveLength(8);
  });

  it('is JSON-ready', () => {
    expect(JSON.parse(JSON.stringify(list))).toEqual(list);
  });
});

import { describe, expect, it } from 'vitest';
import { findBreedStandard, listBreedStandards, standardAt, standardWaterIntake, standardWeightGrams } from '../../shared/domain/analytics/breed-standards.js';
import { HY_LINE_BROWN_TABLES } from '../../shared/domain/analytics/standards/hy-line-brown.js';
import { LOHMANN_BROWN_CLASSIC_TABLES } from '../../shared/domain/analytics/standards/lohmann-brown-classic.js';

/**
 * The layer guides from the first week of rearing to the end of lay: Hy-Line Brown weeks 1–100 (its bands
 * served as their midpoints, labelled), Lohmann Brown-Classic weeks 1–95 with its production goals, and the
 * guides' own arithmetic as the check of the transcription.
 */
const hyline = findBreedStandard('Hy-Line Brown', 'layer')!;
const lohmann = findBreedStandard('Lohmann Brown-Classic', 'layer')!;
const week = (n: number) => n * 7;

describe('Hy-Line Brown: rearing and lay, the band midpoint as the target', () => {
  it('a rearing weighing at week 5 has a standard: the midpoint of the published 360–420 g band', () => {
    expect(standardAt(hyline, week(5)).values.bodyWeight).toMatchObject({
      value: 390,
      unit: 'g',
      interpolated: false,
      basis: 'band midpoint',
      band: { low: 360, high: 420 },
    });
    expect(standardWeightGrams(hyline, week(5))).toEqual({ grams: 390, interpolated: false });
    // every rearing week has a weight, feed and water target; week 1 = day 7 is the first
    for (let w = 1; w <= 17; w++)
      for (const key of ['bodyWeight', 'dailyFeedIntake', 'waterIntake'] as const) expect(standardAt(hyline, week(w)).values[key]!.value).not.toBeNull();
    expect(standardAt(hyline, 6).values.bodyWeight!.value).toBeNull();
  });

  it('the peak hen-day target is the midpoint of the published 94.8–96.6 % band (95.7 %), not the low end', () => {
    const points = hyline.series.find((s) => s.key === 'henDayPct')!.points;
    const peak = Math.max(...points.map(([, v]) => v));
    expect(peak).toBe(95.7);
    expect(points.filter(([, v]) => v === peak).map(([w]) => w)).toEqual([27, 28, 29]);
    expect(standardAt(hyline, week(28)).values.henDayPct).toMatchObject({ value: 95.7, basis: 'band midpoint', band: { low: 94.8, high: 96.6 } });
    expect(peak).not.toBe(93.6);
  });

  it('week 85: hen-day, egg weight, egg mass, feed, hen-housed eggs, livability and water targets', () => {
    const v = standardAt(hyline, week(85)).values;
    expect(v.henDayPct).toMatchObject({ value: 76.7, band: { low: 74.8, high: 78.6 } });
    expect(v.eggWeight).toMatchObject({ value: 65.1, unit: 'g', basis: 'published' });
    // no egg mass column per hen-day: 76.7 % × 65.1 g ÷ 100 = 49.9317 g, labelled derived
    expect(v.eggMass).toMatchObject({ value: 49.93, unit: 'g/hen/day', basis: 'derived' });
    expect(v.dailyFeedIntake).toMatchObject({ value: 112, unit: 'g/bird/day', band: { low: 108, high: 116 } });
    expect(v.henHousedEggs).toMatchObject({ value: 399.85, unit: 'eggs/hen', band: { low: 390.8, high: 408.9 } });
    // livability in lay = 100 − the printed 5.68 % mortality since housing
    expect(v.livability).toMatchObject({ value: 94.32, unit: '%', basis: 'derived' });
    expect(v.mortality).toMatchObject({ value: 5.68, basis: 'published' });
    expect(v.waterIntake).toMatchObject({ value: 197.5, unit: 'ml/bird/day', band: { low: 163, high: 232 } });
  });

  it('the tables run to week 100: week 95 is 71.5–73.7 % → 72.6 %, nothing after day 700', () => {
    expect(standardAt(hyline, week(95)).values.henDayPct!.value).toBe(72.6);
    expect(standardAt(hyline, week(100)).values.eggWeight!.value).toBe(65.5);
    expect(standardAt(hyline, week(100) + 1).values.henDayPct!.value).toBeNull();
  });

  it('livability in rearing counts from the day-old chicks, in lay from housing: no value between weeks 17 and 18', () => {
    expect(standardAt(hyline, week(17)).values.rearingLivability!.value).toBe(98);
    expect(standardAt(hyline, week(18)).values.livability!.value).toBe(99.95);
    const between = standardAt(hyline, week(17) + 3).values;
    expect([between.rearingLivability!.value, between.livability!.value]).toEqual([null, null]);
  });

  it('the expected water of a pullet and of a hen comes from the water table', () => {
    expect(standardWaterIntake(hyline, week(5))).toEqual({
      ml: 58,
      basis: 'Hy-Line Brown water intake at week 5: 58 ml per bird (midpoint of the published 43–73 ml band)',
    });
    // day 130, between week 18 (110–176 → 143 ml) and week 19 (127–188 → 157.5 ml): 143 + 4/7 × 14.5 = 151.29 ml
    expect(standardWaterIntake(hyline, 130)?.ml).toBeCloseTo(151.2857, 3);
    expect(standardWaterIntake(lohmann, week(30))).toBeNull();
  });

  it('the tables pass the guide’s own arithmetic (both edges of every band)', () => {
    const { rearing: r, production: p } = HY_LINE_BROWN_TABLES;
    for (const edge of ['low', 'high'] as const) {
      // cumulative feed grows by 7 days of the week's daily intake (±4 g of rounding)
      for (let i = 1; i < r.cumulativeFeedG[edge].length; i++)
        expect(Math.abs(r.cumulativeFeedG[edge][i]! - r.cumulativeFeedG[edge][i - 1]! - 7 * r.feedIntakeG[edge][i]!)).toBeLessThanOrEqual(4);
      // cumulative hen-day eggs grow by the week's hen-day % × 7 ÷ 100 (±0.25)
      for (let i = 1; i < p.henDayEggsCum[edge].length; i++)
        expect(Math.abs(p.henDayEggsCum[edge][i]! - p.henDayEggsCum[edge][i - 1]! - (p.henDayPct[edge][i]! * 7) / 100)).toBeLessThanOrEqual(0.25);
    }
    // cumulative columns and mortality never fall
    for (const col of [r.mortalityCumPct, p.mortalityCumPct, p.henHousedEggMassCumKg, p.eggWeightG])
      for (let i = 1; i < col.length; i++) expect(col[i]!).toBeGreaterThanOrEqual(col[i - 1]!);
  });
});

describe('Lohmann Brown-Classic: body weight from week 1, production goals weeks 19–95', () => {
  it('has a hen-day series as published, to week 95 (and no weekly feed, water or livability)', () => {
    expect(standardAt(lohmann, week(19)).values.henDayPct).toMatchObject({ value: 10, basis: 'published', interpolated: false });
    expect(standardAt(lohmann, week(30)).values.henDayPct!.value).toBe(95.2);
    expect(standardAt(lohmann, week(95)).values.henDayPct!.value).toBe(66.8);
    expect(standardAt(lohmann, week(95)).values.eggMass!.value).toBe(46.4);
    expect(standardAt(lohmann, week(95)).values.henHousedEggs!.value).toBe(430);
    // the guide publishes no weekly feed, water or livability
    const keys = lohmann.series.map((s) => s.key);
    for (const missing of ['dailyFeedIntake', 'waterIntake', 'livability'] as const) expect(keys).not.toContain(missing);
  });

  it('rearing weights from week 1: the guide’s weight average, with its printed range', () => {
    expect(standardAt(lohmann, week(5)).values.bodyWeight).toMatchObject({ value: 366, basis: 'published', band: { low: 355, high: 377 } });
    expect(standardAt(lohmann, week(95)).values.bodyWeight!.value).toBe(2058);
  });

  it('the tables pass the guide’s own arithmetic', () => {
    const t = LOHMANN_BROWN_CLASSIC_TABLES;
    // egg mass = hen-day % × egg weight ÷ 100; Δ cumulative hen-housed eggs = hen-housed % × 7 ÷ 100; the weight average is the middle of its range
    // both factors printed to 0.1
    for (const [i, m] of t.eggMassGPerHenDay.entries()) expect(Math.abs(m - (t.henDayPct[i]! * t.eggWeightG[i]!) / 100)).toBeLessThanOrEqual(0.11);
    for (let i = 1; i < t.henHousedEggsCum.length; i++)
      expect(Math.abs(t.henHousedEggsCum[i]! - t.henHousedEggsCum[i - 1]! - (t.henHousedPct[i]! * 7) / 100)).toBeLessThanOrEqual(0.1);
    for (const [i, w] of t.bodyWeightG.entries()) expect(Math.abs(w - (t.bodyWeightRangeG.low[i]! + t.bodyWeightRangeG.high[i]!) / 2)).toBeLessThanOrEqual(0.5);
  });
});

describe('GET /api/v2/analytics/breeds: the layer tables with their basis', () => {
  const list = listBreedStandards();

  it('Hy-Line Brown: every series with its basis, the band at every point', () => {
    const h = list.find((s) => s.id === 'hy-line-brown')!;
    expect(h.series.find((s) => s.key === 'bodyWeight')).toMatchObject({
      basis: 'band midpoint',
      ageRange: { from: 1, to: 100, unit: 'week' },
      derivation: null,
    });
    expect(h.series.find((s) => s.key === 'bodyWeight')!.points[4]).toEqual({ age: 5, ageDays: 35, value: 390, low: 360, high: 420 });
    expect(h.series.find((s) => s.key === 'eggMass')).toMatchObject({
      basis: 'derived',
      derivation: expect.stringMatching(/^hen-day % \(band midpoint\) × egg weight/),
    });
    expect(h.series.find((s) => s.key === 'eggWeight')!.points[0]).toEqual({ age: 18, ageDays: 126, value: 46.5 });
  });

  it('Lohmann Brown-Classic: eight published series', () => {
    const l = list.find((s) => s.id === 'lohmann-brown-classic')!;
    expect(l.series.map((s) => [s.key, s.basis, s.ageRange.from, s.ageRange.to])).toEqual([
      ['bodyWeight', 'published', 1, 95],
      ['henDayPct', 'published', 19, 95],
      ['henHousedPct', 'published', 19, 95],
      ['henHousedEggs', 'published', 19, 95],
      ['eggWeight', 'published', 19, 95],
      ['eggWeightAverage', 'published', 19, 95],
      ['eggMass', 'published', 19, 95],
      ['henHousedEggMass', 'published', 19, 95],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { ANALYTICS_DEFAULTS } from '../../schemas/analytics-config.js';
import { emptyDay, type CycleInputs, type DayTotals, type WeighingPoint } from '../../shared/domain/analytics/inputs.js';
import { predictions } from '../../shared/domain/analytics/predictions.js';
import { forecastProduction } from '../../shared/domain/analytics/production-forecast.js';
import { fitConfidence, fitRatio, predictWeight } from '../../shared/domain/analytics/weight-prediction.js';

/** Every expected number is worked out by hand in the comment next to it. */

const config = () => structuredClone(ANALYTICS_DEFAULTS);
const dateOf = (start: string, n: number) => new Date(Date.parse(start) + n * 86_400_000).toISOString().slice(0, 10);
const day = (date: string, fields: Partial<DayTotals>): DayTotals => ({ ...emptyDay(date), ...fields });
const weighing = (date: string, grams: number): WeighingPoint => ({
  date,
  grams,
  method: 'manual_sample',
  confidence: 'high',
  sampleSize: 100,
  cv: null,
  uniformityPct: null,
});

const B0 = '2026-03-01';
const b = (n: number) => dateOf(B0, n);
const broiler = (weighings: WeighingPoint[], over: Partial<CycleInputs['cycle']> = {}, days: DayTotals[] = [day(B0, { placed: 1000 })]): CycleInputs => ({
  cycle: {
    cycleId: 'c',
    flockId: 'f',
    birdType: 'broiler',
    breed: 'Ross 308',
    hatchDate: B0,
    startDate: B0,
    endDate: null,
    status: 'active',
    targetAgeDays: 35,
    targetWeightGrams: 2000,
    houseAreaM2: null,
    ...over,
  },
  days,
  weighings,
  asOf: weighings.at(-1)?.date ?? b(10),
});

describe('weight fitted against the breed curve', () => {
  it('weighings exactly 90 % of Ross 308: ratio 0.9, no residual, medium confidence (2 weighings)', () => {
    // day 14: 0.9 × 533 = 479.7 g; day 28: 0.9 × 1616 = 1454.4 g
    const p = predictWeight(broiler([weighing(b(14), 479.7), weighing(b(28), 1454.4)]), config());
    expect(p.fit).toMatchObject({
      method: 'breed_curve_scaled',
      ratio: { value: 0.9, unit: 'index' },
      weighings: 2,
      residualRmsGrams: { value: 0, unit: 'g' },
      residualRmsPct: { value: 0, unit: '%' },
      adgGramsPerDay: { value: null, unit: 'g/day', reason: 'the scaled breed curve is used, not a straight-line ADG' },
      confidence: 'medium',
    });
    expect(p.fit.standard).toMatchObject({ id: 'ross-308' });
    // weight at day 35 = 0.9 × 2296 = 2066.4 g, on 2026-03-01 + 35 days = 2026-04-05
    expect(p.atTargetAge).toMatchObject({ ageDays: 35, date: '2026-04-05', weight: { value: 2066.4, unit: 'g' } });
    // 2000 g: day 34 = 0.9 × (1616 + 6/7 × 680 = 2198.857) = 1978.97 < 2000; day 35 = 2066.4 ≥ 2000 → day 35
    expect(p.targetWeight).toEqual({ grams: 2000, reached: false, ageDays: 35, date: '2026-04-05' });
    expect(p.assumptions[0]).toMatch(/Ross 308 weight curve scaled by 0\.9/);
  });

  it('recent weighings weigh more (half-life 7 days)', () => {
    // d28 1500 g (standard 1616, weight 0.5), d35 2310 g (standard 2296, weight 1):
    // r = (0.5 × 1500 × 1616 + 2310 × 2296) ÷ (0.5 × 1616² + 2296²) = (1,212,000 + 5,303,760) ÷ (1,305,728 + 5,271,616)
    //   = 6,515,760 ÷ 6,577,344 = 0.990637  (unweighted it would be 7,727,760 ÷ 7,883,072 = 0.980298)
    const p = predictWeight(broiler([weighing(b(28), 1500), weighing(b(35), 2310)], { targetAgeDays: 42 }), config());
    expect(p.fit.ratio).toEqual({ value: 0.9906, unit: 'index' });
    // residuals: 1500 − 0.990637 × 1616 = −100.869 g; 2310 − 0.990637 × 2296 = 35.498 g
    // RMS g = √((0.5 × 100.869² + 35.498²) ÷ 1.5) = √((5087.3 + 1260.1) ÷ 1.5) = √4231.6 = 65.05
    // RMS % = √((0.5 × (100.869/1600.869)² + (35.498/2274.502)²) ÷ 1.5) = √((0.0019852 + 0.0002436) ÷ 1.5) = 3.85 %
    expect(p.fit.residualRmsGrams.unit).toBe('g');
    expect(p.fit.residualRmsGrams.value).toBeCloseTo(65.05, 1);
    expect(p.fit.residualRmsPct.unit).toBe('%');
    expect(p.fit.residualRmsPct.value).toBeCloseTo(3.85, 1);
    expect(p.fit.confidence).toBe('medium'); // 2 weighings, ≤ 6 %
    // day 42 = 0.990637 × 2998 = 2969.93 g
    expect(p.atTargetAge.weight.value).toBe(2969.9);
    // 2000 g already weighed on day 35 (2310 g ≥ 2000)
    expect(p.targetWeight).toEqual({ grams: 2000, reached: true, ageDays: 35, date: '2026-04-05' });
  });

  it('fitRatio and the confidence rule on their own', () => {
    // three points at 1.05 × standard → r = 1.05 exactly whatever the weights, no residual → high
    const f = fitRatio([
      { ageDays: 7, actual: 210, standard: 200 },
      { ageDays: 14, actual: 525, standard: 500 },
      { ageDays: 21, actual: 1050, standard: 1000 },
    ])!;
    expect(f.ratio).toBeCloseTo(1.05, 12);
    expect(f.rmsGrams).toBeCloseTo(0, 9);
    expect(fitConfidence(3, 3)).toBe('high');
    expect(fitConfidence(3, 3.01)).toBe('medium');
    expect(fitConfidence(2, 6)).toBe('medium');
    expect(fitConfidence(2, 6.01)).toBe('low');
    expect(fitConfidence(1, 0)).toBe('low'); // one weighing always fits exactly
    expect(fitRatio([])).toBeNull();
  });

  it('no extrapolation of the standard: beyond day 56 the answer is null with the reason', () => {
    const p = predictWeight(broiler([weighing(b(14), 479.7), weighing(b(28), 1454.4)], { targetAgeDays: 60, targetWeightGrams: 5000 }), config());
    expect(p.atTargetAge.weight).toMatchObject({
      value: null,
      reason: 'age 60 days is outside the Ross 308 weight table (days 0–56); the standard is not extrapolated',
    });
    // 0.9 × 4318 = 3886.2 g at day 56 < 5000
    expect(p.targetWeight).toMatchObject({ reached: false, date: null });
    expect(p.targetWeight.reason).toBe("the fitted curve stays below 5,000 g up to day 56, the end of the standard's table (no extrapolation)");
  });

  it('options override the cycle targets', () => {
    const p = predictWeight(broiler([weighing(b(14), 479.7), weighing(b(28), 1454.4)]), config(), { targetAgeDays: 21, targetWeightGrams: 1400 });
    expect(p.atTargetAge.weight.value).toBe(910.8); // 0.9 × 1012
    expect(p.targetWeight).toEqual({ grams: 1400, reached: true, ageDays: 28, date: b(28) }); // 1454.4 ≥ 1400 on day 28
  });

  it('a standard but no weighing: the standard itself, low confidence, and it says so', () => {
    const p = predictWeight(broiler([]), config());
    expect(p.fit).toMatchObject({
      method: 'breed_curve',
      ratio: { value: 1, unit: 'index' },
      residualRmsPct: { value: null, unit: '%', reason: 'no weighing fitted: the standard curve itself' },
      confidence: 'low',
      weighings: 0,
    });
    expect(p.atTargetAge.weight.value).toBe(2296);
    expect(p.assumptions).toEqual(['no weighing yet: the Ross 308 standard curve itself']);
  });

  it('no standard: the recent ADG extrapolated linearly, low confidence', () => {
    // ADG = (1200 − 800) ÷ 7 = 57.143 g/day; day 35 = 1200 + 57.143 × 7 = 1600 g
    // 1500 g: 28 + ⌈(1500 − 1200) ÷ 57.143⌉ = 28 + ⌈5.25⌉ = day 34 = 2026-04-04
    const p = predictWeight(broiler([weighing(b(21), 800), weighing(b(28), 1200)], { breed: 'Heritage Red', targetWeightGrams: 1500 }), config());
    expect(p.fit).toMatchObject({
      method: 'linear_adg',
      standard: null,
      ratio: { value: null, unit: 'index', reason: 'no breed curve fitted: the recent ADG is extrapolated' },
      adgGramsPerDay: { value: 57.1, unit: 'g/day' },
      confidence: 'low',
    });
    expect(p.atTargetAge.weight.value).toBe(1600);
    expect(p.targetWeight).toEqual({ grams: 1500, reached: false, ageDays: 34, date: '2026-04-04' });
    expect(p.assumptions).toEqual([
      'no standard for breed Heritage Red (broiler): the ADG between the weighings of 2026-03-22 and 2026-03-29 (57.1 g/day) extrapolated in a straight line',
    ]);
  });

  it('no standard and one weighing: ADG since placement', () => {
    // placement weight 40 g (inflow), day 10 400 g: ADG = 360 ÷ 10 = 36 g/day; day 20 = 400 + 36 × 10 = 760 g
    const inputs = broiler([weighing(b(10), 400)], { breed: null, targetAgeDays: 20 }, [
      day(B0, { placed: 1000, inflowWeightGramsSum: 40_000, birdsInflowWeighed: 1000 }),
    ]);
    const p = predictWeight(inputs, config());
    expect(p.fit.adgGramsPerDay).toEqual({ value: 36, unit: 'g/day' });
    expect(p.atTargetAge.weight.value).toBe(760);
  });

  it('no standard and no weighing: nothing to predict, with the reason', () => {
    const p = predictWeight(broiler([], { breed: 'Heritage Red' }), config());
    expect(p.fit.method).toBe('none');
    expect(p.atTargetAge.weight).toMatchObject({ value: null, reason: 'no standard for breed Heritage Red (broiler), and no weighing' });
    expect(p.reason).toBe('no standard for breed Heritage Red (broiler), and no weighing');
  });
});

// Layer: Hy-Line Brown hatched 2025-01-01; 1,000 hens placed at age 196 (2025-07-16); asOf age 210 (2025-07-30);
// the last 7 days (ages 204–210) 900 eggs a day, no deaths.
const L0 = '2025-07-16';
const layer = (breed = 'Hy-Line Brown'): CycleInputs => ({
  cycle: {
    cycleId: 'l',
    flockId: 'f',
    birdType: 'layer',
    breed,
    hatchDate: '2025-01-01',
    startDate: L0,
    endDate: null,
    status: 'active',
    targetAgeDays: null,
    targetWeightGrams: null,
    houseAreaM2: null,
  },
  days: Array.from({ length: 15 }, (_, i) => day(dateOf(L0, i), { eggsCollected: 900, ...(i === 0 ? { placed: 1000 } : {}) })),
  weighings: [],
  asOf: dateOf(L0, 14),
});

describe('layer production forecast', () => {
  it('the Hy-Line curve scaled by the last week’s actual ÷ standard eggs', () => {
    const f = forecastProduction(layer(), config());
    // the Hy-Line hen-day band midpoints: week 29 (day 203) 94.8–96.6 → 95.7 %, week 30 (day 210) 94.8–96.5 → 95.65 %;
    // standard ages 204–210: 95.7 − (age − 203) × 0.05/7; Σ = 7 × 95.7 − 0.05/7 × (1 + 2 + … + 7 = 28) = 669.9 − 0.2 = 669.7
    // → standard eggs 1000 × 6.697 = 6697; actual 7 × 900 = 6300 → r = 6300 ÷ 6697 = 0.940720
    expect(f.method).toBe('breed_curve_scaled');
    expect(f.ratio).toEqual({ value: 0.9407, unit: 'index' });
    expect(f.basis).toEqual({ from: '2025-07-24', to: '2025-07-30', eggs: 6300, henDayPct: { value: 90, unit: '%' }, standardEggs: 6697 });
    expect(f.hensAlive).toBe(1000);
    expect(f.weeks).toHaveLength(8);
    // week 1 = ages 211–217, between week 30 (210, 95.65 %) and week 31 (217, 94.7–96.5 → 95.6 %): mean = 95.65 − 4 × 0.05/7 = 95.621429
    // × 0.940720 = 89.9530 %; eggs = 1000 hens × 7 days × 0.899530 = 6296.71
    expect(f.weeks[0]).toMatchObject({ week: 1, from: '2025-07-31', to: '2025-08-06', ageWeek: 31 });
    expect(f.weeks[0]!.henDayPct.value).toBe(89.95);
    expect(f.weeks[0]!.eggs.value).toBe(6297);
    expect(f.assumptions).toContain('no mortality projected: the hens alive at asOf lay every day of the forecast');
  });

  it('no forecast beyond the standard’s last week (100)', () => {
    // hatched 420 days earlier: asOf at age 630 (week 90)
    const old = layer();
    const f = forecastProduction({ ...old, cycle: { ...old.cycle, hatchDate: dateOf('2025-01-01', -420) } }, config(), { forecastWeeks: 52 });
    // week 10 ends at age 630 + 70 = 700 = week 100 (inside); week 11 starts at 701 (outside)
    expect(f.weeks[9]!.henDayPct.value).not.toBeNull();
    expect(f.weeks[10]!.henDayPct).toMatchObject({
      value: null,
      reason: 'outside the Hy-Line Brown hen-day table (weeks 18–100); the standard is not extrapolated',
    });
  });

  it('no hen-day standard (a breed without one): the last week’s hen-day held flat', () => {
    const f = forecastProduction(layer('Bovans Brown'), config(), { forecastWeeks: 2 });
    // 6300 eggs ÷ 7000 hen-days = 90 %; eggs = 1000 × 7 × 0.9 = 6300 a week
    expect(f.method).toBe('recent_flat');
    expect(f.weeks.map((w) => [w.henDayPct.value, w.eggs.value])).toEqual([
      [90, 6300],
      [90, 6300],
    ]);
    expect(f.assumptions[0]).toBe("no standard for breed Bovans Brown (layer) with a hen-day curve: the last 7 days' hen-day (90 %) held flat");
  });

  it('Lohmann Brown-Classic forecasts from its published hen-day curve', () => {
    const f = forecastProduction(layer('Lohmann Brown'), config(), { forecastWeeks: 1 });
    // standard ages 204–210, between week 29 (day 203, 95.0 %) and week 30 (day 210, 95.2 %): 95 + (age − 203) × 0.2/7;
    // Σ = 7 × 95 + 0.2/7 × 28 = 665.8 → standard eggs 6658; r = 6300 ÷ 6658 = 0.946230
    expect(f).toMatchObject({ method: 'breed_curve_scaled', standard: { id: 'lohmann-brown-classic' } });
    expect(f.ratio.value).toBe(0.9462);
    expect(f.basis?.standardEggs).toBe(6658);
  });

  it('broilers have no production forecast', () => {
    const all = predictions(broiler([weighing(b(14), 479.7)]), config());
    expect(all.production).toMatchObject({ method: 'none', weeks: [], reason: 'layers and breeders only' });
    expect(all.weight.fit.method).toBe('breed_curve_scaled');
  });
});

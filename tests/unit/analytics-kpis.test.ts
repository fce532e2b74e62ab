import { describe, expect, it } from 'vitest';
import { ANALYTICS_DEFAULTS, type AnalyticsSections } from '../../schemas/analytics-config.js';
import { emptyDay, type CycleInputs, type DayTotals, type WeighingPoint } from '../../shared/domain/analytics/inputs.js';
import { epefOf } from '../../shared/domain/analytics/kpis/broiler.js';
import { cycleKpis } from '../../shared/domain/analytics/kpis/cycle.js';
import { dailySeries } from '../../shared/domain/analytics/kpis/daily.js';
import type { DailyKpis } from '../../shared/domain/analytics/kpis/types.js';
import { compareWithStandard } from '../../shared/domain/analytics/comparison.js';
import { predictions } from '../../shared/domain/analytics/predictions.js';
import { thresholdBreaches } from '../../shared/domain/analytics/threshold-breaches.js';

/**
 * Every expected number below is worked out by hand in the comment next to it, from the formulas of
 * docs/domain.md, never read back from the implementation.
 */

const config = (patch: Partial<{ [K in keyof AnalyticsSections]: Partial<AnalyticsSections[K]> }> = {}): AnalyticsSections => {
  const c = structuredClone(ANALYTICS_DEFAULTS);
  for (const [k, v] of Object.entries(patch)) Object.assign(c[k as keyof AnalyticsSections], v);
  return c;
};
const dateOf = (start: string, n: number) => new Date(Date.parse(start) + n * 86_400_000).toISOString().slice(0, 10);
const day = (date: string, fields: Partial<DayTotals>): DayTotals => ({ ...emptyDay(date), ...fields });
const weighing = (date: string, grams: number, extra: Partial<WeighingPoint> = {}): WeighingPoint => ({
  date,
  grams,
  method: 'manual_sample',
  confidence: 'high',
  sampleSize: 100,
  cv: null,
  uniformityPct: null,
  ...extra,
});
const rowOf = (rows: DailyKpis[], date: string) => {
  const r = rows.find((x) => x.date === date);
  if (!r) throw new Error(`no row ${date}`);
  return r;
};

// ---------------------------------------------------------------------------------------------------
// The BROILER reference cycle: Ross 308, 1,000 day-old chicks placed on 2026-03-01 (hatch = start = day 0),
// house 100 m², followed to day 35 (2026-04-05).
//
// day  date        movements                                          alive at end
//   0  2026-03-01  placed 1000 (inflow weight 44 g each), feed 12 kg    1000
//   1  2026-03-02  deaths 8 (unknown 5, weak 3), culls 2, feed 15 kg,    990
//                  water 27 l
//   2  2026-03-03  nothing (a day without movements)                     990
//   7  2026-03-08  deaths 5 (unknown), feed 120 kg; weighing 200 g       985
//  14  2026-03-15  feed 400 kg; weighing 500 g                           985
//  20  2026-03-21  deaths 10 (heat)                                      975
//  21  2026-03-22  feed 900 kg                                           975
//  28  2026-03-29  feed 1200 kg; weighing 1500 g                         975
//  30  2026-03-31  deaths 10 (unknown)                                   965
//  35  2026-04-05  feed 803 kg; weighing 2310 g (uniformity 84 %, CV 9.5) 965
//
// cumulative feed: 12 + 15 = 27 (day 1); + 120 = 147 (day 7); + 400 = 547 (day 14); + 900 = 1447 (day 21);
// + 1200 = 2647 (day 28); + 803 = 3450 (day 35). Deaths 8 + 5 + 10 + 10 = 33, culls 2.

const B0 = '2026-03-01';
const b = (n: number) => dateOf(B0, n);
const broiler = (over: Partial<CycleInputs['cycle']> = {}, extraDays: DayTotals[] = [], asOf = b(35)): CycleInputs => ({
  cycle: {
    cycleId: 'c-broiler',
    flockId: 'f-broiler',
    birdType: 'broiler',
    breed: 'Ross 308',
    hatchDate: B0,
    startDate: B0,
    endDate: null,
    status: 'active',
    targetAgeDays: 35,
    targetWeightGrams: 2300,
    houseAreaM2: 100,
    ...over,
  },
  days: [
    day(b(0), { placed: 1000, inflowWeightGramsSum: 44_000, birdsInflowWeighed: 1000, feedConsumedKg: 12 }),
    day(b(1), { deaths: 8, deathsByCause: { unknown: 5, weak: 3 }, culls: 2, feedConsumedKg: 15, waterLiters: 27 }),
    day(b(7), { deaths: 5, deathsByCause: { unknown: 5 }, feedConsumedKg: 120 }),
    day(b(14), { feedConsumedKg: 400 }),
    day(b(20), { deaths: 10, deathsByCause: { heat: 10 } }),
    day(b(21), { feedConsumedKg: 900 }),
    day(b(28), { feedConsumedKg: 1200 }),
    day(b(30), { deaths: 10, deathsByCause: { unknown: 10 } }),
    day(b(35), { feedConsumedKg: 803 }),
    ...extraDays,
  ],
  weighings: [weighing(b(7), 200), weighing(b(14), 500), weighing(b(28), 1500), weighing(b(35), 2310, { uniformityPct: 84, cv: 9.5 })],
  asOf,
});

describe('broiler reference cycle: daily series', () => {
  const rows = dailySeries(broiler(), config());

  it('one entry per calendar day from the start to asOf', () => {
    // 2026-03-01 … 2026-04-05 = 31 days of March + 5 of April = 36 days (day 0 … day 35).
    expect(rows).toHaveLength(36);
    expect(rows[0]!.date).toBe('2026-03-01');
    expect(rows.at(-1)!.date).toBe('2026-04-05');
    expect(rows.map((r) => r.ageDays)).toEqual(Array.from({ length: 36 }, (_, i) => i));
    expect(rowOf(rows, b(5)).phase).toBe('brooding'); // broiler brooding 0–10
    expect(rowOf(rows, b(11)).phase).toBe('growing'); // 11–24
    expect(rowOf(rows, b(25)).phase).toBe('finishing'); // from 25
  });

  it('day 0: placement', () => {
    const r = rowOf(rows, b(0));
    expect(r.birds).toEqual({
      aliveStart: 0,
      placed: 1000,
      transferredIn: 0,
      present: 1000,
      deaths: 0,
      culls: 0,
      sold: 0,
      transferredOut: 0,
      aliveEnd: 1000,
      housed: 1000,
    });
    expect(r.dailyMortalityPct.value).toBe(0);
    expect(r.feedGramsPerBird).toMatchObject({ value: 12, unit: 'g/bird/day' }); // 12 kg × 1000 ÷ 1000 birds
    // expected water on the day of placement (counted as day 1): Ross 308 day 1 feed 12 g × 1.7 l/kg × 1000 birds = 20.4 l
    expect(r.expectedWaterLiters).toMatchObject({
      value: 20.4,
      assumptions: ['Ross 308 cumulative feed, day 1 less day 0 (12 g) × 1.7 l/kg water:feed at 21 °C (no house temperature for the day)'],
    });
    expect(r.waterPctOfExpected.value).toBeNull();
    expect(r.waterMlPerBird).toMatchObject({ value: null, reason: 'no water recorded that day' });
  });

  it('day 1: deaths, culls, feed and water', () => {
    const r = rowOf(rows, b(1));
    expect(r.birds).toEqual({
      aliveStart: 1000,
      placed: 0,
      transferredIn: 0,
      present: 1000,
      deaths: 8,
      culls: 2,
      sold: 0,
      transferredOut: 0,
      aliveEnd: 990,
      housed: 1000,
    });
    expect(r.deathsByCause).toEqual({ unknown: 5, weak: 3 });
    expect(r.dailyMortalityPct).toEqual({ value: 0.8, unit: '%' }); // 8 ÷ 1000 × 100
    expect(r.cumulativeMortalityPct.value).toBe(0.8); // 8 ÷ 1000 housed × 100 (culls kept apart)
    expect(r.livabilityPct.value).toBe(99); // 990 alive ÷ 1000 × 100
    expect(r.feedKg.value).toBe(15);
    expect(r.cumulativeFeedKg.value).toBe(27); // 12 + 15
    expect(r.feedGramsPerBird.value).toBe(15); // 15 000 g ÷ 1000
    expect(r.waterMlPerBird).toEqual({ value: 27, unit: 'ml/bird/day' }); // 27 000 ml ÷ 1000
    expect(r.waterFeedRatio).toEqual({ value: 1.8, unit: 'l/kg' }); // 27 ÷ 15
    expect(r.expectedWaterLiters.value).toBe(20.4); // Ross 308 day 1: 12 g feed × 1.7 l/kg × 1000 birds = 20.4 l
    expect(r.waterPctOfExpected.value).toBe(132.35); // 27 ÷ 20.4 × 100 = 132.353
  });

  it('day 2: a day without movements counts as a day of zeros', () => {
    const r = rowOf(rows, b(2));
    expect(r.birds).toMatchObject({ aliveStart: 990, present: 990, deaths: 0, aliveEnd: 990 });
    expect(r.dailyMortalityPct.value).toBe(0);
    expect(r.cumulativeMortalityPct.value).toBe(0.8);
    expect(r.feedKg.value).toBe(0);
    expect(r.cumulativeFeedKg.value).toBe(27);
    expect(r.feedGramsPerBird).toMatchObject({ value: null, reason: 'no feed consumption recorded that day' });
    expect(r.waterFeedRatio.value).toBeNull();
    expect(r.bodyWeight).toMatchObject({ value: null, reason: 'no weighing yet', source: null });
  });

  it('day 7: the first weighing, FCR, ADG since placement', () => {
    const r = rowOf(rows, b(7));
    expect(r.dailyMortalityPct.value).toBe(0.51); // 5 ÷ 990 × 100 = 0.50505
    expect(r.cumulativeMortalityPct.value).toBe(1.3); // 13 ÷ 1000
    expect(r.bodyWeight).toEqual({ value: 200, unit: 'g', date: b(7), source: 'weighing' });
    // FCR = 147 kg ÷ (985 × 0.200 kg = 197 kg) = 0.74619
    expect(r.fcr).toEqual({ value: 0.746, unit: 'kg/kg' });
    // ADG = (200 − 44 g placement) ÷ 7 days = 22.2857
    expect(r.adgSincePlacement.value).toBe(22.3);
    expect(r.adgSinceLastWeighing).toMatchObject({ value: null, reason: 'needs two weighings' });
    // corrected FCR = 0.74619 + 0.02 × (2500 − 200) ÷ 100 = 0.74619 + 0.46 = 1.20619
    expect(r.correctedFcr.value).toBe(1.206);
    // EPEF = 98.5 % × 0.2 kg × 100 ÷ (7 × 0.74619) = 1970 ÷ 5.22333 = 377.15
    expect(r.epef.value).toBe(377);
  });

  it('day 10: the day-7 weighing grown along the Ross 308 curve for 3 days, and says so', () => {
    const r = rowOf(rows, b(10));
    // 200 g × (Ross day 10 330 g ÷ day 7 213 g = 1.5493) = 309.86 g: the flock grew since it was weighed
    expect(r.bodyWeight).toMatchObject({ value: 309.9, date: b(7), source: 'weighing' });
    expect(r.bodyWeight.assumptions).toEqual([
      'estimated from the weighing on 2026-03-08 (3 days earlier, 200 g) grown along the Ross 308 curve: × 1.5493 (standard day 10 ÷ day 7)',
    ]);
    // FCR = 147 kg ÷ (985 × 0.30986 kg = 305.21 kg) = 0.4816 (the weight carried unchanged gave 0.746)
    expect(r.fcr.value).toBe(0.482);
    expect(r.fcr.assumptions).toEqual(r.bodyWeight.assumptions);
    expect(r.adgSincePlacement.value).toBe(22.3); // over the 7 days to the weighing's date, not 10
  });

  it('day 22: the day-14 weighing is 8 days old (> 7): weight-based KPIs are null with the reason', () => {
    const r = rowOf(rows, b(22));
    expect(r.bodyWeight.value).toBeNull();
    expect(r.bodyWeight.reason).toBe('the latest weighing (2026-03-15) is 8 days old, more than fallbacks.carryForwardWeightDays (7)');
    expect(r.fcr.value).toBeNull();
    expect(r.fcr.reason).toContain('no body weight');
    expect(r.epef.value).toBeNull();
    expect(r.stockingDensityKgPerM2.value).toBeNull();
    expect(r.stockingDensityBirdsPerM2.value).toBe(9.75); // 975 birds ÷ 100 m²
  });

  it('day 30: weight grown from day 28 along the curve, cumulative feed 2,647 kg', () => {
    const r = rowOf(rows, b(30));
    expect(r.birds.aliveEnd).toBe(965);
    // weight = 1500 g × (Ross day 30 1805 g ÷ day 28 1616 g = 1.117) = 1675.5 g
    // FCR = 2647 ÷ (965 × 1.6755 = 1616.86) = 1.637126
    expect(r.fcr.value).toBe(1.637);
    // EPEF = 96.5 × 1.6755 × 100 ÷ (30 × 1.637126) = 16168.6 ÷ 49.1138 = 329.21
    expect(r.epef.value).toBe(329);
    // ADG since last weighing = (1500 − 500) ÷ (day 28 − day 14) = 71.43
    expect(r.adgSinceLastWeighing.value).toBe(71.4);
  });

  it('day 35: the reference broiler cycle at harvest (feed, FCR, ADG, livability, EPEF)', () => {
    const r = rowOf(rows, b(35));
    expect(r.cumulativeFeedKg.value).toBe(3450);
    // FCR day 35 = 3,450 kg ÷ (965 birds × 2.31 kg = 2,229.15 kg) = 1.547675
    expect(r.fcr).toEqual({ value: 1.548, unit: 'kg/kg' });
    // corrected FCR = 1.547675 + 0.02 × (2500 − 2310) ÷ 100 = 1.547675 + 0.038 = 1.585675
    expect(r.correctedFcr.value).toBe(1.586);
    // ADG since placement = (2310 − 44) ÷ 35 = 64.743; since last weighing = (2310 − 1500) ÷ 7 = 115.714
    expect(r.adgSincePlacement).toEqual({ value: 64.7, unit: 'g/day' });
    expect(r.adgSinceLastWeighing.value).toBe(115.7);
    // livability = 965 ÷ 1000 = 96.5 %; EPEF = 96.5 × 2.31 × 100 ÷ (35 × 1.547675) = 22291.5 ÷ 54.16863 = 411.52
    expect(r.livabilityPct.value).toBe(96.5);
    expect(r.epef.value).toBe(412);
    // mortality = 33 ÷ 1000 = 3.3 %
    expect(r.cumulativeMortalityPct.value).toBe(3.3);
    // live weight = 965 × 2.31 = 2229.15 kg; density 2229.15 ÷ 100 m² = 22.29 kg/m², 965 ÷ 100 = 9.65 birds/m²
    expect(r.liveWeightKg.value).toBe(2229.15);
    expect(r.stockingDensityKgPerM2).toEqual({ value: 22.29, unit: 'kg/m²' });
    expect(r.stockingDensityBirdsPerM2.value).toBe(9.65);
    // eggs: not a laying flock
    expect(r.henDayPct).toEqual({ value: null, unit: '%', reason: 'layers and breeders only' });
  });

  it('the older corrected-FCR convention (0.04 per 100 g to 1500 g) is a configuration change', () => {
    const r = rowOf(dailySeries(broiler(), config({ ratios: { correctedFcrPer100Grams: 0.04, correctedFcrReferenceGrams: 1500 } })), b(35));
    // 1.547675 + 0.04 × (1500 − 2310) ÷ 100 = 1.547675 − 0.324 = 1.223675
    expect(r.correctedFcr.value).toBe(1.224);
  });
});

describe('broiler reference cycle: whole-cycle KPIs', () => {
  const k = cycleKpis(broiler(), config());

  it('birds, mortality, livability, feed', () => {
    expect(k.birds).toEqual({ placed: 1000, transferredIn: 0, housed: 1000, deaths: 33, culls: 2, sold: 0, transferredOut: 0, alive: 965 });
    expect(k.deathsByCause).toEqual({ unknown: 20, weak: 3, heat: 10 }); // 5 + 5 + 10 unknown
    expect(k.mortalityPct.value).toBe(3.3);
    expect(k.livabilityPct.value).toBe(96.5);
    expect(k.feedConsumedKg).toEqual({ value: 3450, unit: 'kg' });
    expect(k.days).toBe(36);
    expect(k.ageDays).toBe(35);
    expect(k.phase).toBe('finishing');
    expect(k.breedStandard).toEqual({ id: 'ross-308', name: 'Ross 308', status: 'official' });
  });

  it('performance figures of the last day', () => {
    expect(k.performanceDate).toBe(b(35));
    expect(k.bodyWeight).toMatchObject({ value: 2310, date: b(35), source: 'weighing' });
    expect(k.fcr.value).toBe(1.548);
    expect(k.correctedFcr.value).toBe(1.586);
    expect(k.adgSincePlacement.value).toBe(64.7);
    expect(k.epef.value).toBe(412);
    expect(k.uniformityPct).toEqual({ value: 84, unit: '%', date: b(35) });
    expect(k.cvPct).toEqual({ value: 9.5, unit: '%', date: b(35) });
    expect(k.latestWeighing).toMatchObject({ date: b(35), ageDays: 35, grams: 2310 });
    expect(k.stockingDensityKgPerM2.value).toBe(22.29);
    expect(k.liveWeightKg.value).toBe(2229.15);
  });

  it('water:feed over the cycle uses the days with both recorded', () => {
    // only day 1 has water: 27 l ÷ 15 kg = 1.8 (the 3,435 kg eaten on days without a water record are left out)
    expect(k.waterFeedRatio.value).toBe(1.8);
  });

  it('egg figures say they are for layers', () => {
    expect(k.henDayPct.reason).toBe('layers and breeders only');
    expect(k.peakProduction.henDayPct.value).toBeNull();
    expect(k.feedPerDozenEggs.value).toBeNull();
  });
});

describe('breed comparison of the broiler reference', () => {
  const cmp = compareWithStandard(broiler(), config());

  it('every day 0–35 has a Ross 308 weight standard', () => {
    expect(cmp.standard).toMatchObject({ id: 'ross-308', status: 'official', edition: 2022 });
    expect(cmp.interpolation).toMatch(/linear interpolation/);
    expect(cmp.days).toHaveLength(36);
  });

  it('weighing days: deviation of weight and FCR', () => {
    const d7 = cmp.days.find((d) => d.date === b(7))!;
    // weight: (200 − 213) ÷ 213 × 100 = −6.103 %
    expect(d7.bodyWeight).toEqual({ actual: 200, standard: 213, unit: 'g', deviationPct: -6.1, interpolated: false });
    // FCR: (0.746 − 0.780) ÷ 0.780 × 100 = −4.359 %
    expect(d7.cumulativeFcr).toMatchObject({ actual: 0.746, standard: 0.78, deviationPct: -4.36, interpolated: false });
    const d35 = cmp.days.find((d) => d.date === b(35))!;
    // (2310 − 2296) ÷ 2296 × 100 = 0.6098 %; FCR (1.548 − 1.399) ÷ 1.399 × 100 = 10.650 %
    expect(d35.bodyWeight.deviationPct).toBe(0.61);
    expect(d35.cumulativeFcr.deviationPct).toBe(10.65);
  });

  it("days between weighings show the day's published standard and no actual", () => {
    const d10 = cmp.days.find((d) => d.date === b(10))!;
    // Ross 308 daily objectives, day 10: 330 g, FCR 0.900
    expect(d10.bodyWeight).toMatchObject({ actual: null, standard: 330, interpolated: false, deviationPct: null, reason: 'no weighing on this day' });
    expect(d10.cumulativeFcr).toMatchObject({ actual: null, standard: 0.9, interpolated: false });
    const d0 = cmp.days.find((d) => d.date === b(0));
    if (d0) expect(d0.cumulativeFcr.reason).toMatch(/outside/); // the FCR table starts at day 1
    expect(cmp.days.find((d) => d.date === b(3))!.henDayPct.standard).toBeNull();
  });

  it('an unknown breed: no standard, with the reason', () => {
    const c = compareWithStandard(broiler({ breed: 'Heritage Red' }), config());
    expect(c).toMatchObject({ standard: null, reason: 'no standard for breed Heritage Red (broiler)', days: [] });
  });
});

describe('EPEF: the docs/domain.md example (ADG 61 g, livability 96 %, FCR 1.62 → about 361)', () => {
  // Age 42 days and weight 61 g × 42 = 2,562 g (ADG counted from 0 g, as the EPEF shortcut
  // livability × ADG ÷ (FCR × 10) does). EPEF = 96 × 2.562 × 100 ÷ (42 × 1.62) = 24595.2 ÷ 68.04 = 361.48.
  it('the formula', () => {
    expect(epefOf(96, 2562, 42, 1.62)).toBeCloseTo(361.48, 2);
  });

  it('a cycle built to those figures', () => {
    // 1000 placed, 40 dead → livability 960 ÷ 1000 = 96 %; feed = 1.62 × 960 × 2.562 kg = 1.62 × 2459.52 = 3984.4224 kg
    const inputs: CycleInputs = {
      cycle: { ...broiler().cycle, breed: null, houseAreaM2: null },
      days: [day(b(0), { placed: 1000, feedConsumedKg: 3984.4224 }), day(b(20), { deaths: 40 })],
      weighings: [weighing(b(42), 2562)],
      asOf: b(42),
    };
    const k = cycleKpis(inputs, config());
    expect(k.livabilityPct.value).toBe(96);
    expect(k.fcr.value).toBe(1.62);
    expect(k.epef).toMatchObject({ value: 361, unit: 'index' });
    // no breed, no inflow weight: ADG starts from fallbacks.placementWeightGrams = 42 g → (2562 − 42) ÷ 42 = 60
    expect(k.adgSincePlacement.value).toBe(60);
    expect(k.adgSincePlacement.assumptions).toEqual(['placement weight: no inflow gave a weight; 42 g assumed (fallbacks.placementWeightGrams)']);
    expect(k.stockingDensityKgPerM2.reason).toMatch(/house area unknown/);
  });
});

// ---------------------------------------------------------------------------------------------------
// The LAYER reference cycle: Hy-Line Brown hatched 2025-01-01, 1,000 hens in lay placed on 2025-07-16
// (age 196 days = week 28), followed to 2025-08-05 (age 216): 21 days, all laying.
//
// Every day: feed 110 kg, water 209 l, dirty 5 eggs; cracked 10 (day 210: 40).
// age 196 (07-16): placed 1000 (inflow 1,850 g each), 850 eggs; weighing 1,850 g
// ages 197–203 (07-17…07-23, week 29): 940 eggs a day; age 200 (07-20): 10 deaths → 990 hens from age 201
// ages 204–210 (07-24…07-30, week 30): 930 eggs a day; age 204 eggs weighed: 930 eggs, Σ 57,660 g (62 g each);
//   age 210: weighing 1,880 g, uniformity 78 %, CV 11
// ages 211–216 (07-31…08-05, week 31, 6 days): 900 eggs a day

const L0 = '2025-07-16';
const l = (age: number) => dateOf(L0, age - 196);
const layerDays = (): DayTotals[] =>
  Array.from({ length: 21 }, (_, i) => {
    const age = 196 + i;
    const eggs = age === 196 ? 850 : age <= 203 ? 940 : age <= 210 ? 930 : 900;
    return day(l(age), {
      feedConsumedKg: 110,
      waterLiters: 209,
      eggsCollected: eggs,
      eggsDirty: 5,
      eggsCracked: age === 210 ? 40 : 10,
      ...(age === 196 ? { placed: 1000, inflowWeightGramsSum: 1_850_000, birdsInflowWeighed: 1000 } : {}),
      ...(age === 200 ? { deaths: 10, deathsByCause: { unknown: 10 } } : {}),
      ...(age === 204 ? { eggWeightGramsSum: 57_660, eggsWeighed: 930 } : {}),
    });
  });
const layer = (): CycleInputs => ({
  cycle: {
    cycleId: 'c-layer',
    flockId: 'f-layer',
    birdType: 'layer',
    breed: 'Hy-Line Brown',
    hatchDate: '2025-01-01',
    startDate: L0,
    endDate: null,
    status: 'active',
    targetAgeDays: null,
    targetWeightGrams: null,
    houseAreaM2: null,
  },
  days: layerDays(),
  weighings: [weighing(l(196), 1850), weighing(l(210), 1880, { uniformityPct: 78, cv: 11 })],
  asOf: l(216),
});

describe('layer reference cycle: daily series', () => {
  const rows = dailySeries(layer(), config());

  it('ages from the hatch date, laying phase', () => {
    expect(rows).toHaveLength(21);
    expect(rows[0]).toMatchObject({ date: '2025-07-16', ageDays: 196, dayOfCycle: 0, phase: 'laying' });
  });

  it('hen-day % divides by the hens present that day', () => {
    expect(rowOf(rows, l(200)).henDayPct.value).toBe(94); // 940 ÷ 1000 (the 10 deaths leave at the end of the day)
    expect(rowOf(rows, l(200)).dailyMortalityPct.value).toBe(1); // 10 ÷ 1000
    expect(rowOf(rows, l(201)).henDayPct.value).toBe(94.95); // 940 ÷ 990 = 94.9495 %
    expect(rowOf(rows, l(201)).henHousedPct.value).toBe(94); // 940 ÷ 1000 housed
    // cumulative eggs to age 201 = 850 + 5 × 940 = 5550; ÷ 1000 housed = 5.55 eggs/hen
    expect(rowOf(rows, l(201)).henHousedEggs).toEqual({ value: 5.55, unit: 'eggs/hen' });
  });

  it('egg mass and feed efficiency on the day eggs were weighed (age 204)', () => {
    const r = rowOf(rows, l(204));
    expect(r.eggWeightGrams.value).toBe(62); // 57,660 g ÷ 930
    // hen-day 930 ÷ 990 = 93.9394 %; egg mass = 0.939394 × 62 = 58.2424 g/hen/day
    expect(r.henDayPct.value).toBe(93.94);
    expect(r.eggMassGrams).toEqual({ value: 58.24, unit: 'g/hen/day' });
    // feed per kg egg = 110 ÷ (930 × 0.062 = 57.66 kg) = 1.907735
    expect(r.feedPerKgEgg.value).toBe(1.908);
    // feed per dozen = 110 × 12 ÷ 930 = 1.419355
    expect(r.feedPerDozenEggs).toEqual({ value: 1.419, unit: 'kg/dozen' });
    // cracked 10 ÷ 930 = 1.0753 %; dirty 5 ÷ 930 = 0.5376 %
    expect(r.crackedPct.value).toBe(1.08);
    expect(r.dirtyPct.value).toBe(0.54);
  });

  it('days without an egg weight: egg mass null (fallbacks.eggWeightGrams is null by default), or the fallback with the assumption', () => {
    expect(rowOf(rows, l(205)).eggMassGrams.value).toBeNull();
    expect(rowOf(rows, l(205)).eggMassGrams.reason).toBe('no egg weight recorded and fallbacks.eggWeightGrams is null');
    const r = rowOf(dailySeries(layer(), config({ fallbacks: { eggWeightGrams: 60 } })), l(205));
    // 930 ÷ 990 × 60 = 56.3636
    expect(r.eggMassGrams.value).toBe(56.36);
    expect(r.eggMassGrams.assumptions).toEqual(['no egg weight recorded: 60 g assumed (fallbacks.eggWeightGrams)']);
  });

  it('water of laying hens against 210 ml per bird (a breed without a water table)', () => {
    const base = layer();
    const r = rowOf(dailySeries({ ...base, cycle: { ...base.cycle, breed: 'Lohmann Brown' } }, config()), l(205));
    expect(r.expectedWaterLiters.value).toBe(207.9); // 990 × 210 ml
    expect(r.waterPctOfExpected.value).toBe(100.53); // 209 ÷ 207.9 × 100 = 100.529
    expect(r.waterMlPerBird.value).toBe(211.1); // 209,000 ml ÷ 990 = 211.11
    expect(r.waterFeedRatio.value).toBe(1.9); // 209 ÷ 110
  });

  it('FCR and EPEF are broiler KPIs; weight and ADG apply', () => {
    const r = rowOf(rows, l(216));
    expect(r.fcr.reason).toMatch(/broilers only/);
    expect(r.epef.value).toBeNull();
    // 1880 g weighed at day 210 (week 30), grown along the Hy-Line curve (band midpoints) to day 216:
    // week 30 1910–2050 → 1980 g, week 31 1920–2060 → 1990 g; × (1980 + 6/7 × 10 = 1988.571 ÷ 1980 = 1.004329) = 1888.14 g
    expect(r.bodyWeight).toMatchObject({ value: 1888.1, date: l(210) });
    // ADG since placement (the weighing as measured) = (1880 − 1850 inflow weight) ÷ (age 210 − age 196 = 14 days) = 2.1429
    expect(r.adgSincePlacement.value).toBe(2.1);
    expect(r.stockingDensityBirdsPerM2.reason).toMatch(/house area unknown/);
  });
});

describe('layer reference cycle: whole-cycle KPIs', () => {
  const k = cycleKpis(layer(), config());

  it('eggs over the laying period', () => {
    // eggs = 850 + 7 × 940 + 7 × 930 + 6 × 900 = 850 + 6580 + 6510 + 5400 = 19,340
    expect(k.eggs).toEqual({ collected: 19_340, cracked: 240, dirty: 105, doubleYolk: 0 }); // cracked 20 × 10 + 40; dirty 21 × 5
    expect(k.layingPeriod).toEqual({ from: l(196), to: l(216), days: 21 });
    // hens present: ages 196–200 5 × 1000 + ages 201–216 16 × 990 = 5000 + 15,840 = 20,840 hen-days
    // hen-day = 19,340 ÷ 20,840 × 100 = 92.8023 %
    expect(k.henDayPct.value).toBe(92.8);
    // hen-housed eggs = 19,340 ÷ 1000 = 19.34; hen-housed % = 19,340 ÷ (1000 × 21 days) × 100 = 92.0952
    expect(k.henHousedEggs.value).toBe(19.34);
    expect(k.henHousedPct.value).toBe(92.1);
  });

  it('peak production: the best complete age week', () => {
    // week 29 (ages 197–203): 6580 eggs ÷ (4 × 1000 + 3 × 990 = 6970) = 94.4046 %
    // week 30 (ages 204–210): 6510 ÷ 6930 = 93.9394 %; week 28 (1 day) and week 31 (6 days) are incomplete
    expect(k.peakProduction).toEqual({ henDayPct: { value: 94.4, unit: '%' }, ageWeek: 29, from: l(197), to: l(203) });
  });

  it('egg mass, feed per kg egg and per dozen', () => {
    expect(k.eggWeightGrams.value).toBe(62); // only age 204 weighed eggs
    // egg mass = 0.928023 × 62 = 57.5374 g/hen/day
    expect(k.eggMassGrams.value).toBe(57.54);
    // feed (laying period) = 21 × 110 = 2310 kg; per kg egg = 2310 ÷ (19,340 × 0.062 = 1199.08 kg) = 1.926477
    expect(k.feedPerKgEgg.value).toBe(1.926);
    // per dozen = 2310 × 12 ÷ 19,340 = 1.433299
    expect(k.feedPerDozenEggs.value).toBe(1.433);
    // cracked 240 ÷ 19,340 = 1.24095 %; dirty 105 ÷ 19,340 = 0.54292 %
    expect(k.crackedPct.value).toBe(1.24);
    expect(k.dirtyPct.value).toBe(0.54);
  });

  it('birds, weights and water', () => {
    expect(k.birds).toMatchObject({ placed: 1000, housed: 1000, deaths: 10, alive: 990 });
    expect(k.mortalityPct.value).toBe(1); // 10 ÷ 1000
    expect(k.livabilityPct.value).toBe(99);
    expect(k.uniformityPct).toEqual({ value: 78, unit: '%', date: l(210) });
    expect(k.waterFeedRatio.value).toBe(1.9); // 21 × 209 ÷ (21 × 110)
    expect(k.fcr.value).toBeNull();
  });

  it('hen-day compared with the Hy-Line curve', () => {
    const cmp = compareWithStandard(layer(), config());
    expect(cmp.standard).toMatchObject({ id: 'hy-line-brown', status: 'approximate' });
    const d = cmp.days.find((x) => x.date === l(204))!;
    // standard at age 204, between week 29 = day 203 (band 94.8–96.6 → 95.7 %) and week 30 = day 210 (94.8–96.5 → 95.65 %):
    // 95.7 + 1/7 × (95.65 − 95.7) = 95.692857 → 95.69; actual 93.94
    // deviation = (93.94 − 95.69) ÷ 95.69 × 100 = −1.8288 %
    expect(d.henDayPct).toMatchObject({ actual: 93.94, standard: 95.69, interpolated: true, deviationPct: -1.83, standardBasis: 'band midpoint' });
    // the band interpolated the same way: low 94.8; high 96.6 − 1/7 × 0.1 = 96.5857
    expect(d.henDayPct.standardBand).toEqual({ low: 94.8, high: 96.59 });
    // body weight: standard at week 30 = midpoint of 1910–2050 g = 1980 g; actual weighing 1880 → −5.0505 %
    const w = cmp.days.find((x) => x.date === l(210))!;
    expect(w.bodyWeight).toMatchObject({
      actual: 1880,
      standard: 1980,
      unit: 'g',
      deviationPct: -5.05,
      interpolated: false,
      standardBand: { low: 1910, high: 2050 },
    });
  });
});

// ---------------------------------------------------------------------------------------------------
// Edge cases

describe('edge cases', () => {
  it('no weights: weight-based KPIs null with the reason; the breed-standard fallback fills in when enabled', () => {
    const inputs: CycleInputs = { ...broiler(), weighings: [], asOf: b(14) };
    const r = dailySeries(inputs, config()).at(-1)!;
    expect(r.bodyWeight).toMatchObject({ value: null, reason: 'no weighing yet' });
    expect(r.fcr).toMatchObject({ value: null, reason: 'no body weight: no weighing yet' });
    expect(r.adgSincePlacement.value).toBeNull();
    expect(r.epef.value).toBeNull();
    expect(r.liveWeightKg.value).toBeNull();

    const f = dailySeries(inputs, config({ fallbacks: { weightFromBreedStandard: true } })).at(-1)!;
    // Ross day 14 = 533 g; FCR = 547 ÷ (985 × 0.533 = 525.005) = 1.041895
    expect(f.bodyWeight).toMatchObject({ value: 533, source: 'breed_standard', date: b(14) });
    expect(f.fcr.value).toBe(1.042);
    expect(f.fcr.assumptions).toEqual(['no weighing yet: Ross 308 standard weight at day 14 stands in (fallbacks.weightFromBreedStandard)']);
  });

  it('no weights and an unknown breed: the standard cannot stand in, and the reason says why', () => {
    const inputs: CycleInputs = { ...broiler({ breed: 'Heritage Red' }), weighings: [], asOf: b(14) };
    const r = dailySeries(inputs, config({ fallbacks: { weightFromBreedStandard: true } })).at(-1)!;
    expect(r.bodyWeight.reason).toBe('no weighing yet; no breed standard for breed Heritage Red');
  });

  it('all dead: birds alive never negative, FCR and EPEF null with the reason', () => {
    // 100 placed; 60 die on day 2 and a (wrong) 50 more on day 3: alive stops at 0, not −10
    const inputs: CycleInputs = {
      cycle: { ...broiler().cycle, houseAreaM2: 10 },
      days: [day(b(0), { placed: 100, feedConsumedKg: 5 }), day(b(2), { deaths: 60 }), day(b(3), { deaths: 50 })],
      weighings: [weighing(b(3), 90)],
      asOf: b(4),
    };
    const rows = dailySeries(inputs, config());
    const d3 = rowOf(rows, b(3));
    expect(d3.birds).toMatchObject({ aliveStart: 40, present: 40, deaths: 50, aliveEnd: 0 });
    expect(d3.fcr).toMatchObject({ value: null, reason: 'no live birds: every bird died or was culled' });
    expect(d3.epef.reason).toBe('no live birds: every bird died or was culled');
    expect(d3.livabilityPct.value).toBe(0);
    expect(d3.liveWeightKg.value).toBe(0);
    expect(d3.stockingDensityKgPerM2.value).toBe(0);
    const d4 = rowOf(rows, b(4));
    expect(d4.birds.aliveEnd).toBe(0);
    expect(d4.dailyMortalityPct).toMatchObject({ value: null, reason: 'no birds in the house' });
    const k = cycleKpis(inputs, config());
    expect(k.birds.alive).toBe(0);
    expect(k.performanceDate).toBe(b(3)); // the last day with birds in the house
    expect(k.fcr.value).toBeNull();
    expect(k.epef.reason).toBe('no live birds: every bird died or was culled');
  });

  it('zero feed: FCR null, the rest computed', () => {
    const inputs: CycleInputs = { cycle: broiler().cycle, days: [day(b(0), { placed: 500 })], weighings: [weighing(b(7), 190)], asOf: b(7) };
    const r = dailySeries(inputs, config()).at(-1)!;
    expect(r.fcr).toMatchObject({ value: null, reason: 'no feed consumption recorded' });
    expect(r.correctedFcr.value).toBeNull();
    expect(r.epef.value).toBeNull();
    expect(r.liveWeightKg.value).toBe(95); // 500 × 0.19 kg
    // ADG: no inflow weight → Ross day-0 standard 44 g: (190 − 44) ÷ 7 = 20.857
    expect(r.adgSincePlacement.value).toBe(20.9);
    expect(r.adgSincePlacement.assumptions).toEqual([
      'placement weight: no inflow gave a weight; Ross 308 standard at day 0 (44 g) used (fallbacks.placementWeightFromBreedStandard)',
    ]);
  });

  it('placement weight: without inflow weight or standard fallback and with placementWeightGrams null, ADG is null', () => {
    const inputs: CycleInputs = {
      cycle: broiler().cycle,
      days: [day(b(0), { placed: 500, feedConsumedKg: 50 })],
      weighings: [weighing(b(7), 190)],
      asOf: b(7),
    };
    const r = dailySeries(inputs, config({ fallbacks: { placementWeightFromBreedStandard: false, placementWeightGrams: null } })).at(-1)!;
    expect(r.adgSincePlacement.value).toBeNull();
    expect(r.adgSincePlacement.reason).toMatch(/no placement weight/);
  });

  it('transfers in and out: transferred-in birds count as placed, transferred-out birds as shipped', () => {
    // 1000 placed day 0; 200 transferred in day 5; 12 deaths day 6; 300 transferred out day 10; 100 sold day 12
    const inputs: CycleInputs = {
      cycle: broiler().cycle,
      days: [
        day(b(0), { placed: 1000 }),
        day(b(5), { transferredIn: 200 }),
        day(b(6), { deaths: 12 }),
        day(b(10), { transferredOut: 300 }),
        day(b(12), { sold: 100 }),
      ],
      weighings: [],
      asOf: b(12),
    };
    const rows = dailySeries(inputs, config());
    expect(rowOf(rows, b(5)).birds).toMatchObject({ aliveStart: 1000, transferredIn: 200, present: 1200, aliveEnd: 1200, housed: 1200 });
    expect(rowOf(rows, b(6)).dailyMortalityPct.value).toBe(1); // 12 ÷ 1200
    const k = cycleKpis(inputs, config());
    // alive = 1000 + 200 − 12 − 300 − 100 = 788
    expect(k.birds).toEqual({ placed: 1000, transferredIn: 200, housed: 1200, deaths: 12, culls: 0, sold: 100, transferredOut: 300, alive: 788 });
    expect(k.mortalityPct.value).toBe(1); // 12 ÷ 1200 housed
    // livability = (788 + 100 sold + 300 transferred out) ÷ 1200 = 1188 ÷ 1200 = 99 %
    expect(k.livabilityPct.value).toBe(99);
  });

  it('a closed, depleted cycle: the series stops at the end date and keeps the final FCR and EPEF', () => {
    // the reference cycle, all 965 birds sold on day 35, closed that day, asked 10 days later
    const inputs = broiler({ status: 'closed', endDate: b(35) }, [day(b(35), { sold: 965 })], b(45));
    const rows = dailySeries(inputs, config());
    expect(rows.at(-1)!.date).toBe(b(35));
    const last = rows.at(-1)!;
    expect(last.birds).toMatchObject({ present: 965, sold: 965, aliveEnd: 0 });
    // FCR uses the 965 birds shipped that day: 3450 ÷ (965 × 2.31) = 1.548, as on the open cycle
    expect(last.fcr.value).toBe(1.548);
    expect(last.fcr.assumptions).toEqual(['depletion day: the 965 birds shipped alive stand for the birds alive']);
    // livability = (0 alive + 965 sold) ÷ 1000 = 96.5 %; EPEF as before
    expect(last.epef.value).toBe(412);
    const k = cycleKpis(inputs, config());
    expect(k).toMatchObject({ status: 'closed', asOf: b(35), days: 36, performanceDate: b(35) });
    expect(k.birds).toMatchObject({ alive: 0, sold: 965 });
    expect(k.livabilityPct.value).toBe(96.5);
    expect(k.fcr.value).toBe(1.548);
    expect(k.liveWeightKg.value).toBe(0);
  });

  it('asOf before the start: no day, figures null with the reason', () => {
    const k = cycleKpis({ ...broiler(), asOf: '2026-02-20' }, config());
    expect(k.days).toBe(0);
    expect(k.mortalityPct).toMatchObject({ value: null, unit: '%' });
    expect(k.mortalityPct.reason).toMatch(/no day up to 2026-02-20/);
  });

  it('breeders: no broiler standard, every bird counted as a hen, the layer water figure, and it says so', () => {
    // Ross 308 parent stock at 30 weeks (day 210 from the hatch): 500 birds, 400 eggs → 400 ÷ 500 = 80 %
    const inputs: CycleInputs = {
      cycle: { ...layer().cycle, birdType: 'breeder', breed: 'Ross 308', hatchDate: '2025-01-01', startDate: l(210) },
      days: [day(l(210), { placed: 500, eggsCollected: 400, waterLiters: 110 })],
      weighings: [],
      asOf: l(210),
    };
    const r = dailySeries(inputs, config())[0]!;
    expect(r.phase).toBe('laying'); // breeders lay from day 168
    expect(r.henDayPct).toEqual({ value: 80, unit: '%', assumptions: ['breeder: every bird counted as a hen (the ledger has no sex split)'] });
    // expected 500 × 210 ml = 105 l; 110 ÷ 105 = 104.76 %
    expect(r.expectedWaterLiters.value).toBe(105);
    expect(r.waterPctOfExpected).toMatchObject({ value: 104.76, assumptions: ['breeder: the laying hen figure consumption.layerWaterMlPerBirdPerDay used'] });
    expect(compareWithStandard(inputs, config()).reason).toBe('no standard for breed Ross 308 (breeder)');
  });

  it('pullets in rearing have no expected water intake (a breed without a water table)', () => {
    const inputs: CycleInputs = {
      ...layer(),
      days: [day(l(196), { placed: 100, waterLiters: 5 })],
      cycle: { ...layer().cycle, breed: 'Lohmann Brown', hatchDate: dateOf(L0, -60) },
      asOf: L0,
    };
    const r = dailySeries(inputs, config())[0]!;
    expect(r.phase).toBe('rearing'); // age 60
    expect(r.expectedWaterLiters.value).toBeNull();
    expect(r.waterPctOfExpected.reason).toMatch(/no expected water intake for rearing birds/);
  });

  it('several weighings on one date: the most confident one counts', () => {
    const inputs: CycleInputs = {
      ...broiler(),
      weighings: [weighing(b(7), 260, { confidence: 'low', method: 'estimated' }), weighing(b(7), 210, { confidence: 'high' })],
      asOf: b(7),
    };
    expect(dailySeries(inputs, config()).at(-1)!.bodyWeight.value).toBe(210);
  });
});

describe('outputs are JSON-ready (no NaN, Infinity or undefined values lost on the wire)', () => {
  it.each([
    ['broiler', broiler()],
    ['layer', layer()],
    ['all dead, no breed', { ...broiler({ breed: null }), days: [day(b(0), { placed: 10 }), day(b(1), { deaths: 10 })], asOf: b(3) }],
  ] as Array<[string, CycleInputs]>)('%s', (_, inputs) => {
    const out = {
      series: dailySeries(inputs, config()),
      cycle: cycleKpis(inputs, config()),
      comparison: compareWithStandard(inputs, config()),
      predictions: predictions(inputs, config()),
      breaches: thresholdBreaches(inputs, config()),
    };
    expect(JSON.parse(JSON.stringify(out))).toEqual(out);
    expect(JSON.stringify(out)).not.toMatch(/NaN|Infinity/);
  });
});

import { describe, expect, it } from 'vitest';
import { ANALYTICS_DEFAULTS, type AnalyticsSections } from '../../schemas/analytics-config.js';
import { emptyDay, type CycleInputs, type DayTotals, type WeighingPoint } from '../../shared/domain/analytics/inputs.js';
import { thresholdBreaches, type ThresholdBreach } from '../../shared/domain/analytics/threshold-breaches.js';

/**
 * Each rule on a small cycle built to break it (and to stay just inside it on the neighbouring days).
 * Default thresholds (docs/domain.md): daily mortality 0.5 %, cumulative 1 % + 0.06 % × age, water:feed
 * 1.6–2.0, low water 2 days at 15 % tolerance, hen-day drop 5 points, weight 10 % below, FCR 5 % above,
 * uniformity 80 %, cracked 3 %. Critical = the breach is twice the allowed margin.
 */

const config = (thresholds: Partial<AnalyticsSections['thresholds']> = {}): AnalyticsSections => {
  const c = structuredClone(ANALYTICS_DEFAULTS);
  Object.assign(c.thresholds, thresholds);
  return c;
};
const dateOf = (start: string, n: number) => new Date(Date.parse(start) + n * 86_400_000).toISOString().slice(0, 10);
const day = (date: string, fields: Partial<DayTotals>): DayTotals => ({ ...emptyDay(date), ...fields });
const weighing = (date: string, grams: number, uniformityPct: number | null = null): WeighingPoint => ({
  date,
  grams,
  method: 'manual_sample',
  confidence: 'high',
  sampleSize: 100,
  cv: null,
  uniformityPct,
});
const rowsOf = (a: ThresholdBreach[]) => a.map((x) => [x.date, x.metric, x.value, x.threshold, x.severity]);

const B0 = '2026-03-01';
const b = (n: number) => dateOf(B0, n);
const broiler = (days: DayTotals[], weighings: WeighingPoint[], asOf: string, breed: string | null = 'Ross 308'): CycleInputs => ({
  cycle: {
    cycleId: 'c',
    flockId: 'f',
    birdType: 'broiler',
    breed,
    hatchDate: B0,
    startDate: B0,
    endDate: null,
    status: 'active',
    targetAgeDays: null,
    targetWeightGrams: null,
    houseAreaM2: null,
  },
  days: [day(B0, { placed: 1000 }), ...days],
  weighings,
  asOf,
});
// laying hens: hatched 2025-01-01, 1000 placed at age 196 on 2025-07-16; l(i) = i days after placement
const L0 = '2025-07-16';
const l = (i: number) => dateOf(L0, i);
const layer = (days: Array<Partial<DayTotals>>): CycleInputs => ({
  cycle: {
    cycleId: 'l',
    flockId: 'f',
    birdType: 'layer',
    breed: null,
    hatchDate: '2025-01-01',
    startDate: L0,
    endDate: null,
    status: 'active',
    targetAgeDays: null,
    targetWeightGrams: null,
    houseAreaM2: null,
  },
  days: days.map((f, i) => day(l(i), { ...f, ...(i === 0 ? { placed: 1000 } : {}) })),
  weighings: [],
  asOf: l(days.length - 1),
});

describe('mortality', () => {
  it('daily above 0.5 % and cumulative above 1 % + 0.06 % × age', () => {
    const a = thresholdBreaches(broiler([day(b(1), { deaths: 6 }), day(b(2), { deaths: 10 }), day(b(3), { deaths: 5 })], [], b(3)), config());
    expect(rowsOf(a)).toEqual([
      [b(1), 'dailyMortality', 0.6, 0.5, 'warning'], // 6 ÷ 1000; cumulative 0.6 ≤ 1 + 0.06 × 1 = 1.06
      [b(2), 'dailyMortality', 1.01, 0.5, 'critical'], // 10 ÷ 994 = 1.006 % ≥ 2 × 0.5
      [b(2), 'cumulativeMortality', 1.6, 1.12, 'warning'], // 16 ÷ 1000 > 1 + 0.06 × 2 = 1.12 (< 2.24)
      [b(3), 'dailyMortality', 0.51, 0.5, 'warning'], // 5 ÷ 984 = 0.508 %
      [b(3), 'cumulativeMortality', 2.1, 1.18, 'warning'], // 21 ÷ 1000 > 1.18 (< 2.36)
    ]);
    expect(a[1]!.message).toBe('Daily mortality 1.01 % (10 of 994 birds died) is above the 0.5 % alarm level.');
    expect(a[1]!.evidence).toEqual({ deaths: 10, birdsPresent: 994, causes: null, ageDays: 2 });
    expect(a[1]!.unit).toBe('%');
  });

  it('critical cumulative mortality: twice the limit', () => {
    const a = thresholdBreaches(broiler([day(b(1), { deaths: 25, deathsByCause: { heat: 25 } })], [], b(1)), config());
    // 25 ÷ 1000 = 2.5 % ≥ 2 × 1.06 = 2.12
    expect(rowsOf(a)).toEqual([
      [b(1), 'dailyMortality', 2.5, 0.5, 'critical'],
      [b(1), 'cumulativeMortality', 2.5, 1.06, 'critical'],
    ]);
    expect(a[0]!.evidence.causes).toBe('heat: 25');
  });

  it('the thresholds come from the configuration', () => {
    const a = thresholdBreaches(broiler([day(b(1), { deaths: 6 })], [], b(1)), config({ dailyMortalityPct: 1 }));
    expect(a).toEqual([]);
  });
});

describe('water', () => {
  it('water:feed ratio outside 1.6–2.0; critical when outside by the band width (0.4)', () => {
    const a = thresholdBreaches(
      broiler(
        [
          day(b(1), { waterLiters: 30, feedConsumedKg: 20 }), // 1.5: 0.1 below
          day(b(2), { waterLiters: 50, feedConsumedKg: 20 }), // 2.5: 0.5 above ≥ 0.4
          day(b(3), { waterLiters: 36, feedConsumedKg: 20 }), // 1.8: normal
          day(b(4), { waterLiters: 23, feedConsumedKg: 20 }), // 1.15: 0.45 below ≥ 0.4
        ],
        [],
        b(4),
      ),
      config(),
    );
    expect(rowsOf(a)).toEqual([
      [b(1), 'waterFeedRatio', 1.5, 1.6, 'warning'],
      [b(2), 'waterFeedRatio', 2.5, 2, 'critical'],
      [b(4), 'waterFeedRatio', 1.15, 1.6, 'critical'],
    ]);
    expect(a[1]!.evidence).toEqual({ waterLiters: 50, feedKg: 20 });
  });

  it('low intake against the expected 210 ml per hen for 2+ consecutive days', () => {
    // expected 1000 hens × 210 ml = 210 l; low = below 210 × (1 − 15 %) = 178.5 l
    const water = [210, 210, 170, 160, 100, 205, 170, 170];
    const a = thresholdBreaches(layer(water.map((w) => ({ waterLiters: w }))), config());
    expect(rowsOf(a)).toEqual([
      [l(3), 'lowWaterIntake', 23.81, 15, 'warning'], // day 2 of the run: 160 ÷ 210 = 76.19 % → 23.81 % short
      [l(4), 'lowWaterIntake', 52.38, 15, 'critical'], // 100 ÷ 210 = 47.62 % → 52.38 % short ≥ 2 × 15
      [l(7), 'lowWaterIntake', 19.05, 15, 'warning'], // 205 l on day 5 ended the first run; 170, 170 → 80.95 %
    ]);
    expect(a[1]!.evidence).toMatchObject({ consecutiveDays: 3, since: l(2), waterLiters: 100, expectedWaterLiters: 210, waterPctOfExpected: 47.62 });
    expect(a[0]!.message).toMatch(/^Water intake low for 2 consecutive days: 160 ml per bird, 23.81 % below the expected intake/);
  });

  it('low intake as a drop against the days before the run (broilers drinking above the age rule)', () => {
    // age 20: expected 20 × 5.7 ml × 1000 = 114 l, so 150–200 l is never "below expected";
    // days 17–19 drank 200 ml per bird; day 20 160 (−20 %), days 21, 22 150 (−25 %) against those 200 ml
    const a = thresholdBreaches(
      broiler(
        [17, 18, 19]
          .map((n) => day(b(n), { waterLiters: 200 }))
          .concat([day(b(20), { waterLiters: 160 }), day(b(21), { waterLiters: 150 }), day(b(22), { waterLiters: 150 })]),
        [],
        b(22),
        null,
      ),
      config(),
    );
    expect(rowsOf(a)).toEqual([
      [b(21), 'lowWaterIntake', 25, 15, 'warning'],
      [b(22), 'lowWaterIntake', 25, 15, 'warning'],
    ]);
    expect(a[1]!.evidence).toMatchObject({ consecutiveDays: 3, since: b(20), baselineMlPerBird: 200 });
  });

  it('one low day is noise', () => {
    expect(thresholdBreaches(layer([210, 170, 210].map((w) => ({ waterLiters: w }))), config())).toEqual([]);
  });
});

describe('layers', () => {
  it('hen-day falling more than 5 points within 7 days (week on week)', () => {
    // days 0–6: 900 eggs a day of 1000 hens (90 %); days 7–15: 830 (83 %)
    const eggs = [...Array(7).fill(900), ...Array(9).fill(830)] as number[];
    const a = thresholdBreaches(layer(eggs.map((e) => ({ eggsCollected: e }))), config());
    expect(rowsOf(a)).toEqual([
      [l(13), 'henDayDrop', 7, 5, 'warning'], // days 0–6 90 % → days 7–13 83 %
      [l(14), 'henDayDrop', 6, 5, 'warning'], // days 1–7 (6 × 900 + 830 = 6230) 89 % → 83 %
      // day 15: days 2–8 (5 × 900 + 2 × 830 = 6160) 88 % → 83 %: 5 points, not more than 5
    ]);
    expect(a[0]!.evidence).toEqual({
      previousWeekHenDayPct: 90,
      previousFrom: l(0),
      previousTo: l(6),
      currentWeekHenDayPct: 83,
      currentFrom: l(7),
      currentTo: l(13),
    });
  });

  it('a drop of 10 points or more is critical', () => {
    const eggs = [...Array(7).fill(900), ...Array(7).fill(790)] as number[];
    expect(rowsOf(thresholdBreaches(layer(eggs.map((e) => ({ eggsCollected: e }))), config()))).toEqual([[l(13), 'henDayDrop', 11, 5, 'critical']]);
  });

  it('cracked eggs above 3 % of the day’s collection', () => {
    const a = thresholdBreaches(
      layer([{}, { eggsCollected: 1000, eggsCracked: 35 }, { eggsCollected: 1000, eggsCracked: 60 }, { eggsCollected: 1000, eggsCracked: 30 }]),
      config(),
    );
    expect(rowsOf(a)).toEqual([
      [l(1), 'crackedEggs', 3.5, 3, 'warning'],
      [l(2), 'crackedEggs', 6, 3, 'critical'], // ≥ 2 × 3
      // day 3: exactly 3 % is not above
    ]);
  });
});

describe('against the breed standard and weighings', () => {
  it('weight more than 10 % below and FCR more than 5 % above Ross 308 (weighing days)', () => {
    const a = thresholdBreaches(
      broiler([day(b(14), { feedConsumedKg: 564.98 })], [weighing(b(7), 190), weighing(b(14), 533), weighing(b(21), 800)], b(21)),
      config(),
    );
    expect(rowsOf(a)).toEqual([
      [b(7), 'weightBelowStandard', 10.8, 10, 'warning'], // (190 − 213) ÷ 213 = −10.80 %
      [b(14), 'fcrAboveStandard', 5.47, 5, 'warning'], // FCR 564.98 ÷ (1000 × 0.533) = 1.06; (1.06 − 1.005) ÷ 1.005 = +5.47 %
      [b(21), 'weightBelowStandard', 20.95, 10, 'critical'], // (800 − 1012) ÷ 1012 = −20.95 % ≥ 2 × 10
    ]);
    expect(a[2]!.message).toBe('Body weight 800 g at 21 days is 20.95 % below the Ross 308 standard (1,012 g).');
    expect(a[1]!.evidence).toEqual({ ageDays: 14, actualFcr: 1.06, standardFcr: 1.005, deviationPct: 5.47 });
  });

  it('uniformity below 80 %; critical below 60 %', () => {
    const a = thresholdBreaches(
      broiler([], [weighing(b(14), 500, 75), weighing(b(21), 1000, 55), weighing(b(28), 1600, 80), weighing(b(35), 2300, 50)], b(28), null),
      config(),
    );
    // day 28 at exactly 80 % is not below; day 35 is after asOf
    expect(rowsOf(a)).toEqual([
      [b(14), 'lowUniformity', 75, 80, 'warning'],
      [b(21), 'lowUniformity', 55, 80, 'critical'],
    ]);
  });

  it('an unknown breed raises no standard anomaly', () => {
    const a = thresholdBreaches(broiler([], [weighing(b(21), 500)], b(21), 'Heritage Red'), config());
    expect(a).toEqual([]);
  });
});

describe('water pH (readings kept on the day rollups)', () => {
  it('flags the lowest and highest reading outside the band; critical at 1 pH unit beyond it', () => {
    const day = (date: string, waterPh: number[]) => ({ ...emptyDay(date), waterPh });
    const inputs: CycleInputs = {
      cycle: {
        cycleId: 'c',
        flockId: 'f',
        birdType: 'broiler',
        breed: null,
        hatchDate: '2026-01-01',
        startDate: '2026-01-01',
        endDate: null,
        status: 'active',
        targetAgeDays: null,
        targetWeightGrams: null,
        houseAreaM2: null,
      },
      days: [day('2026-01-02', [7.0, 5.9]), day('2026-01-03', [9.1]), day('2026-01-04', [6.0, 8.0]), day('2026-01-05', [4.9])],
      weighings: [],
      asOf: '2026-01-05',
    };
    const found = thresholdBreaches(inputs, ANALYTICS_DEFAULTS).filter((a) => a.metric === 'waterPh');
    // defaults 6.0–8.0: 5.9 is 0.1 below (warning), 9.1 is 1.1 above (critical), 6.0 and 8.0 are inside, 4.9 is 1.1 below (critical)
    expect(found.map((a) => [a.date, a.value, a.threshold, a.severity])).toEqual([
      ['2026-01-02', 5.9, 6, 'warning'],
      ['2026-01-03', 9.1, 8, 'critical'],
      ['2026-01-05', 4.9, 6, 'critical'],
    ]);
    expect(found[0]!.evidence).toMatchObject({ readings: 2, lowest: 5.9, highest: 7 });
  });
});

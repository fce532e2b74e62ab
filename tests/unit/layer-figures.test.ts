import { describe, expect, it } from 'vitest';
import { ANALYTICS_DEFAULTS } from '../../schemas/analytics-config.js';
import { emptyDay, type CycleInputs, type DayTotals } from '../../shared/domain/analytics/inputs.js';
import { cycleKpis } from '../../shared/domain/analytics/kpis/cycle.js';
import { dailySeries } from '../../shared/domain/analytics/kpis/daily.js';
import {
  BEFORE_LAY,
  NOT_OVER,
  NO_EGGS,
  eggCalendar,
  eggDayExclusion,
  layerFigures,
  type EggCalendar,
  type LayerDay,
} from '../../shared/domain/analytics/layer-figures.js';
import { forecastProduction } from '../../shared/domain/analytics/production-forecast.js';
import { thresholdBreaches } from '../../shared/domain/analytics/threshold-breaches.js';

/** The layer figures, defined once (docs/domain.md, "Layer figures: one definition each"); every expected number is worked out by hand. */

const config = () => structuredClone(ANALYTICS_DEFAULTS);
const dateOf = (n: number) => new Date(Date.parse('2026-05-01') + n * 86_400_000).toISOString().slice(0, 10);
const ld = (n: number, hens: number, eggs: number, more: Partial<LayerDay> = {}): LayerDay => ({
  date: dateOf(n),
  hens,
  eggs,
  feedKg: 0,
  doubleYolk: 0,
  eggWeightGramsSum: 0,
  eggsWeighed: 0,
  ...more,
});
const basis = (calendar: EggCalendar, birdType: 'layer' | 'breeder' | 'broiler' = 'layer') => ({ calendar, birdType, housed: 100, eggWeightFallback: null });

describe('which days count', () => {
  it('from the first day with eggs; a day from today on only with its eggs', () => {
    const cal = eggCalendar(
      [
        { date: dateOf(3), eggsCollected: 0 },
        { date: dateOf(2), eggsCollected: 5 },
        { date: dateOf(1), eggsCollected: 0 },
      ],
      dateOf(4),
    );
    expect(cal).toEqual({ firstEggDate: dateOf(2), today: dateOf(4) });
    expect(eggDayExclusion(cal, dateOf(1), 0)).toBe(BEFORE_LAY);
    expect(eggDayExclusion(cal, dateOf(3), 0)).toBeNull(); // over: a real day of no eggs
    expect(eggDayExclusion(cal, dateOf(4), 0)).toBe(NOT_OVER);
    expect(eggDayExclusion(cal, dateOf(4), 7)).toBeNull(); // today with its eggs recorded
    expect(eggDayExclusion(eggCalendar([], null), dateOf(0), 0)).toBe(NO_EGGS);
  });
});

describe('layerFigures', () => {
  /**
   * day 0: 100 hens, no eggs yet (pre-lay), 10 kg feed
   * day 1: 100 hens, 90 eggs of 60 g, 2 double yolks (graded), 11 kg
   * day 2:  99 hens, 80 eggs (not weighed, not graded), 11 kg
   * day 3:  99 hens, today: no eggs yet, 5 kg so far
   */
  const days = [
    ld(0, 100, 0, { feedKg: 10 }),
    ld(1, 100, 90, { feedKg: 11, doubleYolk: 2, eggWeightGramsSum: 90 * 60, eggsWeighed: 90 }),
    ld(2, 99, 80, { feedKg: 11 }),
    ld(3, 99, 0, { feedKg: 5 }),
  ];
  const cal = { firstEggDate: dateOf(1), today: dateOf(3) };

  it('counts days 1 and 2 only: the pre-lay day and today (not over, no eggs) are not laying days of the rates', () => {
    const f = layerFigures(days, basis(cal));
    expect(f.counted).toEqual({ from: dateOf(1), to: dateOf(2), days: 2 });
    expect(f.henDays).toBe(199);
    expect(f.henDayPct).toEqual({ value: 85.43, unit: '%' }); // 170 ÷ 199 = 85.4271 %
    expect(f.henHousedPct).toEqual({ value: 85, unit: '%' }); // 170 ÷ (100 × 2)
    expect(f.eggWeightGrams).toEqual({ value: 60, unit: 'g' }); // 5,400 ÷ 90 weighed
    expect(f.eggMassGrams).toEqual({ value: 51.26, unit: 'g/hen/day' }); // 0.854271 × 60 = 51.256
    // the laying period's feed: 11 + 11 = 22 kg (not the pre-lay 10 kg, not today's 5 kg so far)
    expect(f.feedPerDozenEggs).toEqual({ value: 1.553, unit: 'kg/dozen' }); // 22 × 12 ÷ 170 = 1.55294
    expect(f.feedPerKgEgg).toEqual({ value: 2.157, unit: 'kg/kg' }); // 22 ÷ (170 × 0.060 = 10.2) = 2.15686
    expect(f.feedPerEgg).toEqual({ value: 129.4, unit: 'g/egg' }); // 22,000 ÷ 170 = 129.41
    // double yolks over the graded eggs (day 1's 90), not over all 170
    expect(f.doubleYolkPct).toEqual({ value: 2.22, unit: '%' }); // 2 ÷ 90 = 2.2222 %
  });

  it('once every day is over, today’s zero is a real zero', () => {
    const f = layerFigures(days, basis({ ...cal, today: null }));
    expect(f.counted?.days).toBe(3);
    expect(f.henDayPct.value).toBe(57.05); // 170 ÷ 298 = 57.047 %
    expect(f.feedPerDozenEggs.value).toBe(1.906); // 27 × 12 ÷ 170 = 1.90588
  });

  it('today alone, before its eggs: missing, with the reason; no grading: no double-yolk rate', () => {
    const f = layerFigures([days[3]!], basis(cal));
    expect(f.henDayPct).toEqual({ value: null, unit: '%', reason: NOT_OVER });
    expect(f.henHousedPct.reason).toBe(NOT_OVER);
    expect(layerFigures([days[2]!], basis(cal)).doubleYolkPct).toEqual({ value: null, unit: '%', reason: 'no double yolks recorded: no day of it was graded' });
  });

  it('breeders: every bird a hen (said); broilers: none', () => {
    expect(layerFigures(days, basis(cal, 'breeder')).henDayPct.assumptions).toEqual(['breeder: every bird counted as a hen (the ledger has no sex split)']);
    expect(layerFigures(days, basis(cal, 'broiler')).henDayPct).toEqual({ value: null, unit: '%', reason: 'layers and breeders only' });
  });
});

// ---------------------------------------------------------------------------------------------------
// The engine with a farm-local today

/** 1,000 hens placed on day 0 (hatched 200 days before); `eggs[n]` collected on day n; asOf = today = day `today`. */
const layerCycle = (eggs: readonly number[], today: number): CycleInputs => ({
  cycle: {
    cycleId: 'c',
    flockId: 'f',
    birdType: 'layer',
    breed: null,
    hatchDate: dateOf(-200),
    startDate: dateOf(0),
    endDate: null,
    status: 'active',
    targetAgeDays: null,
    targetWeightGrams: null,
    houseAreaM2: null,
  },
  days: eggs.map((e, n): DayTotals => ({ ...emptyDay(dateOf(n)), ...(n === 0 ? { placed: 1000 } : {}), eggsCollected: e })),
  weighings: [],
  asOf: dateOf(today),
  today: dateOf(today),
});

describe('the KPI engine: today is not a finished day', () => {
  it('cycle hen-day and the daily rows leave out today until its eggs are recorded', () => {
    // day 0 placement (no eggs), 900 eggs on days 1–6, today = day 7 with nothing yet
    const inputs = layerCycle([0, 900, 900, 900, 900, 900, 900], 7);
    const k = cycleKpis(inputs, config());
    expect(k.henDayPct.value).toBe(90); // 5,400 ÷ 6,000 (counting today: ÷ 7,000 = 77.14 %)
    expect(k.layingPeriod).toEqual({ from: dateOf(1), to: dateOf(6), days: 6 });
    const rows = dailySeries(inputs, config());
    expect(rows.at(-1)!.henDayPct).toEqual({ value: null, unit: '%', reason: NOT_OVER });
    expect(rows[0]!.henDayPct.reason).toBe(BEFORE_LAY);
    // today's 850 eggs recorded: today counts, 6,250 ÷ 7,000 = 89.2857 %
    const recorded = layerCycle([0, 900, 900, 900, 900, 900, 900, 850], 7);
    expect(cycleKpis(recorded, config()).henDayPct.value).toBe(89.29);
  });

  it('peak production takes complete weeks of days that count', () => {
    // age = 200 + day: week 30 = ages 204–210 = days 4–10; 900 eggs a day on days 1–9, today = day 10 without its eggs:
    // week 30 has 6 days that count (counting today as 0 made it a "complete" week of 6 × 900 ÷ 7,000 = 77.14 %)
    const eggs = [0, ...Array<number>(9).fill(900)];
    expect(cycleKpis(layerCycle(eggs, 10), config()).peakProduction.henDayPct).toEqual({ value: null, unit: '%', reason: 'no complete age week of lay yet' });
    // today's 900 recorded: week 30 is complete, 6,300 ÷ 7,000 = 90 %
    expect(cycleKpis(layerCycle([...eggs, 900], 10), config()).peakProduction).toMatchObject({
      henDayPct: { value: 90 },
      ageWeek: 30,
      from: dateOf(4),
      to: dateOf(10),
    });
  });

  it('the weekly hen-day check: a week cut short by today is no drop; a real drop still is', () => {
    // 900 a day on days 1–19, today = day 20 without its eggs: counting today as 0 made 77.14 % against 90 %, a
    // 12.86-point "critical" drop; the 6 days both weeks have are 90 % and 90 %
    const steady = layerCycle([0, ...Array<number>(19).fill(900)], 20);
    expect(thresholdBreaches(steady, config()).filter((a) => a.metric === 'henDayDrop')).toEqual([]);
    // 900 a day on days 1–13, 800 on days 14–19: days 13–19 (900 + 6 × 800 = 5,700 ÷ 7,000) 81.43 % against 90 %
    const drop = layerCycle([0, ...Array<number>(13).fill(900), ...Array<number>(6).fill(800)], 20);
    const found = thresholdBreaches(drop, config()).filter((a) => a.metric === 'henDayDrop');
    expect(found.map((a) => [a.date, a.value, a.severity])).toEqual([
      [dateOf(17), 5.71, 'warning'], // days 11–17: 5,900 ÷ 7,000 = 84.29 %
      [dateOf(18), 7.14, 'warning'], // 82.86 %
      [dateOf(19), 8.57, 'warning'], // 81.43 %; day 20 (today, no eggs yet) is not judged
    ]);
  });

  it('the production forecast stands on the last 7 days that count', () => {
    const f = forecastProduction(layerCycle([0, ...Array<number>(9).fill(900)], 10), config());
    expect(f.basis).toMatchObject({ from: dateOf(3), to: dateOf(9), eggs: 6300, henDayPct: { value: 90, unit: '%' } });
  });
});

import { describe, expect, it } from 'vitest';
import { ANALYTICS_DEFAULTS } from '../../schemas/analytics-config.js';
import { standardWaterIntake } from '../../shared/domain/analytics/breed-standards.js';
import { emptyDay, type CycleInputs, type DayTotals } from '../../shared/domain/analytics/inputs.js';
import { dailySeries } from '../../shared/domain/analytics/kpis/daily.js';
import { HY_LINE_BROWN } from '../../shared/domain/analytics/standards/hy-line-brown.js';
import { thresholdBreaches } from '../../shared/domain/analytics/threshold-breaches.js';
import { detectCycleDays } from '../../shared/domain/detection/daily.js';
import { dailyPoints } from '../../shared/domain/rules/daily-points.js';
import { defaultRules } from '../../shared/domain/rules/defaults.js';
import { cycleFactsOf } from '../support/cycle-facts.js';
import { evaluateRule } from '../../shared/domain/rules/evaluation.js';

/**
 * The water alarm of a layer flock from the day-old chicks to lay: the rule, the low-intake anomaly and the
 * detectors judge water in one unit (% of the expected intake) from the first day to depletion. A Hy-Line
 * Brown flock drinks against the guide's water table in rearing and in lay alike; crossing day 126 (the
 * laying phase) changes nothing when the birds drink as before.
 */
const HATCH = '2025-01-01';
const dateAt = (age: number) => new Date(Date.parse(HATCH) + age * 86_400_000).toISOString().slice(0, 10);
const BIRDS = 30_064;
const LAST = 150;

/** Pullets placed at hatch and followed to day 150, drinking `pctAt(age)` % of `mlAt(age)` ml per bird. */
function flock(breed: string, mlAt: (age: number) => number, pctAt: (age: number) => number): CycleInputs {
  const days: DayTotals[] = [{ ...emptyDay(dateAt(0)), placed: BIRDS }];
  for (let age = 1; age <= LAST; age++) days.push({ ...emptyDay(dateAt(age)), waterLiters: Math.round((pctAt(age) / 100) * mlAt(age) * BIRDS) / 1000 });
  return {
    cycle: cycleFactsOf(HATCH, { breed }),
    days,
    weighings: [],
    asOf: dateAt(LAST),
  };
}

/** The guide's water for the age (ml per bird); before week 1 (day 7) the chicks drink what week 1 says. */
const guideMl = (age: number) => standardWaterIntake(HY_LINE_BROWN, Math.max(7, age))!.ml;

function alarms(inputs: CycleInputs) {
  const config = structuredClone(ANALYTICS_DEFAULTS);
  const series = dailySeries(inputs, config);
  const rule = defaultRules(config).find((r) => r.defaultKey === 'default:water-drop')!;
  const points = dailyPoints(rule.input, { inputs, config, series });
  const run = evaluateRule({ ...rule, basis: 'day' }, points, { after: null, until: `${dateAt(LAST + 1)}T00:00:00.000Z`, lastFiredAt: null });
  return {
    series,
    points,
    held: run.evaluations.filter((e) => e.outcome === 'fired' || e.outcome === 'cooldown').map((e) => e.bucket.slice(0, 10)),
    anomalies: thresholdBreaches(inputs, config).filter((a) => a.metric === 'lowWaterIntake'),
    detections: detectCycleDays(inputs, series).filter((d) => d.metric === 'waterPctOfExpected'),
  };
}

describe('a Hy-Line Brown flock crossing day 126', () => {
  it('drinking 106 % of the guide’s water all along raises no water alarm', () => {
    const a = alarms(flock('Hy-Line Brown', guideMl, () => 106));
    // one unit from the first week to lay: % of the expected intake on every day with water from day 7, pullets included
    const pct = (age: number) => a.series[age]!.waterPctOfExpected.value;
    expect([pct(60), pct(125), pct(126), pct(140)].map((v) => Math.round(v!))).toEqual([106, 106, 106, 106]);
    expect(a.series[125]!.phase).toBe('rearing');
    expect(a.series[126]!.phase).toBe('laying');
    expect(a.series[126]!.expectedWaterLiters.assumptions).toEqual([
      'Hy-Line Brown water intake at week 18: 143 ml per bird (midpoint of the published 110–176 ml band)',
    ]);
    // between two weeks: day 130, 143 + 4/7 × (157.5 − 143) = 151.2857 ml per bird × 30,064 birds = 4548.254 l
    expect(a.series[130]!.expectedWaterLiters.value).toBe(4548.254);
    // the rule's baseline on the crossing is % of expected, capped at the expected intake: (100 − 106) ÷ 100 = −6 %, a rise
    expect(a.points[126]).toMatchObject({ value: -6, context: { baseline: 100, waterPctOfExpected: 106 } });
    expect(a.held).toEqual([]);
    expect(a.anomalies).toEqual([]);
    expect(a.detections).toEqual([]);
  });

  it('a real drop still alarms, in lay and in rearing', () => {
    // days 130–132 at 75 % of the guide (from 106 %): 25 % below the expected intake on two consecutive days from day 131
    const lay = alarms(flock('Hy-Line Brown', guideMl, (age) => (age >= 130 && age <= 132 ? 75 : 106)));
    expect(lay.points.slice(130, 133).map((p) => p.value)).toEqual([25, 25, 25]);
    expect(lay.held).toEqual([dateAt(131), dateAt(132)]);
    expect(lay.anomalies.map((x) => x.date)).toEqual([dateAt(131), dateAt(132)]);
    // the same drop at 9 weeks
    const rearing = alarms(flock('Hy-Line Brown', guideMl, (age) => (age >= 63 && age <= 64 ? 75 : 106)));
    expect(rearing.held).toEqual([dateAt(64)]);
  });
});

describe('a layer without a water table for its pullets (Lohmann Brown) crossing day 126', () => {
  // about 160 ml per bird in rearing, 168 ml in lay (80 % of consumption.layerWaterMlPerBirdPerDay, 210 ml)
  const inputs = flock(
    'Lohmann Brown',
    () => 210,
    (age) => (age < 126 ? (160 / 210) * 100 : 80),
  );

  it('rearing days have no water level rather than ml per bird: the rule never compares ml with %', () => {
    const a = alarms(inputs);
    expect(a.series[100]!.waterMlPerBird.value).toBeCloseTo(160, 0);
    expect(a.points[100]).toMatchObject({ value: null, context: { reason: expect.stringMatching(/^no expected water intake for rearing birds/) } });
    // day 126 starts a new level; the first drop is judged on day 129, against three days of % (80 %): none
    expect(a.points.slice(126, 129).map((p) => p.value)).toEqual([null, null, null]);
    expect(a.points[129]).toMatchObject({ value: 0, context: { baseline: 80 } });
    expect(a.held).toEqual([]);
  });
});

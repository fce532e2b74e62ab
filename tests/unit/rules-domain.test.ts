import { describe, expect, it } from 'vitest';
import { ANALYTICS_DEFAULTS, type AnalyticsSections } from '../../schemas/analytics-config.js';
import { thresholdBreaches } from '../../shared/domain/analytics/threshold-breaches.js';
import { cycleFinancials } from '../../shared/domain/analytics/financials/cycle.js';
import { emptyDay, type CycleInputs, type DayTotals } from '../../shared/domain/analytics/inputs.js';
import { cycleKpis } from '../../shared/domain/analytics/kpis/cycle.js';
import { dailySeries } from '../../shared/domain/analytics/kpis/daily.js';
import type { BucketStats, MetricStat } from '../../shared/domain/iot/rollups.js';
import { CALCULATIONS, calculationById, inputOf } from '../../shared/domain/rules/calculations.js';
import { conditionHolds, conditionProblem, type RuleCondition } from '../../shared/domain/rules/conditions.js';
import { dailyPoints } from '../../shared/domain/rules/daily-points.js';
import { DEFAULT_KEYS, defaultRules, FIRST_DEFAULT_KEYS, type RuleDraft } from '../../shared/domain/rules/defaults.js';
import { evaluateRule, type Evaluation, type RuleSpec, type SeriesPoint } from '../../shared/domain/rules/evaluation.js';
import { farmPoints } from '../../shared/domain/rules/farm-points.js';
import { hourlyPoints } from '../../shared/domain/rules/hourly-points.js';
import { aggregate, bucketEnd, parseWindow, windowProblem } from '../../shared/domain/rules/windows.js';

/**
 * The alarm-rule engine on hand-built series: windows, aggregations, conditions, cooldown, live runs that
 * agree with a backtest, the calculation points against the KPI engine, and the default rule set.
 */

const DAY = 86_400_000;
const dateOf = (start: string, n: number) => new Date(Date.parse(start) + n * DAY).toISOString().slice(0, 10);
const M = (n: number) => dateOf('2026-03-01', n - 1); // M(3) = 2026-03-03
const H = (h: number) => `2026-03-04T${String(h).padStart(2, '0')}`;
const pt = (bucket: string, value: number | null, ageDays?: number): SeriesPoint => ({
  bucket,
  value,
  ...(ageDays !== undefined ? { context: { ageDays } } : {}),
});
const buckets = (evs: readonly Evaluation[]) => evs.map((e) => e.bucket);
const spec = (s: Partial<RuleSpec>): RuleSpec => ({
  window: 'P1D',
  aggregation: 'last',
  condition: { op: '>', value: 0.5 },
  cooldownMinutes: 1440,
  basis: 'day',
  ...s,
});
const config = (patch: { thresholds?: Partial<AnalyticsSections['thresholds']>; consumption?: Partial<AnalyticsSections['consumption']> } = {}) => {
  const c = structuredClone(ANALYTICS_DEFAULTS);
  Object.assign(c.thresholds, patch.thresholds ?? {});
  Object.assign(c.consumption, patch.consumption ?? {});
  return c;
};

describe('windows', () => {
  it('accepts ISO 8601 durations of days, weeks, hours and minutes', () => {
    expect(parseWindow('PT1H')).toEqual({ ms: 3_600_000 });
    expect(parseWindow('P3D')).toEqual({ ms: 3 * DAY });
    expect(parseWindow('P1DT12H')).toEqual({ ms: 1.5 * DAY });
    expect(parseWindow('P2W')).toEqual({ ms: 14 * DAY });
    expect(parseWindow('PT15M')).toEqual({ ms: 900_000 });
    expect(parseWindow('P90D')).toEqual({ ms: 90 * DAY });
  });

  it('refuses months and years, zero, garbage and windows out of PT15M…P90D', () => {
    const problem = (iso: string) => (parseWindow(iso) as { problem?: string }).problem;
    expect(problem('P1M')).toMatch(/months and years are not supported/);
    expect(problem('P1Y2M')).toMatch(/months and years are not supported/);
    expect(problem('PT0H')).toBe('PT0H: the window must be at least PT15M');
    expect(problem('PT10M')).toMatch(/at least PT15M/);
    expect(problem('P91D')).toBe('P91D: the window must be at most P90D');
    for (const garbage of ['', 'P', 'PT', '1H', 'one hour', 'P1.5D', 'PT1H30', 'p1d']) expect(problem(garbage), garbage).toBeDefined();
    expect(problem('PT30S')).toMatch(/seconds are not supported/);
  });

  it('a window covers whole buckets of its input', () => {
    expect(windowProblem('PT1H', 'day')).toBe('a daily input needs a window of whole days (P1D or more)');
    expect(windowProblem('P1DT12H', 'day')).toBe('a daily input needs a window of whole days (P1D or more)');
    expect(windowProblem('PT30M', 'hour')).toBe('an hourly input needs a window of whole hours (PT1H or more)');
    expect(windowProblem('P1M', 'day')).toMatch(/months/);
    expect(windowProblem('P3D', 'day')).toBeNull();
    expect(windowProblem('P1DT12H', 'hour')).toBeNull();
    expect(windowProblem('PT1H', 'hour')).toBeNull();
  });

  it('a bucket ends at the next day or hour (UTC)', () => {
    expect(bucketEnd('2026-03-04', 'day')).toBe('2026-03-05T00:00:00.000Z');
    expect(bucketEnd('2026-03-04T13', 'hour')).toBe('2026-03-04T14:00:00.000Z');
    expect(bucketEnd('2026-12-31T23', 'hour')).toBe('2027-01-01T00:00:00.000Z');
    expect(() => bucketEnd('2026-03-04T13', 'day')).toThrow(RangeError);
  });
});

describe('aggregations', () => {
  const xs = [3, 1, 4, 1, 5];
  it('avg, min, max, sum, last, change over a known series', () => {
    expect(aggregate(xs, 'avg', 'day')).toBe(2.8);
    expect(aggregate(xs, 'min', 'day')).toBe(1);
    expect(aggregate(xs, 'max', 'day')).toBe(5);
    expect(aggregate(xs, 'sum', 'day')).toBe(14);
    expect(aggregate(xs, 'last', 'day')).toBe(5);
    expect(aggregate(xs, 'change', 'day')).toBe(2);
    expect(aggregate([0.1, 0.2], 'sum', 'hour')).toBe(0.3); // no float noise
  });

  it('slope is least squares per day, hourly inputs included', () => {
    // x = 0…4, mean 2; Σ(x − 2)(y − 2.8) = 4, Σ(x − 2)² = 10 → 0.4 per bucket
    expect(aggregate(xs, 'slope', 'day')).toBe(0.4);
    expect(aggregate(xs, 'slope', 'hour')).toBe(9.6); // 0.4 per hour = 9.6 per day
    expect(aggregate([0, 2], 'slope', 'day', [0, 2])).toBe(1); // a gap: 2 over 2 days
  });

  it('nothing to aggregate, or one value for change and slope: null', () => {
    for (const a of ['avg', 'min', 'max', 'sum', 'last', 'change', 'slope'] as const) expect(aggregate([], a, 'day')).toBeNull();
    expect(aggregate([7], 'change', 'day')).toBeNull();
    expect(aggregate([7], 'slope', 'hour')).toBeNull();
    expect(aggregate([7], 'avg', 'hour')).toBe(7);
  });

  it('an hourly rule reads the slope per day over the window, skipping empty hours', () => {
    // NH₃ 10, 11, (no data), 13 ppm: 1 ppm an hour = 24 ppm a day, the gap kept in its place
    const points = [pt(H(10), 10), pt(H(11), 11), pt(H(12), null), pt(H(13), 13)];
    const run = evaluateRule(spec({ basis: 'hour', window: 'PT4H', aggregation: 'slope', condition: { op: '>', value: 20 }, cooldownMinutes: 180 }), points, {
      after: '2026-03-04T13:00:00.000Z',
      until: '2026-03-04T14:00:00.000Z',
      lastFiredAt: null,
    });
    expect(run.evaluations).toHaveLength(1);
    expect(run.evaluations[0]).toMatchObject({ outcome: 'fired', value: 24, windowFrom: '2026-03-04T10:00:00.000Z', windowTo: '2026-03-04T14:00:00.000Z' });
    expect(run.evaluations[0]!.inputs).toEqual({
      value: 24,
      count: 3,
      first: 10,
      last: 13,
      min: 10,
      max: 13,
      avg: 11.333333,
      ageDays: null,
      windowDays: 0.166667,
    });
  });
});

describe('evaluation and cooldown', () => {
  // daily mortality %: above 0.5 on days 3, 4, 5 and 9 of March
  const high = new Set([3, 4, 5, 9]);
  const mortality = Array.from({ length: 10 }, (_, i) => pt(M(i + 1), high.has(i + 1) ? 0.6 : 0.1, i + 1));
  const whole = { after: null, until: '2026-03-11T00:00:00.000Z', lastFiredAt: null };

  it('a daily rule fires on the expected days and not during its cooldown', () => {
    const run = evaluateRule(spec({ cooldownMinutes: 2 * 1440 }), mortality, whole);
    // day 3 fires; day 4 is 1 day later (< 2 days): cooldown; day 5 is 2 days after day 3: fires; day 9 fires
    expect(buckets(run.firings)).toEqual([M(3), M(5), M(9)]);
    expect(buckets(run.evaluations.filter((e) => e.outcome === 'cooldown'))).toEqual([M(4)]);
    expect(run.evaluations.map((e) => e.outcome)).toEqual(['ok', 'ok', 'fired', 'cooldown', 'fired', 'ok', 'ok', 'ok', 'fired', 'ok']);
    expect(run.firings[0]).toMatchObject({
      at: '2026-03-04T00:00:00.000Z',
      windowFrom: '2026-03-03T00:00:00.000Z',
      windowTo: '2026-03-04T00:00:00.000Z',
      value: 0.6,
    });
    expect(run.evaluations[3]!.reason).toBe(
      'input last over the 1 day window ending 2026-03-05T00:00:00.000Z: 0.6 > 0.5; within the 2,880 min cooldown of the firing at 2026-03-04T00:00:00.000Z',
    );
    expect(run.lastFiredAt).toBe('2026-03-10T00:00:00.000Z');
    expect(run.status).toEqual({ state: 'ok', reason: null, at: '2026-03-11T00:00:00.000Z' });
  });

  it('a one-day cooldown lets a daily rule fire every day the breach lasts', () => {
    expect(buckets(evaluateRule(spec({}), mortality, whole).firings)).toEqual([M(3), M(4), M(5), M(9)]);
  });

  it('the cooldown carries over from the stored lastFiredAt', () => {
    const run = evaluateRule(spec({ cooldownMinutes: 2 * 1440 }), mortality, {
      after: '2026-03-04T00:00:00.000Z',
      until: whole.until,
      lastFiredAt: '2026-03-04T00:00:00.000Z',
    });
    expect(run.evaluations[0]).toMatchObject({ bucket: M(4), outcome: 'cooldown' });
    expect(buckets(run.firings)).toEqual([M(5), M(9)]);
    expect(run.status.state).toBe('ok');
  });

  it('the status is that of the last evaluation; a cooldown counts as fired', () => {
    const run = evaluateRule(spec({ cooldownMinutes: 2 * 1440 }), mortality.slice(0, 4), whole);
    expect(run.status).toMatchObject({ state: 'fired', at: '2026-03-05T00:00:00.000Z' });
    expect(run.status.reason).toMatch(/within the 2,880 min cooldown/);
  });

  it('only buckets that end in (after, until] are evaluated; a window reaches back before after', () => {
    const run = evaluateRule(spec({ window: 'P3D', aggregation: 'sum', condition: { op: '>', value: 1 } }), mortality, {
      after: '2026-03-05T00:00:00.000Z',
      until: '2026-03-07T00:00:00.000Z',
      lastFiredAt: null,
    });
    expect(buckets(run.evaluations)).toEqual([M(5), M(6)]);
    // days 3–5 sum to 1.8 and fire; days 4–6 sum to 1.3, one day (= the cooldown, not within it) later: fire again
    expect(run.evaluations.map((e) => [e.value, e.outcome])).toEqual([
      [1.8, 'fired'],
      [1.3, 'fired'],
    ]);
  });

  it('live = backtest: day-by-day calls carrying lastFiredAt give the firings of one call', () => {
    const rules = [
      spec({ cooldownMinutes: 2 * 1440 }),
      spec({ window: 'P3D', aggregation: 'avg', condition: { op: '>=', value: 0.33 }, cooldownMinutes: 2 * 1440 }),
    ];
    for (const rule of rules) {
      const backtest = evaluateRule(rule, mortality, whole);
      let lastFiredAt: string | null = null;
      let after: string | null = null;
      const live: Evaluation[] = [];
      for (let d = 1; d <= 10; d++) {
        const until = `${M(d + 1)}T00:00:00.000Z`;
        // the live job sees only what exists by then
        const run = evaluateRule(rule, mortality.slice(0, d), { after, until, lastFiredAt });
        live.push(...run.evaluations);
        lastFiredAt = run.lastFiredAt;
        after = until;
      }
      expect(live).toEqual(backtest.evaluations);
      expect(lastFiredAt).toBe(backtest.lastFiredAt);
    }
  });

  it('live = backtest for an hourly rule run every 5 hours, with empty hours', () => {
    const nh3 = Array.from({ length: 24 }, (_, h) => pt(H(h), h % 7 === 3 ? null : [12, 18, 25, 30][h % 4]!));
    const rule = spec({ basis: 'hour', window: 'PT3H', aggregation: 'avg', condition: { op: '>', value: 20 }, cooldownMinutes: 180 });
    const end = '2026-03-05T00:00:00.000Z';
    const backtest = evaluateRule(rule, nh3, { after: null, until: end, lastFiredAt: null });
    expect(backtest.firings.length).toBeGreaterThan(2);
    expect(backtest.evaluations.some((e) => e.outcome === 'cooldown')).toBe(true);
    let lastFiredAt: string | null = null;
    let after: string | null = null;
    const firings: Evaluation[] = [];
    for (let h = 5; h <= 25; h += 5) {
      const until = new Date(Date.parse('2026-03-04T00:00:00.000Z') + Math.min(h, 24) * 3_600_000).toISOString();
      const run = evaluateRule(rule, nh3, { after, until, lastFiredAt });
      firings.push(...run.firings);
      lastFiredAt = run.lastFiredAt;
      after = until;
    }
    expect(firings).toEqual(backtest.firings);
  });
});

describe('conditions', () => {
  const limit = { logic: { '>': [{ var: 'value' }, { '+': [1, { '*': [0.06, { var: 'ageDays' }] }] }] } };

  it('json-logic reads the named inputs, ageDays from the evaluated point', () => {
    // cumulative mortality 1.5 %: above 1 + 0.06 × 5 = 1.3 at 5 days, not above 1.6 at 10 days
    const points = [pt(M(1), 1.5, 5), pt(M(2), 1.5, 10), pt(M(3), 1.5)];
    const run = evaluateRule(spec({ condition: limit }), points, { after: null, until: '2026-03-04T00:00:00.000Z', lastFiredAt: null });
    expect(run.evaluations.map((e) => e.outcome)).toEqual(['fired', 'ok', 'no_data']);
    expect(run.firings[0]!.reason).toBe('input last over the 1 day window ending 2026-03-02T00:00:00.000Z: the condition holds (value 1.5, ageDays 5)');
    expect(run.evaluations[2]!.reason).toBe('ageDays unknown for the 1 day window ending 2026-03-04T00:00:00.000Z');
    expect(conditionHolds(limit, { value: 1.5, ageDays: 5 })).toBe(true);
    expect(conditionHolds(limit, { value: 1.5, ageDays: null })).toBe(false); // 0.06 × null would be 0: never fire on a missing figure
    expect(conditionHolds({ logic: { '>': [{ var: 'value' }, { var: ['ageDays', 0] }] } }, { value: 1, ageDays: null })).toBe(true); // a default stands in
  });

  it('conditionProblem refuses unknown variables and operators off the whitelist', () => {
    expect(conditionProblem(limit)).toBeNull();
    expect(conditionProblem({ logic: { and: [{ '>': [{ var: 'count' }, 1] }, { '<': [0, { var: 'windowDays' }, 3] }] } })).toBeNull();
    expect(conditionProblem({ logic: { '>': [{ var: 'deaths' }, 1] } })).toMatch(/^unknown variable deaths: a condition may read value, count, first/);
    expect(conditionProblem({ logic: { '>': [{ var: 'value.x' }, 1] } })).toMatch(/unknown variable value\.x/);
    expect(conditionProblem({ logic: { log: { var: 'value' } } })).toMatch(/^operator log is not allowed/);
    expect(conditionProblem({ logic: { map: [[1, 2], { var: '' }] } })).toMatch(/^operator map is not allowed/);
    expect(conditionProblem({ logic: { '>': [{ var: 'value' }, 'ten'] } })).toMatch(/the text "ten" is not allowed/);
    expect(conditionProblem({ logic: { '>': [1, 2], '<': [1, 2] } })).toMatch(/exactly one operator/);
    expect(conditionProblem({ logic: [1] as unknown as Record<string, unknown> })).toMatch(/must be an operation/);
    expect(conditionProblem({ op: 'outside', range: [70, 50] })).toBe('range [70, 50]: low must not be above high');
    expect(conditionProblem({ op: '>', value: Number.NaN })).toBe('op > needs a finite number in value');
    expect(conditionProblem({ op: '!=', value: 1 } as unknown as RuleCondition)).toMatch(/^unknown op !=/);
    expect(conditionProblem({ op: 'inside', range: [50, 70] })).toBeNull();
  });

  it('short forms: inside and outside include the bounds on the inside; null never fires', () => {
    const inside: RuleCondition = { op: 'inside', range: [50, 70] };
    const outside: RuleCondition = { op: 'outside', range: [50, 70] };
    expect([50, 60, 70, 49.9, 70.1].map((value) => conditionHolds(inside, { value }))).toEqual([true, true, true, false, false]);
    expect([50, 60, 70, 49.9, 70.1].map((value) => conditionHolds(outside, { value }))).toEqual([false, false, false, true, true]);
    expect(conditionHolds({ op: '<', value: 3 }, { value: null })).toBe(false);
    expect(conditionHolds({ op: '>=', value: 3 }, { value: 3 })).toBe(true);
    expect(conditionHolds({ logic: { '<': [{ var: 'value' }, 3] } }, { value: null })).toBe(false); // null < 3 is true in JavaScript
  });
});

describe('no data', () => {
  it('says which input had no values in which window', () => {
    const run = evaluateRule(
      spec({ basis: 'hour', window: 'PT1H', aggregation: 'avg', condition: { op: '>', value: 20 }, cooldownMinutes: 180, input: 'nh3Ppm' }),
      [pt(H(13), null)],
      {
        after: null,
        until: '2026-03-04T14:00:00.000Z',
        lastFiredAt: null,
      },
    );
    expect(run.evaluations[0]).toMatchObject({ outcome: 'no_data', value: null, at: '2026-03-04T14:00:00.000Z' });
    expect(run.status).toEqual({
      state: 'no_data',
      reason: 'no nh3Ppm values in the 1 h window ending 2026-03-04T14:00:00.000Z',
      at: '2026-03-04T14:00:00.000Z',
    });
  });

  it('null values are skipped, not counted as zero', () => {
    const points = [pt(H(11), 10), pt(H(12), null), pt(H(13), 40)];
    const run = evaluateRule(spec({ basis: 'hour', window: 'PT3H', aggregation: 'avg', condition: { op: '>', value: 20 }, cooldownMinutes: 180 }), points, {
      after: '2026-03-04T13:00:00.000Z',
      until: '2026-03-04T14:00:00.000Z',
      lastFiredAt: null,
    });
    expect(run.evaluations[0]).toMatchObject({ outcome: 'fired', value: 25 });
    expect(run.evaluations[0]!.inputs.count).toBe(2);
  });

  it('change with one value, nothing evaluated, an invalid rule', () => {
    const one = evaluateRule(spec({ window: 'P2D', aggregation: 'change', input: 'fcr' }), [pt(M(1), null), pt(M(2), 1.5)], {
      after: '2026-03-02T00:00:00.000Z',
      until: '2026-03-03T00:00:00.000Z',
      lastFiredAt: null,
    });
    expect(one.status.reason).toBe('only 1 fcr value in the 2 days window ending 2026-03-03T00:00:00.000Z: change needs 2');
    const nothing = evaluateRule(spec({}), [], { after: null, until: '2026-03-03T00:00:00.000Z', lastFiredAt: '2026-03-01T00:00:00.000Z' });
    expect(nothing).toEqual({
      evaluations: [],
      firings: [],
      lastFiredAt: '2026-03-01T00:00:00.000Z',
      status: { state: 'no_data', reason: 'no input values to judge yet', at: null },
    });
    const invalid = evaluateRule(spec({ window: 'PT1H' }), [pt(M(1), 1)], { after: null, until: '2026-03-03T00:00:00.000Z', lastFiredAt: null });
    expect(invalid.status.reason).toBe('invalid rule: a daily input needs a window of whole days (P1D or more)');
  });
});

// ---------------------------------------------------------------------------------------------------
// Calculations against the KPI engine

const B0 = '2026-03-01';
const b = (n: number) => dateOf(B0, n);
const day = (date: string, fields: Partial<DayTotals>): DayTotals => ({ ...emptyDay(date), ...fields });
const broiler = (days: DayTotals[], asOf: string): CycleInputs => ({
  cycle: {
    cycleId: 'c',
    flockId: 'f',
    birdType: 'broiler',
    breed: null,
    hatchDate: B0,
    startDate: B0,
    endDate: null,
    status: 'active',
    targetAgeDays: null,
    targetWeightGrams: null,
    houseAreaM2: null,
  },
  days: [day(B0, { placed: 1000 }), ...days],
  weighings: [],
  asOf,
});
const cycleOf = (inputs: CycleInputs, c: AnalyticsSections = config()) => ({ inputs, config: c, series: dailySeries(inputs, c) });
const values = (points: readonly SeriesPoint[]) => points.map((p) => p.value);

describe('daily points', () => {
  it('dailyMortalityPct: the KPI engine’s figure, one point per calendar day', () => {
    const c = cycleOf(broiler([day(b(1), { deaths: 6 }), day(b(2), { deaths: 10 }), day(b(3), { deaths: 5 })], b(4)));
    const points = dailyPoints('dailyMortalityPct', c);
    expect(points.map((p) => p.bucket)).toEqual([b(0), b(1), b(2), b(3), b(4)]);
    expect(values(points)).toEqual(c.series.map((r) => r.dailyMortalityPct.value));
    expect(values(points)).toEqual([0, 0.6, 1.01, 0.51, 0]); // 10 ÷ 994, 5 ÷ 984
    expect(points[2]!.context).toEqual({ ageDays: 2, deaths: 10, birdsPresent: 994 });
    expect(values(dailyPoints('cumulativeMortalityPct', c))).toEqual([0, 0.6, 1.6, 2.1, 2.1]);
  });

  // 1,000 birds drinking `pct` % of the expected intake for their age (5.7 ml × age per bird): a growing
  // flock drinks more each day, so the drop is judged on that %, not on ml per bird
  const atPct = (age: number, pct: number) => day(b(age), { waterLiters: Math.round(((pct / 100) * age * 5.7 + Number.EPSILON) * 1000) / 1000 });
  // days 17–19: 100 % of expected; day 20: 80 % (−20 %); days 21, 22: 75 % (−25 % against the days before the drop)
  const waterCycle = () => cycleOf(broiler([atPct(17, 100), atPct(18, 100), atPct(19, 100), atPct(20, 80), atPct(21, 75), atPct(22, 75)], b(22)));

  it('waterDropPct: against the 3 days before, held at the start of a low spell', () => {
    const c = waterCycle();
    const points = dailyPoints('waterDropPct', c);
    expect(values(points).slice(17)).toEqual([null, null, null, 20, 25, 25]);
    expect(
      values(points)
        .slice(0, 17)
        .every((v) => v === null),
    ).toBe(true);
    expect(c.series[20]!.waterPctOfExpected.value).toBe(80);
    expect(points[21]!.context).toEqual({
      ageDays: 21,
      waterMlPerBird: c.series[21]!.waterMlPerBird.value,
      waterPctOfExpected: 75,
      baseline: 100,
      baselineFrom: b(17),
      baselineTo: b(19),
    });
    // a rise reads negative; a day within the tolerance ends the spell and the baseline moves on
    const up = cycleOf(broiler([atPct(1, 100), atPct(2, 100), atPct(3, 100), atPct(4, 130), atPct(5, 90)], b(5)));
    const upPoints = dailyPoints('waterDropPct', up);
    // day 4: 130 % against 100 → −30 %; day 5 (no spell: day 4 was not low): 90 against (100 + 100 + 130) ÷ 3 = 110,
    // but never a bar above the expected intake: against 100 → 10 % (low only when below both the days before and the expectation)
    expect(values(upPoints).slice(4)).toEqual([-30, 10]);
  });

  it('waterDropPct: a spell ends at the expected intake, even when the days before it drank far above it (days 1–3)', () => {
    // a young flock at 300 % of a low expectation on days 1–3, then at 100 % from day 4 on: no drop at all
    const c = cycleOf(broiler([atPct(1, 300), atPct(2, 300), atPct(3, 300), ...[4, 5, 6, 7, 8, 9, 10].map((a) => atPct(a, 100))], b(10)));
    const points = dailyPoints('waterDropPct', c);
    expect(values(points).slice(4)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    // a real drop later still reads, and the spell closes once the birds drink the expected intake again
    const later = cycleOf(broiler([1, 2, 3, 4, 5, 6].map((a) => atPct(a, 100)).concat([atPct(7, 70), atPct(8, 70), atPct(9, 100)]), b(9)));
    expect(values(dailyPoints('waterDropPct', later)).slice(7)).toEqual([30, 30, 0]);
  });

  it('the default water-drop rule fires on the days the low-intake anomaly does', () => {
    const c = waterCycle();
    const rule = defaultRules(c.config).find((r) => r.defaultKey === 'default:water-drop')!;
    const run = evaluateRule({ ...rule, basis: 'day' }, dailyPoints(rule.input, c), { after: null, until: `${b(23)}T00:00:00.000Z`, lastFiredAt: null });
    const anomalies = thresholdBreaches(c.inputs, c.config).filter((a) => a.metric === 'lowWaterIntake');
    expect(buckets(run.firings)).toEqual([b(21), b(22)]);
    expect(buckets(run.firings)).toEqual(anomalies.map((a) => a.date));
  });

  it('daysOfFeedLeft: the cycle’s feed balance ÷ the mean use of the last 3 days', () => {
    const days = [
      day(B0, { placed: 1000, feedDeliveredKg: 1000, feedConsumedKg: 100 }),
      ...[1, 2, 3, 4].map((n) => day(b(n), { feedConsumedKg: [0, 100, 100, 160, 40][n]! })),
    ];
    const inputs: CycleInputs = { ...broiler([], b(5)), days };
    const points = dailyPoints('daysOfFeedLeft', cycleOf(inputs));
    // stock 900, 800, 700, 540, 500, 500; use 100, 100, 100, 120, 100, 66.67
    expect(values(points)).toEqual([9, 8, 7, 4.5, 5, 7.5]);
    expect(points[3]!.context).toEqual({ ageDays: 3, feedStockKg: 540, meanDailyFeedKg: 120 });
    const none = dailyPoints('daysOfFeedLeft', cycleOf(broiler([], b(1))));
    expect(none[0]).toMatchObject({ value: null, context: { reason: 'no feed consumption recorded from 2026-03-01 to 2026-03-01' } });
  });

  it('daysOfFeedLeft on the farm’s stock: delivered before the chicks, without a cycle; every flock’s use counts; quiet when it lasts to harvest', () => {
    // 1,000 kg delivered to the farm the day before placement; the farm takes 100 kg a day (this flock 60, another 40)
    const out = new Map([0, 1, 2, 3, 4].map((n) => [b(n), 100]));
    const dated = new Map([[b(-1), 1000], ...[0, 1, 2, 3, 4].map((n) => [b(n), -100] as [string, number])]);
    const farmFeed = { kg: 500, dated, out };
    const days = [1, 2, 3, 4].map((n) => day(b(n), { feedConsumedKg: 60 }));
    const inputs: CycleInputs = { ...broiler(days, b(4)), farmFeed };
    // stock at the end of each day 900, 800, 700, 600, 500; the farm's use 100 a day (the first days: the mean of 3 days, missing ones 0)
    expect(values(dailyPoints('daysOfFeedLeft', cycleOf(inputs)))).toEqual([27, 12, 7, 6, 5]);
    // harvest planned at 20 days: on day 0 the 27 days of feed last until then (no value); from day 1 they do not
    const planned: CycleInputs = { ...inputs, cycle: { ...inputs.cycle, targetAgeDays: 20 } };
    const points = dailyPoints('daysOfFeedLeft', cycleOf(planned));
    expect(values(points)).toEqual([null, 12, 7, 6, 5]);
    expect(points[0]!.context).toMatchObject({ reason: 'the feed in stock (27 days) lasts until the planned harvest at 20 days', feedStockKg: 900 });
    // at 8 days, every day's stock lasts until the harvest: nothing to judge
    expect(values(dailyPoints('daysOfFeedLeft', cycleOf({ ...inputs, cycle: { ...inputs.cycle, targetAgeDays: 8 } })))).toEqual([null, null, null, null, null]);
  });

  it('costPerEgg on the last day equals the cycle financials', () => {
    const c0 = config();
    const inputs: CycleInputs = {
      ...broiler([], b(3)),
      cycle: { ...broiler([], b(3)).cycle, birdType: 'layer', hatchDate: '2025-08-01' },
      days: [day(B0, { placed: 1000, feedConsumedKg: 110 }), ...[1, 2, 3].map((n) => day(b(n), { eggsCollected: 900, feedConsumedKg: 110 }))],
    };
    const points = dailyPoints('costPerEgg', cycleOf(inputs, c0));
    const kpis = cycleKpis(inputs, c0);
    const whole = cycleFinancials(inputs, c0, { kg: kpis.liveWeightKg.value });
    expect(points[3]!.value).toBe(whole.costPerEgg.value);
    expect(points[0]).toMatchObject({ value: null, context: { reason: 'no eggs collected' } });
    expect(points[1]!.value! > points[3]!.value!).toBe(true); // the chicks' cost spread over more eggs
  });

  it('refuses an id that is not a daily calculation', () => {
    expect(() => dailyPoints('ammonia', cycleOf(broiler([], b(1))))).toThrow(RangeError);
  });
});

describe('hourly points', () => {
  const stat = (values: number[]): MetricStat => ({
    n: values.length,
    sum: values.reduce((a, v) => a + v, 0),
    min: Math.min(...values),
    max: Math.max(...values),
    first: values[0]!,
    firstTs: 0,
    last: values.at(-1)!,
    lastTs: 0,
  });
  const entry = (hour: string, stats: BucketStats) => ({ hour, stats });

  it('a metric is averaged over the house’s devices by readings (Σ sum ÷ Σ count)', () => {
    const hours = [
      entry(H(10), { nh3Ppm: stat([10, 20]) }), // device A
      entry(H(10), { nh3Ppm: stat([24]), temperatureC: stat([30]) }), // device B
      entry(H(11), { nh3Ppm: stat([12]) }),
      entry(H(12), { temperatureC: stat([29]) }),
    ];
    const points = hourlyPoints('nh3Ppm', hours, null);
    expect(values(points)).toEqual([18, 12, null]); // 54 ÷ 3, not (15 + 24) ÷ 2
    expect(points[0]).toEqual({
      bucket: H(10),
      value: 18,
      context: { ageDays: null, nh3Ppm: 18, readings: 3, devices: 2, min: 10, max: 24 },
      readings: { n: 3, sum: 54, min: 10, max: 24 }, // what a window's avg, min, max and sum are taken from
    });
    expect(points[2]!.context!.reason).toBe('no nh3Ppm reading that hour');
    expect(values(hourlyPoints('ammonia', hours, null))).toEqual([18, 12, null]);
  });

  it('temperatureDeviation against the broiler age curve', () => {
    const hours = [entry(H(10), { temperatureC: stat([32, 34]) }), entry(H(11), { temperatureC: stat([26]) }), entry(H(12), { temperatureC: stat([31]) })];
    // age 7: 30 °C → +3; age 14: 27 °C → −1; age 10: 30 − 3 × 3/7 = 28.7 °C → +2.3
    const ages: Record<string, number> = { [H(10)]: 7, [H(11)]: 14, [H(12)]: 10 };
    const points = hourlyPoints('temperatureDeviation', hours, { birdType: 'broiler', ageDaysAt: (h) => ages[h]! });
    expect(values(points)).toEqual([3, -1, 2.3]);
    expect(points[0]!.context).toMatchObject({ ageDays: 7, temperatureC: 33, targetC: 30 });
    expect(hourlyPoints('temperatureDeviation', hours, null)[0]).toMatchObject({ value: null, context: { reason: 'no flock in the house: no age curve' } });
    expect(() => hourlyPoints('fcr', hours, null)).toThrow(RangeError);
  });
});

describe('farm-level points', () => {
  it('generatorDrillOverdueDays: days past the readiness due date (7 days after the last drill that ran, or after the farm’s creation)', () => {
    const drills = [
      { kind: 'generator' as const, date: '2026-03-01', result: 'passed' as const },
      { kind: 'generator' as const, date: '2026-03-09', result: 'failed' as const },
      { kind: 'fire' as const, date: '2026-03-09', result: 'passed' as const },
    ];
    const days = ['2026-03-07', '2026-03-08', '2026-03-09', '2026-03-11'];
    const points = farmPoints('generatorDrillOverdueDays', { drills, createdAt: '2026-01-01T10:00:00.000Z' }, days);
    expect(points.map((p) => p.value)).toEqual([0, 0, 1, 3]);
    expect(points[3]!.context).toMatchObject({ lastDrillDate: '2026-03-09', lastDrillResult: 'failed', dueDate: '2026-03-08', everyDays: 7 });
    // never drilled: the first drill is due a week after the farm was created
    const fresh = farmPoints('generatorDrillOverdueDays', { drills: [], createdAt: '2026-03-01T08:00:00.000Z' }, ['2026-03-08', '2026-03-10']);
    expect(fresh.map((p) => p.value)).toEqual([0, 2]);
    expect(farmPoints('generatorDrillOverdueDays', { drills: [], createdAt: null }, ['2026-03-08'])[0]).toMatchObject({ value: null });
    expect(() => farmPoints('fcr', { drills, createdAt: null }, days)).toThrow(RangeError);
    expect(() => dailyPoints('generatorDrillOverdueDays', cycleOf(broiler([], b(1))))).toThrow(RangeError);
  });
});

describe('the catalogue', () => {
  it('every template is an input; sensor metrics are hourly inputs', () => {
    for (const c of CALCULATIONS) expect(inputOf(c.id)).toEqual({ kind: 'calculation', basis: c.basis, unit: c.unit, name: c.name, appliesTo: c.appliesTo });
    expect(new Set(CALCULATIONS.map((c) => c.id)).size).toBe(CALCULATIONS.length);
    expect(inputOf('nh3Ppm')).toEqual({ kind: 'sensor', basis: 'hour', unit: 'ppm', name: 'Ammonia (NH₃)', appliesTo: 'house' });
    expect(CALCULATIONS.every((c) => (c.basis === 'hour') === (c.appliesTo === 'house'))).toBe(true);
    expect(inputOf('generatorDrillOverdueDays')).toMatchObject({ basis: 'day', appliesTo: 'farm', unit: 'days' });
    expect(inputOf('nope')).toBeUndefined();
    expect(calculationById('waterDropPct')?.basis).toBe('day');
    expect(calculationById('temperatureDeviation')?.basis).toBe('hour');
  });
});

describe('default rules', () => {
  const byKey = (drafts: RuleDraft[]) => new Map(drafts.map((d) => [d.defaultKey, d]));

  it('every draft is valid for its input', () => {
    const drafts = defaultRules(config());
    expect(drafts.length).toBeGreaterThanOrEqual(9);
    expect(new Set(drafts.map((d) => d.defaultKey)).size).toBe(drafts.length);
    for (const d of drafts) {
      const input = inputOf(d.input);
      expect(input, d.input).toBeDefined();
      expect(windowProblem(d.window, input!.basis), d.defaultKey).toBeNull();
      expect(conditionProblem(d.condition), d.defaultKey).toBeNull();
      expect(d.cooldownMinutes).toBe(input!.basis === 'day' ? 1440 : 180);
    }
    expect(byKey(drafts).get('default:humidity')).toMatchObject({ input: 'humidity', window: 'PT3H', aggregation: 'avg', severity: 'info' });
    expect(byKey(drafts).get('default:temperature')!.condition).toEqual({ op: 'outside', range: [-2, 2] });
    expect(byKey(drafts).get('default:feed-left')!.condition).toEqual({ op: '<', value: 3 });
    expect(byKey(drafts).get('default:generator-drill')).toMatchObject({
      input: 'generatorDrillOverdueDays',
      window: 'P1D',
      condition: { op: '>', value: 0 },
      actions: ['raise_anomaly'],
    });
    // the key lists the job upgrades farms with
    expect(drafts.map((d) => d.defaultKey)).toEqual(DEFAULT_KEYS);
    expect(DEFAULT_KEYS.filter((k) => !FIRST_DEFAULT_KEYS.includes(k))).toEqual(['default:generator-drill']);
  });

  it('the thresholds come from the configuration', () => {
    const base = byKey(defaultRules(config()));
    expect(base.get('default:daily-mortality')!.condition).toEqual({ op: '>', value: 0.5 });
    expect(base.get('default:nh3')!.condition).toEqual({ op: '>', value: 20 });
    expect(base.get('default:water-drop')).toMatchObject({ window: 'P2D', aggregation: 'min' });
    const changed = byKey(
      defaultRules(
        config({
          thresholds: { dailyMortalityPct: 1, ammoniaMaxPpm: 25, co2MaxPpm: 2500, humidityMinPct: 40, waterFeedRatioMax: 2.2, waterLowIntakeDays: 3 },
          consumption: { lowIntakeTolerancePct: 20 },
        }),
      ),
    );
    expect(changed.get('default:daily-mortality')!.condition).toEqual({ op: '>', value: 1 });
    expect(changed.get('default:nh3')!.condition).toEqual({ op: '>', value: 25 });
    expect(changed.get('default:co2')!.condition).toEqual({ op: '>', value: 2500 });
    expect(changed.get('default:humidity')!.condition).toEqual({ op: 'outside', range: [40, 70] });
    expect(changed.get('default:water-feed-ratio')!.condition).toEqual({ op: 'outside', range: [1.6, 2.2] });
    expect(changed.get('default:water-drop')).toMatchObject({
      window: 'P3D',
      condition: { logic: { and: [{ '>': [{ var: 'value' }, 20] }, { '>=': [{ var: 'count' }, 3] }] } },
    });
  });

  it('the cumulative mortality default fires on the days the anomaly detector flags', () => {
    const c = cycleOf(broiler([day(b(1), { deaths: 6 }), day(b(2), { deaths: 10 }), day(b(3), { deaths: 5 })], b(3)));
    const rule = byKey(defaultRules(c.config)).get('default:cumulative-mortality')!;
    const run = evaluateRule({ ...rule, basis: 'day' }, dailyPoints(rule.input, c), { after: null, until: `${b(4)}T00:00:00.000Z`, lastFiredAt: null });
    const flagged = thresholdBreaches(c.inputs, c.config).filter((a) => a.metric === 'cumulativeMortality');
    expect(buckets(run.firings)).toEqual([b(2), b(3)]);
    expect(buckets(run.firings)).toEqual(flagged.map((a) => a.date));
  });
});

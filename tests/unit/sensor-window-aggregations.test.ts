import { describe, expect, it } from 'vitest';
import { addToBucket, type BucketStats } from '../../shared/domain/iot/rollups.js';
import { evaluateRule, type RuleSpec } from '../../shared/domain/rules/evaluation.js';
import { hourlyPoints } from '../../shared/domain/rules/hourly-points.js';
import type { RuleAggregation } from '../../schemas/vocabulary.js';

/**
 * Aggregations over a sensor window are figures of the readings themselves (from the hourly rollups'
 * count, sum, min and max), not of the hourly averages: max is the highest reading, min the lowest, sum
 * their sum and avg Σ sum ÷ Σ count.
 */

const H = (h: number) => `2026-03-04T${String(h).padStart(2, '0')}`;
const hourStart = (h: number) => Date.parse(`${H(h)}:00:00Z`);
const temperatures = (h: number, values: number[]): { hour: string; stats: BucketStats } => ({
  hour: H(h),
  stats: addToBucket(
    {},
    values.map((temperatureC, i) => ({ index: i, tsMs: hourStart(h) + i * 600_000, metrics: { temperatureC } })),
  ),
});
const spec = (aggregation: RuleAggregation, window = 'PT1H', input = 'temperatureC'): RuleSpec => ({
  window,
  aggregation,
  condition: { op: '>', value: 31 },
  cooldownMinutes: 0,
  basis: 'hour',
  input,
});
const run = (s: RuleSpec, hours: ReadonlyArray<{ hour: string; stats: BucketStats }>, flock: Parameters<typeof hourlyPoints>[2] = null) =>
  evaluateRule(s, hourlyPoints(s.input!, hours, flock), { after: null, until: '2026-03-05T00:00:00.000Z', lastFiredAt: null });

describe('aggregations over a sensor window', () => {
  it('max over 1 h judges the highest reading (31.2), not the hour’s mean (30.7)', () => {
    const hour = [temperatures(10, [30.2, 30.7, 31.2, 30.7])];
    const max = run(spec('max'), hour);
    expect(max.evaluations.map((e) => [e.outcome, e.value])).toEqual([['fired', 31.2]]);
    expect(max.firings[0]!.inputs).toMatchObject({ min: 30.2, max: 31.2, avg: 30.7 });
    // the mean stays below the threshold, so an avg rule does not fire
    expect(run(spec('avg'), hour).evaluations.map((e) => [e.outcome, e.value])).toEqual([['ok', 30.7]]);
    expect(run({ ...spec('min'), condition: { op: '<', value: 30.5 } }, hour).evaluations.map((e) => [e.outcome, e.value])).toEqual([['fired', 30.2]]);
  });

  it('over several hours: avg is Σ sum ÷ Σ count (an hour with more readings weighs more), sum the readings’ sum', () => {
    const hours = [temperatures(10, [30, 30, 30, 30]), temperatures(11, [34])];
    const at = (aggregation: RuleAggregation) => run(spec(aggregation, 'PT2H'), hours).evaluations.at(-1)!.value;
    expect(at('avg')).toBe(30.8); // 154 ÷ 5, not (30 + 34) ÷ 2
    expect(at('sum')).toBe(154);
    expect(at('max')).toBe(34);
    expect(at('min')).toBe(30);
    // last, change and slope follow the hours' averages
    expect(at('last')).toBe(34);
    expect(at('change')).toBe(4);
  });

  it('temperatureDeviation: the readings’ deviations from the hour’s target', () => {
    // a broiler at 7 days: target 30 °C; readings 30.5, 31, 33.5 → mean deviation +1.667, highest +3.5
    const hours = [temperatures(10, [30.5, 31, 33.5])];
    const flock = { birdType: 'broiler' as const, ageDaysAt: () => 7 };
    expect(run({ ...spec('max', 'PT1H', 'temperatureDeviation'), condition: { op: '>', value: 3 } }, hours, flock).firings.map((e) => e.value)).toEqual([3.5]);
    expect(run({ ...spec('avg', 'PT1H', 'temperatureDeviation'), condition: { op: '>', value: 3 } }, hours, flock).firings).toEqual([]);
  });
});

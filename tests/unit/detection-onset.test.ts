import { describe, expect, it } from 'vitest';
import { ANALYTICS_DEFAULTS } from '../../schemas/analytics-config.js';
import { repeatOf } from '../../shared/domain/anomalies/lifecycle.js';
import { standardFeedIntake } from '../../shared/domain/analytics/breed-standards.js';
import { emptyDay, type CycleInputs, type DayTotals } from '../../shared/domain/analytics/inputs.js';
import { dailySeries } from '../../shared/domain/analytics/kpis/daily.js';
import { ROSS_308 } from '../../shared/domain/analytics/standards/ross-308.js';
import { detectCycleDays } from '../../shared/domain/detection/daily.js';
import type { Detection } from '../../shared/domain/detection/engine.js';
import { ruleEventStart } from '../../shared/domain/detection/onset.js';
import { breachOf, evaluateRule, type RuleSpec } from '../../shared/domain/rules/evaluation.js';
import { dailyPoints } from '../../shared/domain/rules/daily-points.js';
import { defaultRules } from '../../shared/domain/rules/defaults.js';
import { domainCondition } from '../../shared/domain/rules/definitions.js';
import { rossBroilerCycle } from '../support/cycle-facts.js';

/**
 * When an anomaly's event began: one start for the detectors' episode (every detector, every day of it)
 * and for a rule's firing on the same change, on a water drop like a failing drinker line (water falling
 * 0, 5, 12, 20, 28, 32, 35 % below the expected intake over ages 20–26, feed on the Ross 308 objectives).
 */

const B0 = '2026-03-01';
const dateOf = (n: number) => new Date(Date.parse(B0) + n * 86_400_000).toISOString().slice(0, 10);
const DROP_FROM = 20;
const DROP = [0, 0.05, 0.12, 0.2, 0.28, 0.32, 0.35];
const LAST = DROP_FROM + DROP.length - 1;
const FIRST_DROP_DAY = dateOf(DROP_FROM + DROP.findIndex((d) => d > 0));
const dropOn = (n: number) => (n >= DROP_FROM ? DROP[n - DROP_FROM]! : 0);

function waterDropCycle() {
  const feedKg = (n: number) => standardFeedIntake(ROSS_308, n)!.grams; // 1000 birds: g per bird = kg for the flock
  const days: DayTotals[] = Array.from({ length: LAST + 1 }, (_, n) => ({
    ...emptyDay(dateOf(n)),
    placed: n === 0 ? 1000 : 0,
    feedConsumedKg: n === 0 ? 0 : feedKg(n),
    waterLiters: n === 0 ? 0 : feedKg(n) * 1.7 * (1 - dropOn(n)),
  }));
  const inputs: CycleInputs = { cycle: rossBroilerCycle(B0), days, weighings: [], asOf: dateOf(LAST) };
  const config = structuredClone(ANALYTICS_DEFAULTS);
  return { inputs, config, series: dailySeries(inputs, config) };
}

describe('the day a change began (Detection.startedOn)', () => {
  const { inputs, series } = waterDropCycle();
  const drop = detectCycleDays(inputs, series).filter((d) => d.metric === 'waterPctOfExpected' && d.direction === 'down');

  it('is the first day water fell, for every detector and every day of the episode, though none detects that day', () => {
    expect(drop.length).toBeGreaterThan(3);
    expect(new Set(drop.map((d) => d.detector))).toEqual(new Set(['robust_z', 'ewma', 'cusum']));
    expect([...new Set(drop.map((d) => d.startedOn))]).toEqual([FIRST_DROP_DAY]);
    // a 5 % dip alone is within what a detector lets pass: the first detection comes a day later
    expect(drop[0]!.bucket > FIRST_DROP_DAY).toBe(true);
  });

  it('a second change after a gap starts its own episode', () => {
    const later = series.map((d) => (d.date === dateOf(23) ? { ...d, waterPctOfExpected: { ...d.waterPctOfExpected, value: null } } : d));
    const found = detectCycleDays(inputs, later).filter((d) => d.metric === 'waterPctOfExpected' && d.direction === 'down');
    const after = found.filter((d) => d.bucket > dateOf(23));
    expect(found.filter((d) => d.bucket < dateOf(23)).every((d) => d.startedOn === FIRST_DROP_DAY)).toBe(true);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((d) => d.startedOn > dateOf(23))).toBe(true);
  });
});

describe('the day a rule’s firing says its event began', () => {
  const { inputs, config, series } = waterDropCycle();
  const draft = defaultRules(config).find((r) => r.defaultKey === 'default:water-drop')!;
  const spec: RuleSpec = {
    input: draft.input,
    window: draft.window,
    aggregation: draft.aggregation,
    condition: domainCondition(('logic' in draft.condition ? draft.condition.logic : draft.condition) as Record<string, unknown>),
    cooldownMinutes: draft.cooldownMinutes,
    basis: 'day',
  };
  const points = dailyPoints('waterDropPct', { inputs, config, series });
  const run = evaluateRule(spec, points, { after: null, until: `${dateOf(LAST + 1)}T00:00:00.000Z`, lastFiredAt: null });

  it('the breach: the days its condition held up to the firing, from the first one’s window', () => {
    const first = run.firings[0]!;
    // the default water-drop rule: both days of its P2D window more than 15 % below the baseline
    const breach = breachOf(spec, points, first);
    expect(breach.to).toBe(first.bucket);
    expect(breach.from).toBe(first.windowFrom.slice(0, 10));
    const later = run.firings.at(-1)!;
    expect(later.bucket > first.bucket).toBe(true);
    expect(breachOf(spec, points, later)).toEqual({ from: breach.from, to: later.bucket });
    // on the first drop day the rule saw nothing yet: its breach begins later than the change
    expect(breach.from > FIRST_DROP_DAY).toBe(true);
  });

  it('is the detectors’ start when they see the same change during the breach, so both anomalies name one day', () => {
    const detections = detectCycleDays(inputs, series);
    for (const firing of run.firings) {
      expect(ruleEventStart('waterDropPct', breachOf(spec, points, firing), detections)).toBe(FIRST_DROP_DAY);
    }
  });

  it('is the breach’s first day when the detectors do not see it (another metric or direction, other days, an input they do not judge)', () => {
    const breach = { from: dateOf(23), to: dateOf(24) };
    const d = (over: Partial<Detection>): Detection => ({
      metric: 'waterPctOfExpected',
      bucket: dateOf(24),
      detector: 'cusum',
      parameters: {},
      observed: 70,
      expected: 100,
      deviation: -30,
      score: -6,
      direction: 'down',
      severity: 'warning',
      window: { from: dateOf(10), to: dateOf(24) },
      startedOn: dateOf(21),
      evidence: {},
      message: 'm',
      ...over,
    });
    expect(ruleEventStart('waterDropPct', breach, [d({})])).toBe(dateOf(21));
    expect(ruleEventStart('waterDropPct', breach, [d({ direction: 'up' })])).toBe(dateOf(23));
    expect(ruleEventStart('waterDropPct', breach, [d({ metric: 'feedGramsPerBird' })])).toBe(dateOf(23));
    expect(ruleEventStart('waterDropPct', breach, [d({ bucket: dateOf(22) })])).toBe(dateOf(23));
    expect(ruleEventStart('fcr', breach, [d({})])).toBe(dateOf(23));
    expect(ruleEventStart('waterDropPct', breach, [])).toBe(dateOf(23));
  });
});

describe('a repeat firing of an open anomaly', () => {
  const current = {
    severity: 'warning' as const,
    occurrences: 1,
    firstSeenAt: '2026-03-24T00:00:00.000Z',
    lastSeenAt: '2026-03-24T00:00:00.000Z',
    judgedUntil: '2026-03-24T00:00:00.000Z',
  };
  const firing = { severity: 'warning' as const, title: 't', observed: 1, expected: 0, deviation: 1, window: {}, evidence: {}, hypotheses: [] };
  const at = { judgedUntil: '2026-03-25T00:00:00.000Z', seenAt: '2026-03-25T00:00:00.000Z' };

  it('keeps the day the event began: the earlier of the two, a known one over an unknown one', () => {
    expect(repeatOf({ ...current, startedOn: '2026-03-21' }, { ...firing, startedOn: '2026-03-22' }, at).startedOn).toBe('2026-03-21');
    expect(repeatOf({ ...current, startedOn: '2026-03-22' }, { ...firing, startedOn: '2026-03-21' }, at).startedOn).toBe('2026-03-21');
    expect(repeatOf({ ...current, startedOn: null }, { ...firing, startedOn: '2026-03-21' }, at).startedOn).toBe('2026-03-21');
    expect(repeatOf({ ...current, startedOn: '2026-03-21' }, { ...firing, startedOn: null }, at).startedOn).toBe('2026-03-21');
  });
});

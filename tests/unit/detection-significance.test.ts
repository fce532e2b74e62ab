/**
 * A detection opens an anomaly only when it is both statistically and practically significant: the
 * robust z, EWMA and CUSUM say a day is unusual for the flock, the practical threshold of the bird type
 * (`thresholds.significance` of the analytics configuration) says whether it matters. A laying flock of
 * 27,700 Hy-Line Brown hens losing 1–3 hens a day, then 7: statistically unusual, practically nothing.
 */
import { describe, expect, it } from 'vitest';
import { ANALYTICS_DEFAULTS, type SignificanceConfig } from '../../schemas/analytics-config.js';
import { completeSection } from '../../shared/domain/analytics/config.js';
import { emptyDay, type CycleInputs, type DayTotals } from '../../shared/domain/analytics/inputs.js';
import { dailySeries } from '../../shared/domain/analytics/kpis/daily.js';
import { detectCycleDays, detectDaily } from '../../shared/domain/detection/daily.js';
import type { Detection } from '../../shared/domain/detection/engine.js';
import { practicallySignificant } from '../../shared/domain/detection/significance.js';
import { rossBroilerCycle } from '../support/cycle-facts.js';

const HATCH = '2025-06-02';
const START = '2025-10-01'; // the hens arrived at 17 weeks; the days judged are at about 30 weeks
const dateOf = (n: number) => new Date(Date.parse(START) + n * 86_400_000).toISOString().slice(0, 10);
const HENS = 27_700;
const BASE_DEATHS = [2, 1, 3, 2, 2, 1, 2, 3, 2, 1, 2, 2, 3, 2];

/** 27,700 hens placed on day 0, 1–3 deaths a day, then `lastDeaths` on the last day (day 30). */
function layerFlock(lastDeaths: number): CycleInputs {
  const days: DayTotals[] = Array.from({ length: 31 }, (_, n) => ({
    ...emptyDay(dateOf(n)),
    placed: n === 0 ? HENS : 0,
    deaths: n === 0 ? 0 : n === 30 ? lastDeaths : BASE_DEATHS[n % BASE_DEATHS.length]!,
  }));
  return {
    cycle: rossBroilerCycle(START, { birdType: 'layer', breed: 'Hy-Line Brown', hatchDate: HATCH }),
    days,
    weighings: [],
    asOf: dateOf(30),
  };
}

const config = () => structuredClone(ANALYTICS_DEFAULTS);
const mortalityOn = (found: readonly Detection[], day: string) => found.filter((d) => d.metric === 'dailyMortalityPct' && d.bucket === day);

describe('practical significance of the detectors', () => {
  it('7 dead hens of 27,700 (0.03 %): the statistics flag the day, the layers’ 0.05 % says it opens nothing', () => {
    const inputs = layerFlock(7);
    const series = dailySeries(inputs, config());
    // the statistical detectors alone call it unusual (what opened critical anomalies before)
    expect(mortalityOn(detectDaily(series), dateOf(30)).length).toBeGreaterThan(0);
    expect(mortalityOn(detectCycleDays(inputs, series, config().thresholds.significance), dateOf(30))).toEqual([]);
    // the defaults apply when no configuration is given
    expect(mortalityOn(detectCycleDays(inputs, series), dateOf(30))).toEqual([]);
  });

  it('0.2 % (55 hens) opens, critical: both the statistics and the practical band (2 × 0.05 %) say so', () => {
    const inputs = layerFlock(55);
    const found = mortalityOn(detectCycleDays(inputs, dailySeries(inputs, config()), config().thresholds.significance), dateOf(30));
    const z = found.find((d) => d.detector === 'robust_z')!;
    expect(z).toMatchObject({ direction: 'up', severity: 'critical', parameters: { practicalThreshold: 0.05, criticalFactor: 2 } });
    expect(z.evidence).toMatchObject({
      practicalThreshold: 0.05,
      practicalUnit: '%',
      practical: 'daily mortality above 0.05 % for layers (critical from 0.1 %)',
    });
    expect(z.observed).toBeCloseTo(0.2, 2);
  });

  it('between the practical threshold and its critical band, a statistically critical day is a warning', () => {
    // 20 hens (0.072 %): above 0.05 %, below 0.1 %
    const inputs = layerFlock(20);
    const series = dailySeries(inputs, config());
    expect(mortalityOn(detectDaily(series), dateOf(30)).some((d) => d.severity === 'critical')).toBe(true);
    const found = mortalityOn(detectCycleDays(inputs, series), dateOf(30));
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((d) => d.severity === 'warning')).toBe(true);
  });

  it('a change of the practical threshold in the configuration takes effect', () => {
    const inputs = layerFlock(7);
    const c = config();
    const series = dailySeries(inputs, c);
    // the farm wants to hear of 0.02 %: a request naming one field of one bird type, the others keep their defaults
    const thresholds = completeSection('thresholds', { significance: { layer: { dailyMortalityPct: 0.02 } } } as never);
    expect(thresholds.significance.layer).toEqual({ ...ANALYTICS_DEFAULTS.thresholds.significance.layer, dailyMortalityPct: 0.02 });
    expect(thresholds.significance.broiler).toEqual(ANALYTICS_DEFAULTS.thresholds.significance.broiler);
    expect(mortalityOn(detectCycleDays(inputs, series, thresholds.significance), dateOf(30)).length).toBeGreaterThan(0);
    // the broilers' threshold does not move the layers'
    const broilerOnly = completeSection('thresholds', { significance: { broiler: { dailyMortalityPct: 0.01 } } } as never);
    expect(mortalityOn(detectCycleDays(inputs, series, broilerOnly.significance), dateOf(30))).toEqual([]);
  });

  it('water, feed and weight: a change smaller than its practical threshold opens nothing, a larger one keeps its detection', () => {
    const significance: SignificanceConfig = config().thresholds.significance;
    const d = (metric: string, observed: number, expected: number, severity: 'warning' | 'critical' = 'critical'): Detection => ({
      metric,
      bucket: '2026-03-10',
      detector: 'robust_z',
      parameters: { threshold: 3.5 },
      observed,
      expected,
      deviation: observed - expected,
      score: observed > expected ? 8 : -8,
      direction: observed > expected ? 'up' : 'down',
      severity,
      window: { from: '2026-02-24', to: '2026-03-10' },
      startedOn: '2026-03-10',
      evidence: {},
      message: 'm',
    });
    const kept = (ds: Detection[]) => practicallySignificant(ds, 'broiler', significance).map((x) => [x.metric, x.observed, x.severity]);
    expect(
      kept([
        d('waterPctOfExpected', 95, 100), // 5 %: below 10 %
        d('waterPctOfExpected', 85, 100), // 15 %: a warning (critical from 20 %)
        d('waterPctOfExpected', 70, 100), // 30 %: critical
        d('feedGramsPerBird', 108, 100), // 8 %
        d('feedGramsPerBird', 112, 100),
        d('bodyWeightVsStandard', 1960, 2000), // 2 %
        d('bodyWeightVsStandard', 1800, 2000), // 10 %: at the critical band of 2 × 5 %
      ]),
    ).toEqual([
      ['waterPctOfExpected', 85, 'warning'],
      ['waterPctOfExpected', 70, 'critical'],
      ['feedGramsPerBird', 112, 'warning'],
      ['bodyWeightVsStandard', 1800, 'critical'],
    ]);
    // a metric without a practical threshold (a sensor hour) passes unchanged
    expect(practicallySignificant([d('temperatureC', 31, 25)], 'broiler', significance)).toEqual([d('temperatureC', 31, 25)]);
  });
});

import { standardFeedIntake } from '../../shared/domain/analytics/breed-standards.js';
import { ROSS_308 } from '../../shared/domain/analytics/standards/ross-308.js';
import { describe, expect, it } from 'vitest';
import { ANALYTICS_DEFAULTS } from '../../schemas/analytics-config.js';
import { emptyDay, type CycleInputs, type DayTotals } from '../../shared/domain/analytics/inputs.js';
import { dailySeries } from '../../shared/domain/analytics/kpis/daily.js';
import type { DailyKpis } from '../../shared/domain/analytics/kpis/types.js';
import { cusum, ewma, robustScale, robustZ } from '../../shared/domain/detection/detectors.js';
import { detectDaily } from '../../shared/domain/detection/daily.js';
import type { Detection } from '../../shared/domain/detection/engine.js';
import { episodes } from '../../shared/domain/detection/episodes.js';
import { detectHourly } from '../../shared/domain/detection/hourly.js';
import { rankHypotheses, type Signals } from '../../shared/domain/diagnosis/hypotheses.js';
import { rossBroilerCycle } from '../support/cycle-facts.js';

/**
 * The detectors on hand-computed arrays, the detections on a hand-built broiler cycle (built from
 * CycleInputs through the real dailySeries, as the threshold anomaly tests do), episodes, and the
 * ranking of cause hypotheses on the patterns of the farm guides.
 */

/** A fixed in-control noise pattern in σ (all within ±1 σ, mean ≈ 0): deterministic "random" data. */
const NOISE = [0.3, -0.6, 0.9, -0.2, -0.8, 0.5, 0.1, -0.4, 0.7, -0.9, 0.2, 0.6, -0.3, -0.1, 0.8, -0.7, 0.4, -0.5, 0, 0.3];

describe('robustZ (Iglewicz & Hoaglin)', () => {
  it('scores a value against the median and MAD of the history', () => {
    // history sorted: 9 10 11 11 12 12 13 → median 11
    // |x − 11|: 1 1 0 2 2 0 1 → sorted 0 0 1 1 1 2 2 → MAD 1
    // x = 20: M = 0.6745 × (20 − 11) ÷ 1 = 6.0705 > 3.5 → flagged
    const history = [10, 12, 11, 13, 9, 11, 12];
    const z = robustZ(history, 20)!;
    expect(z.median).toBe(11);
    expect(z.mad).toBe(1);
    expect(z.score).toBeCloseTo(6.0705, 10);
    expect(z.flagged).toBe(true);
    // x = 13: M = 0.6745 × 2 = 1.349, not flagged; x = 6: 0.6745 × −5 = −3.3725, not flagged at 3.5, flagged at 3
    expect(robustZ(history, 13)!.flagged).toBe(false);
    expect(robustZ(history, 6)!.score).toBeCloseTo(-3.3725, 10);
    expect(robustZ(history, 6)!.flagged).toBe(false);
    expect(robustZ(history, 6, 3)!.flagged).toBe(true);
  });

  it('falls back to 1.253314 × the mean absolute deviation when the MAD is 0, and gives no score when all are equal', () => {
    // [5 5 5 5 6]: median 5, |dev| 0 0 0 0 1 → MAD 0; mean absolute deviation 1 ÷ 5 = 0.2
    // x = 6: (6 − 5) ÷ (1.253314 × 0.2) = 3.98942 > 3.5
    const z = robustZ([5, 5, 5, 5, 6], 6)!;
    expect(z.mad).toBe(0);
    expect(z.score).toBeCloseTo(1 / (1.253314 * 0.2), 10);
    expect(z.flagged).toBe(true);
    expect(robustScale([5, 5, 5, 5, 6])!.method).toBe('mean_abs_dev');
    expect(robustZ([7, 7, 7, 7], 9)).toBeNull();
    expect(robustZ([], 9)).toBeNull();
  });
});

describe('EWMA (Roberts 1959, Montgomery limits)', () => {
  const mu0 = 50;
  const sigma = 2;
  const noise = NOISE.map((n) => mu0 + n * sigma);

  it('stays in control on noise, with the exact time-varying limits', () => {
    const pts = ewma(noise, { mu0, sigma });
    expect(pts.some((p) => p.out)).toBe(false);
    // t = 1: 3 × 2 × √(0.2 ÷ 1.8 × (1 − 0.8²)) = 6 × √0.04 = 1.2
    expect(pts[0]!.upper).toBeCloseTo(51.2, 10);
    expect(pts[0]!.lower).toBeCloseTo(48.8, 10);
    // z_1 = 0.2 × 50.6 + 0.8 × 50 = 50.12
    expect(pts[0]!.z).toBeCloseTo(50.12, 10);
    // steady state: 6 × √(0.2 ÷ 1.8) = 2
    expect(pts.at(-1)!.upper).toBeCloseTo(52, 2);
  });

  it('goes out within a few points of a +2 σ step', () => {
    // after the step z approaches μ₀ + 2σ as 2σ (1 − 0.8^n): past the 1 σ steady limit by n = 4
    const stepped = [...noise, ...Array.from({ length: 8 }, (_, i) => mu0 + 2 * sigma + NOISE[i]! * sigma * 0.5)];
    const first = ewma(stepped, { mu0, sigma }).find((p) => p.out)!;
    expect(first.index).toBeGreaterThanOrEqual(noise.length);
    expect(first.index).toBeLessThanOrEqual(noise.length + 4);
    expect(first.z).toBeGreaterThan(first.upper);
  });

  it('refuses a σ of 0 or λ outside (0, 1]', () => {
    expect(() => ewma([1], { mu0: 0, sigma: 0 })).toThrow(RangeError);
    expect(() => ewma([1], { mu0: 0, sigma: 1, lambda: 1.5 })).toThrow(RangeError);
  });
});

describe('CUSUM (Page 1954, tabular)', () => {
  const mu0 = 100;
  const sigma = 2;

  it('does not alarm on in-control data', () => {
    const pts = cusum(
      NOISE.map((n) => mu0 + n * sigma),
      { mu0, sigma },
    );
    expect(pts.every((p) => p.alarm === null)).toBe(true);
  });

  it('alarms on a sustained +1 σ shift after 11 points, and on −1 σ downwards', () => {
    // k = 0.5 σ = 1, h = 5 σ = 10; each point at μ₀ + σ = 102 adds 102 − 100 − 1 = 1 to S⁺:
    // S⁺ = 10 after 10 points (not > 10), 11 after 11 → first alarm at index 10 (Montgomery: ARL ≈ 10.4 for 1 σ)
    const up = cusum(Array(15).fill(102), { mu0, sigma });
    expect(up.findIndex((p) => p.alarm === 'up')).toBe(10);
    expect(up[9]!.high).toBe(10);
    expect(up[10]).toEqual({ index: 10, high: 11, low: 0, alarm: 'up' });
    const down = cusum(Array(15).fill(98), { mu0, sigma });
    expect(down.findIndex((p) => p.alarm === 'down')).toBe(10);
  });

  it('picks up a slow drift (0.1 σ more each point) once the sum passes h', () => {
    // x_t = μ₀ + 0.1 σ t: S⁺ grows by 0.1σ·t − 0.5σ from t = 6 on; Σ_{t=6..n}(0.1 t − 0.5) > 5 first at n = 15
    const drift = Array.from({ length: 20 }, (_, i) => mu0 + 0.1 * sigma * (i + 1));
    expect(cusum(drift, { mu0, sigma }).findIndex((p) => p.alarm === 'up')).toBe(14);
  });
});

// ---------------------------------------------------------------------------------------------------
// A broiler cycle: 1000 birds placed 2026-03-01 (age 0), water close to the expected intake (the Ross 308
// daily feed intake × 1.7 l/kg) with ±2.5 % noise, feed growing with age with noise, a death every 5th day; from day 20 water falls to 70 %.

const B0 = '2026-03-01';
/** 1000 birds drinking 1.7 l per kg of the Ross 308 daily feed intake (the default expected water). */
const rossWaterLiters = (n: number) => standardFeedIntake(ROSS_308, n)!.grams * 1.7;
const dateOf = (n: number) => new Date(Date.parse(B0) + n * 86_400_000).toISOString().slice(0, 10);
const WATER_NOISE = [0, 0.02, -0.015, 0.01, -0.02, 0.015, -0.005, 0.025, -0.01, 0.005, -0.025, 0.02, -0.01, 0.01];

function broilerCycle(
  days: number,
  waterDropFrom: number | null,
  opts: { feedFactor?: (n: number) => number; deaths?: (n: number) => number } = {},
): DailyKpis[] {
  const { feedFactor = () => 1, deaths = (n: number) => (n % 5 === 0 ? 1 : 0) } = opts;
  const ledger: DayTotals[] = Array.from({ length: days + 1 }, (_, n) => ({
    ...emptyDay(dateOf(n)),
    placed: n === 0 ? 1000 : 0,
    deaths: n > 0 ? deaths(n) : 0,
    waterLiters: n === 0 ? 0 : rossWaterLiters(n) * (1 + WATER_NOISE[n % 14]!) * (waterDropFrom !== null && n >= waterDropFrom ? 0.7 : 1),
    feedConsumedKg: n === 0 ? 0 : (12 + 4.5 * n) * (1 + WATER_NOISE[(n + 5) % 14]!) * feedFactor(n),
  }));
  const inputs: CycleInputs = {
    cycle: rossBroilerCycle(B0),
    days: ledger,
    weighings: [],
    asOf: dateOf(days),
  };
  return dailySeries(inputs, structuredClone(ANALYTICS_DEFAULTS));
}

describe('detectDaily', () => {
  const series = broilerCycle(30, 20);
  const found = detectDaily(series);

  it('flags the water drop on day 20 or 21, downwards, and nothing before', () => {
    const water = found.filter((d) => d.metric === 'waterPctOfExpected');
    expect(water.filter((d) => d.bucket < dateOf(20))).toEqual([]);
    const first = water[0]!;
    expect([dateOf(20), dateOf(21)]).toContain(first.bucket);
    expect(first.direction).toBe('down');
    expect(first.detector).toBe('robust_z');
    expect(first.severity).toBe('critical'); // about 30 points below a baseline spread of ~2 points: |z| > 7
    expect(first.observed).toBeLessThan(75);
    expect(first.expected).toBeGreaterThan(95);
    expect(first.deviation).toBeCloseTo(first.observed - first.expected, 1);
    expect(first.window).toEqual({ from: dateOf(6), to: dateOf(20) });
    expect(first.parameters).toMatchObject({ threshold: 3.5, baselineDays: 14, minBaselinePoints: 7 });
    expect(first.evidence).toMatchObject({ ageDays: 20, baselinePoints: 14 });
    expect(first.message).toMatch(
      /^Water intake on 2026-03-21 was .* far below the usual .* for the age \(robust z -\d+(\.\d)?\): check the drinker lines before blaming disease\.$/,
    );
    // EWMA and CUSUM see the same step
    expect(water.filter((d) => d.bucket === dateOf(20)).map((d) => d.detector)).toEqual(['robust_z', 'ewma', 'cusum']);
  });

  it('raises no alarm at all on the cycle without the drop', () => {
    expect(detectDaily(broilerCycle(30, null))).toEqual([]);
  });

  it('is deterministic, whatever the order of the rows', () => {
    expect(detectDaily(series)).toEqual(found);
    expect(detectDaily([...series].reverse())).toEqual(found);
  });

  it('lists detections by bucket, then metric, then detector', () => {
    const keys = found.map((d) => `${d.bucket} ${d.metric} ${['robust_z', 'ewma', 'cusum'].indexOf(d.detector)}`);
    expect(keys).toEqual([...keys].sort());
  });

  it('judges feed against the flock’s own growth line: a 15 % dip on days 25–27 is down, the growth itself is not', () => {
    const feed = detectDaily(broilerCycle(30, null, { feedFactor: (n) => (n >= 25 && n <= 27 ? 0.85 : 1) })).filter((d) => d.metric === 'feedGramsPerBird');
    expect(feed.filter((d) => d.bucket < dateOf(25))).toEqual([]);
    const first = feed.find((d) => d.detector === 'robust_z')!;
    expect([first.bucket, first.direction]).toEqual([dateOf(25), 'down']);
    // the line through days 11–24 extrapolated to day 25: about 12 + 4.5 × 25 = 124.5 g per bird
    expect(first.expected).toBeGreaterThan(115);
    expect(first.expected).toBeLessThan(135);
    expect(first.evidence).toMatchObject({ residualUnit: '% of the flock’s growth line' });
    expect(typeof first.evidence.trendSlope).toBe('number');
  });

  it('reports mortality upwards only, with one bird as the smallest σ', () => {
    const spike = detectDaily(broilerCycle(30, null, { deaths: (n) => (n === 24 ? 8 : n % 5 === 0 ? 1 : 0) })).filter((d) => d.metric === 'dailyMortalityPct');
    expect(spike.map((d) => [d.bucket, d.detector, d.direction])).toContainEqual([dateOf(24), 'robust_z', 'up']);
    // 1000 placed, one death on days 5, 10, 15 and 20 → 996 present; σ floor 100 ÷ 996 ≈ 0.1 %
    expect(spike.find((d) => d.detector === 'robust_z')!.evidence).toMatchObject({ deaths: 8, birdsPresent: 996 });
    // a steady 3 deaths a day with no deaths at all on day 24: not an anomaly
    const none = detectDaily(broilerCycle(30, null, { deaths: (n) => (n === 24 ? 0 : 3) })).filter((d) => d.metric === 'dailyMortalityPct');
    expect(none).toEqual([]);
  });

  it('stops alarming once the baseline has absorbed the drop (charts restart after each signal)', () => {
    const water = found.filter((d) => d.metric === 'waterPctOfExpected');
    expect(water.filter((d) => d.bucket > dateOf(27))).toEqual([]);
    const cusumNext = water.find((d) => d.detector === 'cusum' && d.bucket === dateOf(21))!;
    expect(cusumNext.evidence.cusumSince).toBe(dateOf(21));
  });

  it('has no baseline before 7 days with a value', () => {
    expect(detectDaily(broilerCycle(7, 5))).toEqual([]);
  });

  it('compares body weight with the breed standard on weighing days when a standard is given', () => {
    const rows = series.map((r, n): DailyKpis => {
      const std = 42 + 20 * n + n * n;
      const grams = Math.round(std * (n === 25 ? 0.85 : 1 + WATER_NOISE[n % 14]! / 2));
      return { ...r, bodyWeight: { value: grams, unit: 'g', date: r.date, source: 'weighing' } };
    });
    const weight = detectDaily(rows, { standardWeightGrams: (age) => 42 + 20 * age + age * age }).filter((d) => d.metric === 'bodyWeightVsStandard');
    expect(weight.map((d) => [d.bucket, d.detector, d.direction])[0]).toEqual([dateOf(25), 'robust_z', 'down']);
  });
});

describe('detectHourly', () => {
  // 10 days of house temperature with a daily rhythm (±1 °C) and a setpoint falling 0.3 °C a day
  const hour = (h: number) => new Date(Date.parse('2026-03-01T00:00:00Z') + h * 3_600_000).toISOString().slice(0, 13);
  const points = Array.from({ length: 240 }, (_, h) => ({
    bucket: hour(h),
    value: Math.round((30 - 0.3 * Math.floor(h / 24) + Math.sin((2 * Math.PI * (h % 24)) / 24) + NOISE[h % NOISE.length]! * 0.2) * 10) / 10,
  }));

  it('follows the daily rhythm and the age trend: no alarm on a normal house', () => {
    expect(detectHourly('temperatureC', points)).toEqual([]);
  });

  it('flags an hour far off the same hour of the previous days', () => {
    const spiked = points.map((p, h) => (h === 200 ? { ...p, value: p.value + 5 } : p));
    const found = detectHourly('temperatureC', spiked).filter((d) => d.detector === 'robust_z');
    expect(found.map((d) => [d.bucket, d.direction])).toEqual([[hour(200), 'up']]);
    expect(found[0]!.parameters.baselineHours).toBe(168);
    expect(found[0]!.message).toContain('at 2026-03-09 08:00');
  });

  it('treats null values as gaps and refuses a malformed bucket', () => {
    expect(detectHourly('temperatureC', [{ bucket: hour(0), value: null }])).toEqual([]);
    expect(() => detectHourly('temperatureC', [{ bucket: '2026-03-01 00', value: 1 }])).toThrow(RangeError);
  });
});

describe('episodes', () => {
  const det = (bucket: string, score: number, extra: Partial<Detection> = {}): Detection => ({
    metric: 'waterPctOfExpected',
    bucket,
    detector: 'robust_z',
    parameters: { threshold: 3.5 },
    observed: 70,
    expected: 100,
    deviation: -30,
    score,
    direction: 'down',
    severity: 'critical',
    window: { from: `${bucket.slice(0, 8)}01`, to: bucket },
    startedOn: bucket,
    evidence: {},
    message: 'm',
    ...extra,
  });

  it('collapses a 3-day run into one, keeping the latest with since and buckets', () => {
    const run = [det('2026-03-21', -12), det('2026-03-22', -15), det('2026-03-23', -9), det('2026-03-25', -5)];
    const eps = episodes([...run].reverse());
    expect(eps.map((e) => [e.bucket, e.evidence.since, e.evidence.buckets, e.evidence.peakScore])).toEqual([
      ['2026-03-23', '2026-03-21', 3, -15],
      ['2026-03-25', '2026-03-25', 1, -5],
    ]);
    expect(eps[0]!.score).toBe(-9);
  });

  it('keeps metrics, detectors and directions apart', () => {
    const eps = episodes([det('2026-03-21', -5), det('2026-03-22', -5, { detector: 'cusum' }), det('2026-03-22', 5, { direction: 'up' })]);
    expect(eps.map((e) => [e.bucket, e.detector, e.direction, e.evidence.buckets])).toEqual([
      ['2026-03-21', 'robust_z', 'down', 1],
      ['2026-03-22', 'robust_z', 'up', 1],
      ['2026-03-22', 'cusum', 'down', 1],
    ]);
  });

  it('joins consecutive hours, and the water drop of the broiler cycle is one episode per detector', () => {
    const hours = episodes([det('2026-03-21T23', -5), det('2026-03-22T00', -6)]);
    expect(hours.map((e) => [e.bucket, e.evidence.since, e.evidence.buckets])).toEqual([['2026-03-22T00', '2026-03-21T23', 2]]);
    const water = episodes(detectDaily(broilerCycle(30, 20))).filter((d) => d.metric === 'waterPctOfExpected');
    expect(water.filter((d) => d.detector === 'robust_z' && d.direction === 'down')).toHaveLength(1);
    expect(water.find((d) => d.detector === 'robust_z')!.evidence.since).toBe(dateOf(20));
  });
});

describe('rankHypotheses', () => {
  const base: Signals = { metric: 'waterDropPct', houseName: 'House 2', mortalityBaselinePct: 0.1 };

  it('water down, feed normal, mortality normal: a drinker line fault before disease', () => {
    const h = rankHypotheses({ ...base, waterChangePct: -25, feedChangePct: -2, mortalityPct: 0.1 });
    expect(h[0]!.cause).toBe('Drinker line or nipple fault');
    expect(h[0]!.check).toContain('Check the line pressure and the nipples in house 2');
    expect(h[0]!.supporting).toContainEqual(expect.stringContaining('water intake down 25 %'));
    const disease = h.find((x) => x.cause === 'Disease')!;
    expect(disease.contradicting).toContainEqual(expect.stringContaining('feed intake is normal'));
    expect(disease.score).toBeLessThan(h[0]!.score);
    expect(h.every((x) => x.score > 0 && x.score <= 1)).toBe(true);
  });

  it('water and feed down with mortality three times the baseline: disease', () => {
    const h = rankHypotheses({ ...base, waterChangePct: -20, feedChangePct: -18, mortalityPct: 0.3 });
    expect(h[0]!.cause).toBe('Disease');
    expect(h[0]!.score).toBe(1);
    expect(h[0]!.supporting).toContainEqual(expect.stringContaining('3 times'));
    const drinker = h.find((x) => x.cause === 'Drinker line or nipple fault');
    expect(drinker?.contradicting).toContainEqual(expect.stringContaining('feed intake down 18 %'));
  });

  it('mortality up in a house 4 °C too hot: heat stress', () => {
    const h = rankHypotheses({ ...base, metric: 'dailyMortalityPct', mortalityPct: 0.6, temperatureDeviationC: 4 });
    expect(h.map((x) => x.cause).slice(0, 2)).toEqual(['Heat stress', 'Disease']);
    expect(h[1]!.contradicting).toContainEqual(expect.stringContaining('4 °C above the target'));
  });

  it('ammonia and humidity high: ventilation or wet litter', () => {
    const h = rankHypotheses({ metric: 'nh3Ppm', houseName: 'North', nh3Ppm: 30, humidityPct: 80 });
    expect(h[0]!.cause).toBe('Ventilation or wet litter');
    expect(h[0]!.check).toContain('in North');
    expect(h[0]!.supporting).toEqual(['ammonia 30 ppm, above 20 ppm', 'humidity 80 %, above 70 %']);
  });

  it('a flat-lining sensor: sensor fault first and the bird causes drop', () => {
    const signals = { ...base, waterChangePct: -25, feedChangePct: -2, mortalityPct: 0.1 };
    const before = rankHypotheses(signals);
    const after = rankHypotheses({ ...signals, sensorFlatline: true });
    expect(after[0]!.cause).toBe('Sensor fault');
    expect(after[0]!.check).toBe(
      'Check the water meter in house 2: power, cable or battery and calibration, and compare it with a hand-held reading before acting on it.',
    );
    const drinkerBefore = before.find((x) => x.cause === 'Drinker line or nipple fault')!;
    const drinkerAfter = after.find((x) => x.cause === 'Drinker line or nipple fault')!;
    expect(drinkerAfter.score).toBeLessThan(drinkerBefore.score);
    expect(drinkerAfter.score).toBeLessThan(after[0]!.score);
    expect(drinkerAfter.contradicting).toContain('the water meter has reported the same value for hours');
  });

  it('the mechanical causes: silo, heater, fans', () => {
    expect(rankHypotheses({ metric: 'siloKg', siloFlat: true, waterChangePct: 1 })[0]!.cause).toBe('Empty silo or bridged feed line');
    expect(rankHypotheses({ metric: 'temperatureC', temperatureDeviationC: -4 })[0]!.cause).toBe('Heater fault');
    expect(rankHypotheses({ metric: 'staticPressurePa', staticPressureChangePct: 30 })[0]!.cause).toBe('Dirty fans, shutters or slipping belts');
    expect(rankHypotheses({ metric: 'temperatureC', houseName: null, temperatureDeviationC: -4 })[0]!.check).toContain('in the house');
  });

  it('nothing known, nothing ranked; the same signals rank the same way', () => {
    expect(rankHypotheses({ metric: 'x' })).toEqual([]);
    const s: Signals = { ...base, waterChangePct: -12, feedChangePct: -12, mortalityPct: 0.1, temperatureDeviationC: 3, nh3Ppm: 25 };
    const h = rankHypotheses(s);
    expect(rankHypotheses(s)).toEqual(h);
    for (let i = 1; i < h.length; i++) expect(h[i - 1]!.score).toBeGreaterThanOrEqual(h[i]!.score);
  });
});

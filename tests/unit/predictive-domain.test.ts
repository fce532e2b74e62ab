/**
 * The predictive models (shared/domain/predictive), pure, on hand-built data: every expected number is
 * worked out in the comment next to it. Plus, at compile time, the answers of the predictive use cases
 * against their documented schemas.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { ANALYTICS_DEFAULTS } from '../../schemas/analytics-config.js';
import type * as P from '../../schemas/predictive.js';
import { standardWeightGrams } from '../../shared/domain/analytics/breed-standards.js';
import { ROSS_308 } from '../../shared/domain/analytics/standards/ross-308.js';
import type { ThresholdBreach } from '../../shared/domain/analytics/threshold-breaches.js';
import { emptyDay, type CycleInputs, type DayTotals, type WeighingPoint } from '../../shared/domain/analytics/inputs.js';
import { predictions } from '../../shared/domain/analytics/predictions.js';
import { predictWeight } from '../../shared/domain/analytics/weight-prediction.js';
import type { BucketStats } from '../../shared/domain/iot/rollups.js';
import { forecastAccuracy } from '../../shared/domain/predictive/accuracy.js';
import { deviceFailureRisks, riskWindow, type DeviceInfo, type DeviceSeries } from '../../shared/domain/predictive/devices.js';
import { farmStockRunOut, flockRunOut, runOutOf, trailingConsumption } from '../../shared/domain/predictive/feed.js';
import { bandPct, flockForecast } from '../../shared/domain/predictive/forecast.js';
import { healthRisk } from '../../shared/domain/predictive/health.js';
import { combinedScore, PREDICTIVE_MODEL_VERSION, riskLevel } from '../../shared/domain/predictive/model.js';
import type { ForecastHistory } from '../../shared/domain/predictive/records.js';
import type * as S from '../../shared/services/predictive/reads.js';
import type * as R from '../../shared/services/predictive/runs.js';

// ---------------------------------------------------------------------------------------------------
// Compile-time: what the services answer is what the schemas document.

type Deep<T> = T extends readonly (infer U)[] ? Deep<U>[] : T extends object ? { [K in keyof T]: Deep<T[K]> } : T;
type Equals<X, Y> = (<T>() => T extends Deep<X> ? 1 : 2) extends <T>() => T extends Deep<Y> ? 1 : 2 ? true : false;
type Assert<T extends true> = T;
type DataOf<Sc extends TSchema> = Static<Sc> extends { data: infer D } ? D : never;
type Returned<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
type Checks = [
  Assert<Equals<DataOf<typeof P.FlockForecastResponse>, Returned<typeof S.flockForecastFor>>>,
  Assert<Equals<DataOf<typeof P.FarmForecastResponse>, Returned<typeof S.farmForecastFor>>>,
  Assert<Equals<DataOf<typeof P.DeviceRisksResponse>, Returned<typeof S.deviceRisksFor>>>,
  Assert<Equals<DataOf<typeof P.PredictiveRunResponse>, Returned<typeof R.runForecasts>>>,
  Assert<Equals<DataOf<typeof P.AccuracyResponse>, Returned<typeof S.forecastAccuracyFor>>>,
  Assert<Equals<Static<typeof P.PredictiveRunDto>[], Returned<typeof S.listRunsFor>['items']>>,
];

// ---------------------------------------------------------------------------------------------------
// Hand-built cycles

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
const START = '2026-03-01';
const at = (n: number) => dateOf(START, n);
const ross = (n: number) => standardWeightGrams(ROSS_308, n)!.grams;

function broiler(weighings: WeighingPoint[], days: DayTotals[], asOfAge: number, over: Partial<CycleInputs['cycle']> = {}): CycleInputs {
  return {
    cycle: {
      cycleId: 'cycle-1',
      flockId: 'flock-1',
      birdType: 'broiler',
      breed: 'Ross 308',
      hatchDate: START,
      startDate: START,
      endDate: null,
      status: 'active',
      targetAgeDays: 35,
      targetWeightGrams: null,
      houseAreaM2: null,
      ...over,
    },
    days,
    weighings,
    asOf: at(asOfAge),
  };
}

const forecastOf = (inputs: CycleInputs, supply: Parameters<typeof flockForecast>[0]['supply'] = null) =>
  flockForecast({
    flock: { id: 'flock-1', name: 'Flock 1', farmId: 'farm-1', houseId: null },
    inputs,
    config: config(),
    configVersion: 0,
    computedAt: `${inputs.asOf}T06:00:00.000Z`,
    supply,
  });

describe('flock forecast: one engine with the Analytics V2 predictions', () => {
  // Weighed on the Ross 308 curve with a little noise up to day 21 (213 → 210, 533 → 540, 1,012 → 1,000).
  const inputs = broiler(
    [weighing(at(7), 210), weighing(at(14), 540), weighing(at(21), 1000)],
    [day(at(0), { placed: 1000 }), day(at(20), { feedConsumedKg: 1100, feedConsumedKgByType: { starter: 1100 } })],
    21,
  );
  const { forecast, history } = forecastOf(inputs);

  it('the harvest forecast made at day 21 (weight at day 35) lands within 5 % of the Ross 308 standard at day 35', () => {
    expect(forecast.harvest).toMatchObject({ basis: 'target_age', ageDays: 35, date: at(35), daysFromAsOf: 14 });
    const grams = forecast.harvest.weight!.grams;
    expect(Math.abs(grams - ross(35)) / ross(35)).toBeLessThan(0.05);
    // the same number the v2 predictions route gives for day 35: there is no second weight model
    expect(grams).toBe(predictWeight(inputs, config(), { targetAgeDays: 35 }).atTargetAge.weight.value);
    expect(grams).toBe(predictions(inputs, config()).weight.atTargetAge.weight.value);
  });

  it('records its model version, data window and computedAt, weekly points with a band that widens with the horizon, and a daily path', () => {
    expect(forecast).toMatchObject({ modelVersion: PREDICTIVE_MODEL_VERSION, computedAt: `${at(21)}T06:00:00.000Z`, asOf: at(21), ageDays: 21 });
    expect(forecast.window).toEqual({ from: START, to: at(21), days: 22, weighings: 3, lastWeighingDate: at(21) });
    expect(forecast.weight.points.map((p) => p.ageDays)).toEqual([28, 35]);
    const w28 = forecast.weight.points[0]!;
    const w35 = forecast.weight.points[1]!;
    expect(w28.low).toBeLessThan(w28.grams);
    expect((w35.high - w35.grams) / w35.grams).toBeGreaterThan((w28.high - w28.grams) / w28.grams);
    // band = max(2 × RMS %, floor of the confidence) × (1 + horizon ÷ 28): high confidence, 14 days → ≥ 3 % × 1.5
    expect(bandPct('high', 0.5, 14)).toBeCloseTo(4.5, 10);
    expect(bandPct('low', 30, 56)).toBe(50);
    expect(history.path.from).toBe(at(22));
    expect(history.path.grams).toHaveLength(56);
    expect(history.path.grams[13]).toBe(w35.grams); // day 35 = from + 13
    expect(history.harvest).toEqual({ date: at(35), grams: w35.grams });
  });

  it('falls back to the configuration’s reference weight (2,500 g) as the target of a broiler cycle without targets', () => {
    const { forecast: f } = forecastOf({ ...inputs, cycle: { ...inputs.cycle, targetAgeDays: null } });
    expect(f.harvest.targetWeight).toMatchObject({ grams: 2500, source: 'configuration', reached: false });
    expect(f.harvest.basis).toBe('target_weight');
    // the ratio is < 1, so 2,500 g comes after the standard's ≈ day 37 (2,296 g at 35, 2,998 g at 42)
    expect(f.harvest.ageDays).toBeGreaterThanOrEqual(37);
    expect(f.harvest.weight!.grams).toBeGreaterThanOrEqual(2500);
  });

  it('feed needed until harvest and FCR at harvest from the breed’s FCR curve', () => {
    // Weighed exactly on the standard (ratio 1), 1,000 birds, 1,155.704 kg eaten by day 21 → FCR 1.142 = the standard: k = 1.
    // per bird: (1.399 × 2,296 − 1.142 × 1,012) ÷ 1000 = 2.0564 kg → 2,056.4 kg; FCR at 35 = (1,155.704 + 2,056.4) ÷ 2,296 = 1.399
    const exact = broiler(
      [weighing(at(7), ross(7)), weighing(at(14), ross(14)), weighing(at(21), ross(21))],
      [day(at(0), { placed: 1000 }), day(at(20), { feedConsumedKg: 1155.704, feedConsumedKgByType: { grower: 1155.704 } })],
      21,
    );
    const { forecast: f } = forecastOf(exact);
    expect(f.feed).toMatchObject({ method: 'breed_fcr_curve', neededKg: 2056.4, neededUntil: at(35) });
    expect(f.harvest.fcr).toBeCloseTo(1.399, 3);
    // trailing 3 days before day 21: days 18–20 → 1,155.704 ÷ 3
    expect(f.feed.dailyKg).toBeCloseTo(385.235, 3);
  });

  it('layers: eggs for the next 8 weeks from the production forecast, feed for the horizon, no harvest', () => {
    const L0 = '2026-01-01';
    const layers: CycleInputs = {
      cycle: {
        cycleId: 'l',
        flockId: 'lf',
        birdType: 'layer',
        breed: 'Hy-Line Brown',
        hatchDate: dateOf(L0, -140),
        startDate: L0,
        endDate: null,
        status: 'active',
        targetAgeDays: null,
        targetWeightGrams: null,
        houseAreaM2: null,
      },
      days: [
        day(L0, { placed: 1000 }),
        ...Array.from({ length: 10 }, (_, i) => day(dateOf(L0, i + 1), { eggsCollected: 800, feedConsumedKg: 110, feedConsumedKgByType: { layer: 110 } })),
      ],
      weighings: [],
      asOf: dateOf(L0, 10),
    };
    const { forecast: f } = forecastOf(layers);
    expect(f.eggs.weeks).toHaveLength(8);
    expect(f.eggs.method).toBe('breed_curve_scaled');
    expect(f.eggs.totalEggs).toBe(f.eggs.weeks.reduce((a, w) => a + w.eggs!, 0));
    expect(f.harvest).toMatchObject({ basis: null, date: null, weight: null });
    expect(f.feed).toMatchObject({ method: 'trailing_intake', neededKg: 110 * 56, neededUntil: dateOf(L0, 66), dailyKg: 110 });
  });
});

describe('feed run-out', () => {
  const asOf = '2026-05-10';
  // days 7, 8, 9 count (asOf excluded, day 6 too old): starter 100 + 120 + 110 = 330 → 110 kg/day
  const days = [
    day('2026-05-06', { feedConsumedKg: 1000, feedConsumedKgByType: { starter: 1000 } }),
    day('2026-05-07', { feedConsumedKg: 100, feedConsumedKgByType: { starter: 100 } }),
    day('2026-05-08', { feedConsumedKg: 120, feedConsumedKgByType: { starter: 120 } }),
    day('2026-05-09', { feedConsumedKg: 110, feedConsumedKgByType: { starter: 110 } }),
    day('2026-05-10', { feedConsumedKg: 500, feedConsumedKgByType: { starter: 500 } }),
  ];

  it('stock ÷ trailing 3-day consumption; the date is asOf + ⌊days⌋', () => {
    const own = trailingConsumption(days, asOf);
    expect(own).toEqual({ window: { from: '2026-05-07', to: '2026-05-09' }, dailyKg: 110, dailyKgByType: { starter: 110 } });
    // 1,000 ÷ 110 = 9.09 days → 9.1, run-out 2026-05-19
    expect(runOutOf(1000, 110, asOf)).toEqual({ daysLeft: 9.1, date: '2026-05-19' });
    expect(runOutOf(1000, 0, asOf)).toEqual({ daysLeft: null, date: null });
    // the farm eats 110 (this flock) + 90 (another) of starter: 1,000 ÷ 200 = 5 days; grower is not this flock's feed
    const farm = flockRunOut(
      { source: 'farm_stock', stockKgByType: { starter: 1000, grower: 50 }, farmDailyKg: 250, farmDailyKgByType: { starter: 200, grower: 50 } },
      own,
      asOf,
    );
    expect(farm).toEqual({ source: 'farm_stock', stockKg: 1000, dailyKg: 200, daysLeft: 5, date: '2026-05-15', feedTypes: ['starter'], reason: null });
    // the house's silos: 2,000 kg, 250 kg/day out of them → 8 days
    expect(flockRunOut({ source: 'silo', stockKg: 2000, dailyKg: 250 }, own, asOf)).toMatchObject({ source: 'silo', daysLeft: 8, date: '2026-05-18' });
    // silos without measured outflow: the flock's own consumption (2,000 ÷ 110 = 18.18 → 18 days)
    expect(flockRunOut({ source: 'silo', stockKg: 2000, dailyKg: null }, own, asOf)).toMatchObject({ dailyKg: 110, date: '2026-05-28' });
  });

  it('the farm: total and per type', () => {
    const r = farmStockRunOut({ starter: 1000, grower: 600 }, { dailyKg: 300, dailyKgByType: { starter: 200, grower: 100 } }, asOf);
    // total 1,600 ÷ 300 = 5.33 → 5; starter 5 days; grower 6 days
    expect(r).toEqual({
      totalKg: 1600,
      dailyKg: 300,
      daysLeft: 5.3,
      runOutDate: '2026-05-15',
      byType: [
        { feedType: 'grower', stockKg: 600, dailyKg: 100, daysLeft: 6, runOutDate: '2026-05-16' },
        { feedType: 'starter', stockKg: 1000, dailyKg: 200, daysLeft: 5, runOutDate: '2026-05-15' },
      ],
    });
  });
});

describe('health risk', () => {
  const asOf = '2026-05-10';
  const anomaly = (date: string, metric: ThresholdBreach['metric'], severity: ThresholdBreach['severity']): ThresholdBreach => ({
    date,
    metric,
    severity,
    value: 1,
    threshold: 0.5,
    unit: '%',
    message: `${metric} on ${date}`,
    evidence: {},
  });

  it('recent and critical rules weigh most; older than 7 days does not count', () => {
    // dailyMortality critical today: 0.5 × 1 × 1 = 0.5; lowWaterIntake warning 2 days ago: 0.45 × 0.6 × 0.85² = 0.195075
    // score = 100 × (1 − 0.5 × 0.804925) = 59.75 → 60 (high)
    const r = healthRisk(
      [
        anomaly('2026-05-01', 'dailyMortality', 'critical'),
        anomaly('2026-05-08', 'lowWaterIntake', 'warning'),
        anomaly('2026-05-10', 'dailyMortality', 'critical'),
        anomaly('2026-05-09', 'dailyMortality', 'warning'),
      ],
      asOf,
    );
    expect(r).toMatchObject({ score: 60, level: 'high', window: { from: '2026-05-04', to: asOf } });
    expect(r.factors).toEqual([
      { metric: 'dailyMortality', severity: 'critical', occurrences: 2, lastDate: asOf, contribution: 50, message: `dailyMortality on ${asOf}` },
      { metric: 'lowWaterIntake', severity: 'warning', occurrences: 1, lastDate: '2026-05-08', contribution: 19.5, message: 'lowWaterIntake on 2026-05-08' },
    ]);
    expect(healthRisk([], asOf)).toMatchObject({ score: 0, level: 'low', factors: [] });
    expect(combinedScore([1, 0.3])).toBe(100);
    expect([0, 24, 25, 49, 50, 74, 75, 100].map(riskLevel)).toEqual(['low', 'low', 'moderate', 'moderate', 'high', 'high', 'critical', 'critical']);
  });
});

describe('device failure risk', () => {
  const now = Date.parse('2026-05-10T12:20:00Z');
  const { buckets } = riskWindow(now);
  const stat = (values: number[]) => ({
    n: values.length,
    sum: values.reduce((a, b) => a + b, 0),
    min: Math.min(...values),
    max: Math.max(...values),
    first: values[0]!,
    firstTs: 0,
    last: values.at(-1)!,
    lastTs: 0,
  });
  const device = (id: string, over: Partial<DeviceInfo> = {}): DeviceInfo => ({
    id,
    farmId: 'farm',
    houseId: 'h1',
    name: id,
    kind: 'climate',
    metrics: ['temperatureC', 'humidityPct'],
    reportingIntervalSeconds: 300,
    lastSeen: '2026-05-10T12:15:00.000Z',
    createdAt: '2026-04-01T00:00:00.000Z',
    ...over,
  });
  const hours = (f: (i: number) => BucketStats) => buckets.map((bucket, i) => ({ bucket, stats: f(i) }));
  const wobbly = (i: number, base = 24): BucketStats => ({
    temperatureC: stat([base - 0.4 + (i % 3) * 0.1, base + 0.3]),
    humidityPct: stat([60 + (i % 4), 62]),
  });

  it('a flat-lining device (min = max for hours) and a silent one rank above a healthy one', () => {
    const series: DeviceSeries[] = [
      { device: device('healthy'), hours: hours((i) => wobbly(i)) },
      // temperature stuck at 24.0 for the last 12 hours → flat line 12 h → severity 1 → 80 points
      { device: device('flat'), hours: hours((i) => (i >= 12 ? { ...wobbly(i), temperatureC: stat([24, 24, 24]) } : wobbly(i))) },
      // never reported: offline (silent 100) and no hour with readings (gaps 60) → 100
      { device: device('silent', { lastSeen: null }), hours: [] },
    ];
    const risks = deviceFailureRisks(series, now, { sensorStaleFactor: 2, sensorOfflineFactor: 4 }, new Date(now).toISOString(), PREDICTIVE_MODEL_VERSION);
    expect(risks.map((r) => [r.deviceId, r.score, r.level])).toEqual([
      ['silent', 100, 'critical'],
      ['flat', 80, 'critical'],
      ['healthy', 0, 'low'],
    ]);
    expect(risks[0]!.factors.map((f) => f.kind)).toEqual(['silent', 'gaps']);
    expect(risks[1]!.factors).toEqual([
      { kind: 'flat_line', metric: 'temperatureC', severity: 1, contribution: 80, detail: 'temperatureC read 24 and nothing else for 12 consecutive hours' },
    ]);
    expect(risks[0]!.window).toEqual({ from: '2026-05-09T12:00:00.000Z', to: '2026-05-10T12:00:00.000Z', hours: 24 });
  });

  it('gaps since registration, stale devices, drift against the median of at least two neighbours', () => {
    const series: DeviceSeries[] = [
      ...['a', 'b', 'c'].map((id) => ({ device: device(id, { houseId: 'h2' }), hours: hours((i) => wobbly(i)) })),
      // 6 °C warmer than its three neighbours' 24 °C: (6 − 2) ÷ 4 → severity 1 → 70 points
      { device: device('warm', { houseId: 'h2' }), hours: hours((i) => wobbly(i, 30)) },
      // reported in 12 of 24 hours → 50 % missing → 0.6 × 0.5 = 30 points; last seen 20 min ago at a 5-min interval → stale (50)
      // → 100 × (1 − 0.7 × 0.5) = 65
      {
        device: device('patchy', { houseId: 'h3', lastSeen: '2026-05-10T12:00:00.000Z' }),
        hours: hours((i) => (i % 2 ? wobbly(i) : {})),
      },
      // registered 6 hours before the window's end and reported in all of them: no gap
      { device: device('new', { houseId: 'h4', createdAt: '2026-05-10T06:30:00.000Z' }), hours: hours((i) => (i >= 18 ? wobbly(i) : {})) },
    ];
    const risks = deviceFailureRisks(series, now, { sensorStaleFactor: 2, sensorOfflineFactor: 4 }, new Date(now).toISOString(), PREDICTIVE_MODEL_VERSION);
    const byId = Object.fromEntries(risks.map((r) => [r.deviceId, r]));
    expect(byId.warm!.factors.map((f) => [f.kind, f.metric, f.contribution])).toEqual([['drift', 'temperatureC', 70]]);
    expect(byId.a!.score).toBe(0);
    expect(byId.patchy!.score).toBe(65);
    expect(byId.patchy!.status).toBe('stale');
    expect(byId.new!.score).toBe(0);
  });
});

describe('accuracy', () => {
  const f = (over: Partial<ForecastHistory>): ForecastHistory => ({
    flockId: 'f1',
    flockName: 'One',
    farmId: 'farm',
    cycleId: 'c1',
    asOf: '2026-05-01',
    computedAt: '2026-05-01T06:00:00.000Z',
    modelVersion: PREDICTIVE_MODEL_VERSION,
    path: { from: '2026-05-02', grams: [100, 200, 300] },
    harvest: { date: '2026-05-04', grams: 300 },
    ...over,
  });

  it('MAPE of weight (every weighing after the forecast, in its path) and harvest (the weighing on the harvest date), per flock and overall', () => {
    // weight: |200 − 180| ÷ 180 = 11.1111 %, |300 − 330| ÷ 330 = 9.0909 % → 10.10 %; harvest: 9.09 %
    const r = forecastAccuracy(
      [f({}), f({ flockId: 'f2', flockName: 'Two', cycleId: 'c2', harvest: null })],
      [
        { cycleId: 'c1', date: '2026-05-01', grams: 90 }, // on asOf: not a forecast
        { cycleId: 'c1', date: '2026-05-03', grams: 180 },
        { cycleId: 'c1', date: '2026-05-04', grams: 330 },
        { cycleId: 'c1', date: '2026-05-09', grams: 900 }, // past the path
      ],
    );
    expect(r.weight).toEqual({ mapePct: 10.1, n: 2 });
    expect(r.harvest).toEqual({ mapePct: 9.09, n: 1 });
    expect(r.flocks).toEqual([
      { flockId: 'f1', flockName: 'One', weight: { mapePct: 10.1, n: 2 }, harvest: { mapePct: 9.09, n: 1 } },
      { flockId: 'f2', flockName: 'Two', weight: { mapePct: null, n: 0 }, harvest: { mapePct: null, n: 0 } },
    ]);
    expect(r.modelVersions).toEqual([PREDICTIVE_MODEL_VERSION]);
  });
});

describe('response schemas', () => {
  it('agree with the services’ return types (checked by tsc)', () => {
    const checks: Checks | undefined = undefined;
    expect(checks).toBeUndefined();
  });
});

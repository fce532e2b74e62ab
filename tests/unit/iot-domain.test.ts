import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conditionStatus, expectedRange, temperatureRange, type ClimateThresholds } from '../../shared/domain/iot/climate.js';
import { deviceStatus, lastSeenOf, nextStatusChangeAt } from '../../shared/domain/iot/device-health.js';
import { dayFigure, feedKgOfDay, waterLitersOfDay } from '../../shared/domain/iot/house-figures.js';
import { declaredMetricProblems, valueProblem } from '../../shared/domain/iot/metrics.js';
import { screenReadings, type Candidate } from '../../shared/domain/iot/readings.js';
import {
  addToBucket,
  bucketBefore,
  counterIncrease,
  counterPoints,
  refuseBackwardCounters,
  summaryOf,
  type BucketStats,
} from '../../shared/domain/iot/rollups.js';

const T0 = Date.parse('2026-11-20T10:00:00Z');
const at = (minute: number) => new Date(T0 + minute * 60_000).toISOString();
const candidate = (index: number, minute: number, metrics: Candidate['metrics']): Candidate => ({ index, tsMs: T0 + minute * 60_000, metrics });

describe('screening a batch', () => {
  it('rejects per reading with the reason, counts repeats within the batch, and sorts the rest by time', () => {
    const s = screenReadings(
      [
        { ts: at(2), metrics: { temperatureC: 21 } },
        { ts: at(1), metrics: { temperatureC: 20, humidityPct: 101 } },
        { ts: at(0), metrics: { co2Ppm: 900 } },
        { ts: at(2), metrics: { temperatureC: 21.5 } },
        { ts: at(30), metrics: { temperatureC: 20 } },
        { ts: at(-100_000), metrics: { temperatureC: 20 } },
        { ts: at(0), metrics: { temperatureC: 19 } },
      ],
      { declared: ['temperatureC', 'humidityPct'], receivedAt: T0 + 10 * 60_000, oldestMs: T0 - 30 * 86_400_000 },
    );
    expect(s.candidates.map((c) => c.index)).toEqual([6, 0]);
    expect(s.duplicates).toBe(1);
    expect(s.rejected.map((r) => r.index)).toEqual([1, 2, 4, 5]);
    expect(s.rejected[0]!.error).toMatch(/humidityPct 101 % is outside/);
    expect(s.rejected[1]!.error).toMatch(/co2Ppm is not a metric of this device/);
  });

  it('knows each metric’s physical range and which metrics a kind reports', () => {
    expect(valueProblem('nh3Ppm', -1)).toMatch(/outside the physical range 0–1000 ppm/);
    expect(valueProblem('temperatureC', 35)).toBeNull();
    expect(declaredMetricProblems('water_meter', ['waterLitersTotal'])).toEqual([]);
    expect(declaredMetricProblems('water_meter', ['lux'])).toEqual(['lux is not a metric of a water_meter device (waterLitersTotal)']);
    expect(declaredMetricProblems('multi', ['lux', 'siloKg', 'birdWeightGrams'])).toEqual([]);
  });
});

describe('rollups', () => {
  const reading = fc.record({ minute: fc.integer({ min: 0, max: 59 }), value: fc.integer({ min: -100, max: 100 }) });

  it('give the same count, sum, min, max, first and last however the readings are split into batches and ordered', () => {
    fc.assert(
      fc.property(fc.uniqueArray(reading, { selector: (r) => r.minute, minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 5 }), (rows, parts) => {
        const all = rows.map((r, i) => candidate(i, r.minute, { temperatureC: r.value / 10 }));
        const sorted = [...all].sort((a, b) => a.tsMs - b.tsMs);
        const oneGo = addToBucket({}, sorted);
        let piecewise: BucketStats = {};
        for (let p = parts - 1; p >= 0; p--) {
          const slice = all.filter((_, i) => i % parts === p).sort((a, b) => a.tsMs - b.tsMs);
          if (slice.length > 0) piecewise = addToBucket(piecewise, slice);
        }
        const a = oneGo.temperatureC!;
        const b = piecewise.temperatureC!;
        expect(b.n).toBe(a.n);
        expect(b.sum).toBeCloseTo(a.sum, 6);
        expect([b.min, b.max, b.first, b.last, b.firstTs, b.lastTs]).toEqual([a.min, a.max, a.first, a.last, a.firstTs, a.lastTs]);
      }),
    );
  });

  it('refuse a counter going backwards against stored points and the batch itself', () => {
    const stored = addToBucket({}, [candidate(0, 10, { waterLitersTotal: 100 }), candidate(1, 20, { waterLitersTotal: 150 })]);
    const { kept, rejected } = refuseBackwardCounters(
      [
        candidate(0, 5, { waterLitersTotal: 90 }),
        candidate(1, 15, { waterLitersTotal: 160 }),
        candidate(2, 25, { waterLitersTotal: 170 }),
        candidate(3, 26, { waterLitersTotal: 165 }),
      ],
      counterPoints(stored),
    );
    expect(kept.map((c) => c.index)).toEqual([0, 2]);
    expect(rejected.map((r) => r.index)).toEqual([1, 3]);
    expect(rejected[0]!.error).toMatch(/160 before 150/);
  });
});

describe('house figures from counters', () => {
  it('water is the meter’s difference from the previous day’s last reading; feed is the silo’s drop plus refills', () => {
    const previous = addToBucket({}, [candidate(0, 0, { waterLitersTotal: 1000 })]);
    const today = addToBucket({}, [candidate(0, 1440, { waterLitersTotal: 1200 }), candidate(1, 2000, { waterLitersTotal: 1500 })]);
    expect(waterLitersOfDay(today, previous)).toBe(500);
    expect(waterLitersOfDay(today, undefined)).toBe(300);
    expect(waterLitersOfDay(undefined, previous)).toBeNull();
    const silo = addToBucket({}, [
      candidate(0, 0, { siloKg: 5000 }),
      candidate(1, 60, { siloKg: 4700 }),
      candidate(2, 61, { siloKg: 4750 }), // noise, not a refill
      candidate(3, 120, { siloKg: 8000 }), // refill of 3250 kg
      candidate(4, 600, { siloKg: 7600 }),
    ]);
    expect(feedKgOfDay(silo)).toBe(5000 - 7600 + 3250);
  });

  it('a counter’s use over a bucket: from the last reading of the bucket right before, a reset counting from the bucket’s own first reading', () => {
    const meter = (...points: Array<[number, number]>) =>
      addToBucket(
        {},
        points.map(([minute, v], i) => candidate(i, minute, { waterLitersTotal: v })),
      ).waterLitersTotal!;
    const before = meter([0, 626_000], [50, 626_600]);
    const hour = meter([70, 626_650], [110, 626_900]);
    expect(counterIncrease(hour, before)).toBe(300); // 626,900 − 626,600: the litres used, not Σ of running totals
    expect(counterIncrease(hour, undefined)).toBe(250); // nothing before: from the bucket's first reading
    // a replaced or reset meter (lower than the bucket before): counts from the bucket's own first reading, never negative or a whole total
    expect(counterIncrease(meter([70, 12], [110, 40]), before)).toBe(28);
    // never negative, whatever slipped through
    expect(counterIncrease(meter([70, 500], [60, 520], [110, 480]), undefined)).toBe(0);
    // the daily figure of the house follows the same rule
    expect(
      waterLitersOfDay(addToBucket({}, [candidate(0, 1440, { waterLitersTotal: 12 }), candidate(1, 1500, { waterLitersTotal: 40 })]), {
        waterLitersTotal: before,
      }),
    ).toBe(28);
    // the API shows `used` for a counter metric only
    expect(summaryOf('waterLitersTotal', hour, before)).toMatchObject({ count: 2, sum: 1_253_550, first: 626_650, last: 626_900, used: 300 });
    expect(summaryOf('temperatureC', hour)).not.toHaveProperty('used');
    expect([bucketBefore('2026-03-04T00', 'hour'), bucketBefore('2026-03-01', 'day')]).toEqual(['2026-03-03T23', '2026-02-28']);
  });

  it('a manual figure wins over the sensors; sensors add up across devices', () => {
    expect(dayFigure(900, { a: 1000 })).toEqual({ value: 900, source: 'manual' });
    expect(dayFigure(0, { a: 1000, b: 250.5 })).toEqual({ value: 1250.5, source: 'sensor' });
    expect(dayFigure(0, {})).toEqual({ value: 0, source: null });
  });
});

describe('device health', () => {
  it('is online, stale after 2× the interval, offline after 4× (or never seen)', () => {
    const seen = T0;
    expect(deviceStatus(seen, 60, seen + 120_000)).toBe('online');
    expect(deviceStatus(seen, 60, seen + 120_001)).toBe('stale');
    expect(deviceStatus(seen, 60, seen + 240_001)).toBe('offline');
    expect(deviceStatus(null, 60, seen)).toBe('offline');
    expect(deviceStatus(seen, 60, seen + 200_000, { sensorStaleFactor: 3, sensorOfflineFactor: 6 })).toBe('stale');
    expect(nextStatusChangeAt(seen, 60, seen)).toBe(seen + 120_001);
    expect(nextStatusChangeAt(seen, 60, seen + 130_000)).toBe(seen + 240_001);
    expect(nextStatusChangeAt(seen, 60, seen + 300_000)).toBeNull();
    expect(lastSeenOf(T0 + 10_000, T0)).toBe(T0);
  });
});

describe('house climate ranges', () => {
  const t: ClimateThresholds = { ammoniaMaxPpm: 20, co2MaxPpm: 3000, coIdealMaxPpm: 10, humidityMinPct: 50, humidityMaxPct: 70, minLightLux: 20 };

  it('temperature follows the broiler curve (33 °C at placement, 21 °C from day 28) and the pullet steps, ± 2 °C', () => {
    expect(temperatureRange({ birdType: 'broiler', ageDays: 0 })).toMatchObject({ min: 31, max: 35 });
    expect(temperatureRange({ birdType: 'broiler', ageDays: 14 })).toMatchObject({ min: 25, max: 29 });
    expect(temperatureRange({ birdType: 'broiler', ageDays: 40 })).toMatchObject({ min: 19, max: 23 });
    expect(temperatureRange({ birdType: 'layer', ageDays: 1 })).toMatchObject({ min: 33, max: 38 });
    expect(temperatureRange({ birdType: 'layer', ageDays: 60 })).toMatchObject({ min: 16, max: 22 });
  });

  it('checks NH₃, CO₂, humidity and light against the thresholds; a dark-period lux reading is not dim light', () => {
    expect(conditionStatus('nh3Ppm', 21, expectedRange('nh3Ppm', t, null))).toBe('high');
    expect(conditionStatus('humidityPct', 45, expectedRange('humidityPct', t, null))).toBe('low');
    expect(conditionStatus('lux', 0, expectedRange('lux', t, null))).toBe('ok');
    expect(conditionStatus('lux', 8, expectedRange('lux', t, null))).toBe('low');
    expect(conditionStatus('temperatureC', 40, expectedRange('temperatureC', t, null))).toBe('unchecked');
    expect(conditionStatus('waterLitersTotal', 5, expectedRange('waterLitersTotal', t, null))).toBe('unchecked');
  });
});

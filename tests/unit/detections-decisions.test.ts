import { describe, expect, it } from 'vitest';
import { NO_CLIMATE } from '../../shared/domain/diagnosis/signals.js';
import type { Detection } from '../../shared/domain/detection/engine.js';
import { daysToJudge, decideDetectorFiring, detectionsBetween, MAX_DAYS_PER_RUN } from '../../shared/domain/detection/firings.js';

/** The detector use case's decisions without a database: the days a run judges and the anomaly each detection raises. */

const detection = (fields: Partial<Detection> = {}): Detection => ({
  metric: 'waterPctOfExpected',
  bucket: '2026-03-10',
  detector: 'ewma',
  parameters: { lambda: 0.3 },
  observed: 80,
  expected: 100,
  deviation: -20,
  score: -4.2,
  direction: 'down',
  severity: 'warning',
  window: { from: '2026-03-01', to: '2026-03-10' },
  startedOn: '2026-03-09',
  evidence: { baselineMean: 100 },
  message: 'Water intake fell',
  ...fields,
});

describe('the days a detector run judges', () => {
  it('is the day of new data, or the days after the last judged one up to the job’s day, at most MAX_DAYS_PER_RUN of them', () => {
    expect(daysToJudge({ day: '2026-03-10' }, '2026-03-20')).toEqual({ from: '2026-03-10', to: '2026-03-10' });
    expect(daysToJudge({ until: '2026-03-10' }, '2026-03-07')).toEqual({ from: '2026-03-08', to: '2026-03-10' });
    expect(daysToJudge({ until: '2026-03-10' }, null)).toEqual({ from: '2026-03-10', to: '2026-03-10' });
    expect(daysToJudge({ until: '2026-03-10' }, '2026-03-10')).toBeUndefined();
    expect(MAX_DAYS_PER_RUN).toBe(14);
    expect(daysToJudge({ until: '2026-03-31' }, '2026-01-01')).toEqual({ from: '2026-03-18', to: '2026-03-31' });
  });

  it('keeps the detections of those days only', () => {
    const found = [detection({ bucket: '2026-03-07' }), detection({ bucket: '2026-03-08' }), detection({ bucket: '2026-03-11' })];
    expect(detectionsBetween(found, { from: '2026-03-08', to: '2026-03-10' }).map((d) => d.bucket)).toEqual(['2026-03-08']);
  });
});

describe('the anomaly a detection raises', () => {
  it('is a detector firing of the flock, over the baseline to the end of the day, deduplicated per metric, detector and direction', () => {
    const target = { farmId: 'f1', flockId: 'k1', cycleId: 'c1', houseId: 'h1' };
    const thresholds = { ammoniaMaxPpm: 20, humidityMaxPct: 75, dailyMortalityPct: 0.5 };
    const firing = decideDetectorFiring(target, [], detection(), { houseName: 'House 1', climate: NO_CLIMATE, thresholds, requestId: 'r1' });
    expect(firing).toMatchObject({
      ...target,
      source: 'detector',
      ruleId: null,
      detector: { name: 'ewma', parameters: { lambda: 0.3 } },
      unit: '% of expected',
      window: { from: '2026-03-01T00:00:00.000Z', to: '2026-03-11T00:00:00.000Z', duration: 'P10D' },
      severity: 'warning',
      title: 'Water intake fell',
      dedupKey: 'detector:k1:waterPctOfExpected:ewma:down',
      at: '2026-03-11T00:00:00.000Z',
      evidence: { baselineMean: 100, day: '2026-03-10', score: -4.2, direction: 'down', requestId: 'r1' },
    });
    // the water change the detection saw is its distance from the flock's baseline, in %
    expect(firing.evidence.signals).toMatchObject({ metric: 'waterPctOfExpected', waterChangePct: -20, houseName: 'House 1' });
    expect(Array.isArray(firing.hypotheses)).toBe(true);
  });
});

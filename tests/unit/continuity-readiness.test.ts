/** Readiness (pure): drills due by kind, a failed drill not resetting the clock, days of feed. */
import { describe, expect, it } from 'vitest';
import { drillStatus, feedDays, trailingDays, waterDays } from '../../shared/domain/continuity/readiness.js';

describe('drills', () => {
  it('a generator drill is due 7 days after the last one that ran; never run is overdue', () => {
    expect(drillStatus('generator', [], '2026-03-10')).toMatchObject({ overdue: true, lastDate: null, dueDate: null, everyDays: 7 });
    const drills = [{ kind: 'generator' as const, date: '2026-03-05', result: 'passed' as const }];
    expect(drillStatus('generator', drills, '2026-03-12')).toMatchObject({ overdue: false, dueDate: '2026-03-12' });
    expect(drillStatus('generator', drills, '2026-03-13')).toMatchObject({ overdue: true });
    expect(drillStatus('alarm', drills, '2026-03-06')).toMatchObject({ overdue: true, lastDate: null });
    expect(drillStatus('generator', drills, '2026-03-15')).toMatchObject({ overdue: true, daysOverdue: 3 });
  });

  it('never run, with the farm’s creation date: the first drill is due one interval after it', () => {
    expect(drillStatus('generator', [], '2026-03-08', '2026-03-01T09:30:00.000Z')).toMatchObject({ dueDate: '2026-03-08', overdue: false, daysOverdue: 0 });
    expect(drillStatus('generator', [], '2026-03-10', '2026-03-01T09:30:00.000Z')).toMatchObject({ overdue: true, daysOverdue: 2, lastDate: null });
    expect(drillStatus('generator', [], '2026-03-10')).toMatchObject({ overdue: true, daysOverdue: null });
  });

  it('a failed drill is reported but does not reset the clock', () => {
    const drills = [
      { kind: 'generator' as const, date: '2026-03-01', result: 'passed' as const },
      { kind: 'generator' as const, date: '2026-03-07', result: 'failed' as const },
    ];
    expect(drillStatus('generator', drills, '2026-03-09')).toMatchObject({
      lastDate: '2026-03-07',
      lastResult: 'failed',
      dueDate: '2026-03-08',
      overdue: true,
    });
  });
});

describe('feed', () => {
  it('stock ÷ mean daily consumption; fewer than 3 days is low; no consumption → null', () => {
    expect(feedDays(1000, [200, 250, 150])).toEqual({ stockKg: 1000, dailyConsumptionKg: 200, daysLeft: 5, low: false });
    expect(feedDays(500, [200, 250, 150])).toMatchObject({ daysLeft: 2.5, low: true });
    expect(feedDays(500, [])).toEqual({ stockKg: 500, dailyConsumptionKg: null, daysLeft: null, low: false });
    expect(waterDays(6000, [2000, 2200, 1800])).toEqual({ reserveLiters: 6000, dailyConsumptionLiters: 2000, daysLeft: 3, note: null });
    expect(waterDays(null, [2000])).toMatchObject({ reserveLiters: null, daysLeft: null, note: 'no water reserve declared for this farm' });
    expect(waterDays(500, [])).toMatchObject({ reserveLiters: 500, daysLeft: null });
    expect(trailingDays('2026-03-01')).toEqual(['2026-02-28', '2026-02-27', '2026-02-26']);
  });
});

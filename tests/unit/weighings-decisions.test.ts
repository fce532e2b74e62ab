import { describe, expect, it } from 'vitest';
import type { ScaleIngestBody } from '../../schemas/weights.js';
import {
  activeCycleOf,
  decideManualWeighing,
  decideScaleBatch,
  judgeManualWeighing,
  judgeScale,
  scaleBatchDates,
  scaleHouse,
} from '../../shared/domain/flocks/weighings.js';
import { Conflict, NotFound, ValidationFailed } from '../../shared/errors.js';
import { aCycle, detailsOf } from '../support/decisions.js';

/** Weighings decided without a database: manual sessions and scale batches, their refusals, sessions and the cycle's latest weight. */

const now = new Date('2026-03-10T08:00:00.000Z');
const cycle = aCycle({ latestWeight: { date: '2026-03-08', grams: 300 } });

describe('a manual session', () => {
  it('is judged once: grams or samples, a date within the cycle and not in the future', () => {
    expect(detailsOf(() => judgeManualWeighing(cycle, { date: '2026-03-09', grams: 300, samples: [300] }, now))).toEqual([
      { field: 'samples', message: 'send either grams (one average) or samples (individual weighings), not both' },
    ]);
    expect(() => judgeManualWeighing(cycle, { date: '2026-03-01', grams: 300 }, now)).toThrow(ValidationFailed);
    expect(detailsOf(() => judgeManualWeighing(cycle, { date: '2026-03-12', grams: 300 }, now))).toEqual([
      { field: 'date', message: 'must not be in the future' },
    ]);
    expect(judgeManualWeighing(cycle, { date: '2026-03-09', samples: [300, 320] }, now)).toMatchObject({ n: 2, mean: 310 });
  });

  it('is refused once the cycle is closed; a session not older than the latest weight becomes it', () => {
    const body = { date: '2026-03-09', samples: [300, 320] };
    const facts = { id: 'w1', houseId: 'h1', stats: judgeManualWeighing(cycle, body, now), callerId: 'u1', now };
    expect(() => decideManualWeighing({ ...cycle, status: 'closed' }, body, facts)).toThrow(/Cycle c1 is closed; it takes no new weighings/);
    const d = decideManualWeighing(cycle, body, facts);
    expect(d.record).toMatchObject({ id: 'w1', method: 'manual_sample', houseId: 'h1', grams: 310, sampleSize: 2, samples: [300, 320], version: 1 });
    expect(d.latest).toBe(true);
    expect(d.changes).toEqual([{ type: 'weight', id: 'w1', op: 'upsert', version: 1, farmIds: [cycle.farmId] }]);
    expect(
      decideManualWeighing(cycle, { date: '2026-03-07', grams: 250 }, { ...facts, stats: { n: null, mean: 250, sd: null, cv: null, uniformityPct: null } })
        .latest,
    ).toBe(false);
  });
});

describe('a scale batch', () => {
  const batch = (weighings: ScaleIngestBody['weighings']): ScaleIngestBody => ({ deviceId: 'd1', flockId: 'fl1', weighings });

  it('spans at most 98 dates; without a cycle it goes to the flock’s active one', () => {
    const many = Array.from({ length: 99 }, (_, i) => ({ at: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(), grams: 300 }));
    expect(() => scaleBatchDates(batch(many))).toThrow(ValidationFailed);
    expect(
      scaleBatchDates(
        batch([
          { at: '2026-03-09T23:30:00-05:00', grams: 1 },
          { at: '2026-03-08T10:00:00Z', grams: 1 },
        ]),
      ),
    ).toEqual(['2026-03-08', '2026-03-09']);
    expect(() => activeCycleOf({ id: 'fl1', activeCycleId: null })).toThrow(Conflict);
    expect(activeCycleOf({ id: 'fl1', activeCycleId: 'c1' })).toBe('c1');
  });

  it('a device that does not weigh birds, a missing house and another house than the flock’s are refused', () => {
    expect(() => judgeScale('d1', { kind: 'climate', metrics: ['temperatureC'] })).toThrow(ValidationFailed);
    expect(() => scaleHouse({ flockId: 'fl1', houseId: 'h9' }, { houseId: null }, false)).toThrow(NotFound);
    expect(() => scaleHouse({ flockId: 'fl1', houseId: 'h2' }, { houseId: 'h1' }, true)).toThrow(ValidationFailed);
    expect(scaleHouse({ flockId: 'fl1', houseId: 'h2' }, { houseId: null }, true)).toBe('h2');
    expect(scaleHouse({ flockId: 'fl1' }, { houseId: 'h1' })).toBe('h1');
  });

  it('rejects readings outside the cycle, from the future, implausible or outliers, and merges the rest per date', () => {
    const body = batch([
      { at: '2026-03-01T10:00:00Z', grams: 300 },
      { at: '2026-03-10T09:00:00Z', grams: 300 },
      { at: '2026-03-09T10:00:00Z', grams: 0 },
      { at: '2026-03-09T10:01:00Z', grams: 300 },
      { at: '2026-03-09T10:02:00Z', grams: 320 },
      { at: '2026-03-09T10:03:00Z', grams: 310 },
      { at: '2026-03-09T10:04:00Z', grams: 900 },
    ]);
    const d = decideScaleBatch(cycle, body, { dates: scaleBatchDates(body), stored: new Map(), houseId: 'h1', callerId: 'u1', now });
    expect(d.rejectedBy).toEqual({ outsideCycle: 2, implausible: 1, outlier: 1 });
    expect(d.accepted).toBe(3);
    expect(d.days.map(({ date, accepted, rejected }) => ({ date, accepted, rejected }))).toEqual([
      { date: '2026-03-01', accepted: 0, rejected: 1 },
      { date: '2026-03-09', accepted: 3, rejected: 2 },
      { date: '2026-03-10', accepted: 0, rejected: 1 },
    ]);
    expect(d.sessions).toHaveLength(1);
    expect(d.newest).toMatchObject({ id: 'd1', date: '2026-03-09', method: 'automatic_scale', grams: 310, sampleSize: 3, houseId: 'h1', version: 1 });
    expect(d.latest).toBe(true);
    expect(d.changes).toEqual([{ type: 'weight', id: 'd1@2026-03-09', op: 'upsert', version: 1, farmIds: [cycle.farmId] }]);
    expect(() => decideScaleBatch({ ...cycle, status: 'closed' }, body, { dates: [], stored: new Map(), houseId: null, callerId: 'u1', now })).toThrow(
      Conflict,
    );
  });

  it('a second batch merges into the stored session of its day, at the version read', () => {
    const body = batch([{ at: '2026-03-09T11:00:00Z', grams: 320 }]);
    const first = decideScaleBatch(cycle, batch([{ at: '2026-03-09T10:00:00Z', grams: 300 }]), {
      dates: ['2026-03-09'],
      stored: new Map(),
      houseId: null,
      callerId: 'u1',
      now,
    }).newest!;
    const d = decideScaleBatch(cycle, body, { dates: ['2026-03-09'], stored: new Map([['2026-03-09', first]]), houseId: null, callerId: 'u2', now });
    expect(d.sessions[0]!.read).toBe(1);
    expect(d.newest).toMatchObject({ grams: 310, sampleSize: 2, createdBy: 'u1', version: 2 });
  });
});

import { describe, expect, it } from 'vitest';
import { systemCaller } from '../../shared/domain/caller.js';
import type { Proposal } from '../../shared/domain/optimization.js';
import { decideProposals, decideRecommendationCreate, decideRecommendationOutcome } from '../../shared/domain/recommendations/decisions.js';
import type { RecommendationRecord } from '../../shared/domain/recommendations/records.js';
import { Conflict, NotFound } from '../../shared/errors.js';

/** The recommendation decisions without a database: a person's recommendation, the system's proposals and the one decision. */

const now = new Date('2026-04-01T06:00:00.000Z');
const caller = systemCaller('test', ['manage_system'], ['f1']);
const flock = { id: 'k1', farmId: 'f1', activeCycleId: 'c2' };
const body = { flockId: 'k1', category: 'feed' as const, description: ' Raise the feed line ', expectedBenefit: ' less waste ' };

describe('a recommendation a person writes', () => {
  it('is for the active cycle unless another one of the flock is named, open, with its audit', () => {
    const d = decideRecommendationCreate(caller, flock, body, false, now);
    expect(d.recommendation).toMatchObject({
      farmId: 'f1',
      flockId: 'k1',
      cycleId: 'c2',
      priority: 'medium',
      description: 'Raise the feed line',
      expectedBenefit: 'less waste',
      source: 'user',
      status: 'open',
      createdBy: caller.id,
      createdAt: now.toISOString(),
      version: 1,
    });
    expect(d.audit).toEqual([
      { action: 'recommendation.create', targetType: 'recommendation', targetId: d.recommendation.id, changes: { flockId: 'k1', category: 'feed' } },
    ]);
    expect(decideRecommendationCreate(caller, flock, { ...body, cycleId: 'c1' }, true, now).recommendation.cycleId).toBe('c1');
    expect(decideRecommendationCreate(caller, flock, { ...body, cycleId: 'c2' }, false, now).recommendation.cycleId).toBe('c2');
  });

  it('refuses a cycle that is not the flock’s (404 naming it)', () => {
    expect(() => decideRecommendationCreate(caller, flock, { ...body, cycleId: 'c9' }, false, now)).toThrow(NotFound);
    expect(() => decideRecommendationCreate(caller, flock, { ...body, cycleId: 'c9' }, false, now)).toThrow('Cycle c9 of flock k1 not found');
  });
});

describe('the system’s proposals', () => {
  const proposal = (rule: string): Proposal => ({
    rule,
    category: 'water',
    priority: 'high',
    description: `${rule} fired`,
    expectedBenefit: 'b',
    evidence: [{ metric: 'm', value: 1, unit: '%', reference: 2, note: 'n' }],
  });

  it('skips a rule that already proposed for the cycle and proposes the others in their order', () => {
    const decided = decideProposals(caller, flock, 'c1', [proposal('a'), proposal('b'), proposal('c')], new Set(['b']), now);
    expect(decided.map((p) => [p.rule, p.recommendation !== undefined])).toEqual([
      ['a', true],
      ['b', false],
      ['c', true],
    ]);
    expect(decided[0]!.recommendation).toMatchObject({ cycleId: 'c1', source: 'system', rule: 'a', evidence: proposal('a').evidence, status: 'open' });
    expect(decided[0]!.audit).toEqual([
      { action: 'recommendation.propose', targetType: 'recommendation', targetId: decided[0]!.recommendation!.id, changes: { rule: 'a', cycleId: 'c1' } },
    ]);
  });
});

describe('accepting or dismissing', () => {
  const open = decideRecommendationCreate(caller, flock, body, false, new Date('2026-03-01T00:00:00.000Z')).recommendation;

  it('decides an open recommendation once, with who, when and the note', () => {
    const d = decideRecommendationOutcome(caller, open, 'dismissed', { note: ' not now ' }, now);
    expect(d.next).toMatchObject({ status: 'dismissed', decidedAt: now.toISOString(), decidedBy: caller.id, decisionNote: 'not now', version: 2 });
    expect(d.audit[0]).toMatchObject({ action: 'recommendation.dismiss', changes: { status: { from: 'open', to: 'dismissed' } } });
    expect(d.changes).toEqual([{ type: 'recommendation', id: open.id, op: 'upsert', version: 2, farmIds: ['f1'] }]);
  });

  it('refuses a decided one naming its state', () => {
    const accepted: RecommendationRecord = { ...open, status: 'accepted' };
    expect(() => decideRecommendationOutcome(caller, accepted, 'dismissed', {}, now)).toThrow(Conflict);
    expect(() => decideRecommendationOutcome(caller, accepted, 'dismissed', {}, now)).toThrow(`Recommendation ${open.id} is already accepted`);
  });
});

import { ulid } from 'ulidx';
import { Conflict } from '../../errors.js';
import type { Caller } from '../caller.js';
import { type AuditEvent, type ResourceChange, upsertOf } from '../decision.js';
import type { Proposal } from '../optimization.js';
import { cycleNotFound } from '../references.js';
import type { RecommendationRecord } from './records.js';
import type { CreateRecommendationBody, DecideRecommendationBody } from '../../../schemas/optimization.js';

/**
 * Recommendations, decided without I/O: one a person writes, the system's proposals for a cycle (each
 * rule once per cycle), and the one decision a recommendation takes (open → accepted | dismissed).
 */

/** The flock a recommendation is for, as read (already scoped to the caller). */
export interface RecommendationFlock {
  id: string;
  farmId: string;
  activeCycleId: string | null;
}

type Content = Pick<RecommendationRecord, 'cycleId' | 'category' | 'priority' | 'description' | 'expectedBenefit' | 'source' | 'rule' | 'evidence'>;

const created = (r: RecommendationRecord): ResourceChange => upsertOf('recommendation', r);

/** A new, undecided recommendation for a flock. */
function openRecommendation(caller: Caller, flock: RecommendationFlock, content: Content, now: Date): RecommendationRecord {
  const at = now.toISOString();
  return {
    id: ulid(),
    farmId: flock.farmId,
    flockId: flock.id,
    ...content,
    status: 'open',
    decidedAt: null,
    decidedBy: null,
    decisionNote: null,
    createdAt: at,
    createdBy: caller.id,
    updatedAt: at,
    version: 1,
  };
}

/** Whether the cycle a body names must be read: any cycle of the flock but its active one (the flock names that one). */
export const namesOtherCycle = (flock: RecommendationFlock, body: Pick<CreateRecommendationBody, 'cycleId'>): body is { cycleId: string } =>
  Boolean(body.cycleId) && body.cycleId !== flock.activeCycleId;

/**
 * A person's recommendation for a flock, for the cycle named (any cycle of the flock, a closed one too: a
 * lesson for the next cycle; `cycleFound` says whether another than the active one was found) or the
 * active one.
 */
export function decideRecommendationCreate(caller: Caller, flock: RecommendationFlock, body: CreateRecommendationBody, cycleFound: boolean, now: Date) {
  if (namesOtherCycle(flock, body) && !cycleFound) throw cycleNotFound(flock.id, body.cycleId);
  const recommendation = openRecommendation(
    caller,
    flock,
    {
      cycleId: body.cycleId ?? flock.activeCycleId ?? null,
      category: body.category,
      priority: body.priority ?? 'medium',
      description: body.description.trim(),
      expectedBenefit: body.expectedBenefit.trim(),
      source: 'user',
      rule: null,
      evidence: [],
    },
    now,
  );
  const audit: AuditEvent[] = [
    {
      action: 'recommendation.create',
      targetType: 'recommendation',
      targetId: recommendation.id,
      changes: { flockId: recommendation.flockId, category: recommendation.category },
    },
  ];
  return { recommendation, audit, changes: [created(recommendation)] };
}

/** A system proposal of a rule: its recommendation and what its guard item is keyed by (the cycle and the rule). */
export type ProposedRecommendation = RecommendationRecord & { cycleId: string; rule: string };

/**
 * The proposals the rules found for a cycle, in their order: a rule that already proposed for it is
 * skipped (`recommendation` absent); each other one is a recommendation with its evidence, committed on its
 * own (its guard keeps it to once per cycle).
 */
export function decideProposals(
  caller: Caller,
  flock: RecommendationFlock,
  cycleId: string,
  found: readonly Proposal[],
  already: ReadonlySet<string>,
  now: Date,
) {
  return found.map(({ rule, category, priority, description, expectedBenefit, evidence }) => {
    if (already.has(rule)) return { rule };
    const content = { cycleId, category, priority, description, expectedBenefit, source: 'system' as const, rule, evidence };
    const recommendation = openRecommendation(caller, flock, content, now) as ProposedRecommendation;
    const audit: AuditEvent[] = [{ action: 'recommendation.propose', targetType: 'recommendation', targetId: recommendation.id, changes: { rule, cycleId } }];
    return { rule, recommendation, audit, changes: [created(recommendation)] };
  });
}

/** open → accepted | dismissed, once (the version already compared): a decided recommendation is a Conflict naming its state. */
export function decideRecommendationOutcome(
  caller: Caller,
  current: RecommendationRecord,
  outcome: 'accepted' | 'dismissed',
  body: DecideRecommendationBody,
  now: Date,
) {
  if (current.status !== 'open') throw new Conflict(`Recommendation ${current.id} is already ${current.status}`);
  const at = now.toISOString();
  const next: RecommendationRecord = {
    ...current,
    status: outcome,
    decidedAt: at,
    decidedBy: caller.id,
    decisionNote: body.note?.trim() ?? null,
    updatedAt: at,
    version: current.version + 1,
  };
  const audit: AuditEvent[] = [
    {
      action: `recommendation.${outcome === 'accepted' ? 'accept' : 'dismiss'}`,
      targetType: 'recommendation',
      targetId: current.id,
      changes: { status: { from: 'open', to: outcome } },
    },
  ];
  return { next, audit, changes: [created(next)] };
}

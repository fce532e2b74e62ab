import { ulid } from 'ulidx';
import { canAccessFarm } from '../domain/farm-access.js';
import { expectedVersion, type Precondition } from '../domain/concurrency.js';
import { auditPut } from '../db/audit.js';
import { getCycle } from '../db/cycles.js';
import {
  createRecommendations,
  getRecommendation,
  listRecommendations,
  proposalPut,
  proposedRules,
  recommendationPut,
  saveDecision,
  type RecommendationRecord,
} from '../db/recommendations.js';
import { thresholdBreaches } from '../domain/analytics/threshold-breaches.js';
import { compareWithStandard } from '../domain/analytics/comparison.js';
import { cycleKpis } from '../domain/analytics/kpis/cycle.js';
import { dailySeries } from '../domain/analytics/kpis/daily.js';
import { proposals, RULE_IDS } from '../domain/optimization.js';
import { cycleAnalyticsContext } from './analytics.js';
import { Conflict, NotFound, ValidationFailed } from '../errors.js';
import type { Caller } from '../domain/caller.js';
import { farmOfRequest } from './farms.js';
import { cycleNotFound } from './references.js';
import { scopedFlock } from './flocks.js';
import { DuplicateRequest, idempotent } from './idempotency.js';
import type { CreateRecommendationBody, DecideRecommendationBody, GenerateRecommendationsBody, ListRecommendationsQuery } from '../../schemas/optimization.js';

/**
 * Optimization recommendations (the interface contract's POST, with `manage_system`): people write them,
 * the system proposes them from analytics (shared/services/proposals.ts), managers accept or dismiss
 * them. Scoped by the flock's farm like every farm record (another farm's recommendation is NotFound).
 */
export const toRecommendationDto = (r: RecommendationRecord) => ({ ...r });

type RecommendationContent = Pick<
  RecommendationRecord,
  'cycleId' | 'category' | 'priority' | 'description' | 'expectedBenefit' | 'source' | 'rule' | 'evidence'
>;

/** A new, undecided recommendation for a flock. */
function openRecommendation(user: Caller, flock: { id: string; farmId: string }, content: RecommendationContent): RecommendationRecord {
  const now = new Date().toISOString();
  return {
    id: ulid(),
    farmId: flock.farmId,
    flockId: flock.id,
    ...content,
    status: 'open',
    decidedAt: null,
    decidedBy: null,
    decisionNote: null,
    createdAt: now,
    createdBy: user.id,
    updatedAt: now,
    version: 1,
  };
}

export async function createRecommendationFor(user: Caller, body: CreateRecommendationBody, requestId: string, idempotencyKey: string | undefined) {
  return idempotent(user.id, idempotencyKey, 'recommendation', body, async (remember) => {
    const flock = await scopedFlock(user, body.flockId);
    const cycleId = body.cycleId ?? flock.activeCycleId;
    // any cycle of the flock may be named, a closed one too (a lesson for the next cycle)
    if (body.cycleId && body.cycleId !== flock.activeCycleId && !(await getCycle(flock.id, body.cycleId))) {
      throw cycleNotFound(flock.id, body.cycleId);
    }
    const rec = openRecommendation(user, flock, {
      cycleId: cycleId ?? null,
      category: body.category,
      priority: body.priority ?? 'medium',
      description: body.description.trim(),
      expectedBenefit: body.expectedBenefit.trim(),
      source: 'user',
      rule: null,
      evidence: [],
    });
    const response = { created: true, message: 'Recommendation created', data: toRecommendationDto(rec) };
    await createRecommendations(
      [
        recommendationPut(rec),
        ...remember(response),
        auditPut({
          actorId: user.id,
          action: 'recommendation.create',
          targetType: 'recommendation',
          targetId: rec.id,
          changes: { flockId: rec.flockId, category: rec.category },
          requestId,
        }),
      ],
      (index) => (index === 1 ? new DuplicateRequest() : new Conflict('Recommendation id collision; retry')),
    );
    return response;
  });
}

export async function scopedRecommendation(user: Caller, id: string): Promise<RecommendationRecord> {
  const rec = await getRecommendation(id);
  if (!rec || !canAccessFarm(user, rec.farmId)) throw new NotFound(`Recommendation ${id} not found`);
  return rec;
}

export async function listRecommendationsFor(user: Caller, query: ListRecommendationsQuery) {
  const limit = query.limit ?? 25;
  const filter = { status: query.status, category: query.category, source: query.source };
  if (query.flockId) {
    const flock = await scopedFlock(user, query.flockId);
    if (query.farmId !== undefined && query.farmId !== flock.farmId)
      throw new ValidationFailed([{ field: 'farmId', message: `flock ${flock.id} is not on farm ${query.farmId}` }]);
    return { ...(await listRecommendations({ flockId: flock.id }, filter, { limit, cursor: query.cursor })), limit };
  }
  const farmId = farmOfRequest(user, query.farmId);
  return { ...(await listRecommendations({ farmId }, filter, { limit, cursor: query.cursor })), limit };
}

/** open → accepted | dismissed, once; a decided recommendation is a Conflict naming its state. */
export async function decideRecommendation(
  user: Caller,
  id: string,
  decision: 'accepted' | 'dismissed',
  body: DecideRecommendationBody,
  precondition: Precondition | undefined,
  requestId: string,
): Promise<RecommendationRecord> {
  const rec = await scopedRecommendation(user, id);
  const version = expectedVersion(rec.version, { precondition, stated: body.version }, `Recommendation ${id}`);
  if (rec.status !== 'open') throw new Conflict(`Recommendation ${id} is already ${rec.status}`);
  const now = new Date().toISOString();
  const next: RecommendationRecord = {
    ...rec,
    status: decision,
    decidedAt: now,
    decidedBy: user.id,
    decisionNote: body.note?.trim() ?? null,
    updatedAt: now,
    version: version + 1,
  };
  await saveDecision(next, version, [
    auditPut({
      actorId: user.id,
      action: `recommendation.${decision === 'accepted' ? 'accept' : 'dismiss'}`,
      targetType: 'recommendation',
      targetId: id,
      changes: { status: { from: 'open', to: decision } },
      requestId,
    }),
  ]);
  return next;
}

/**
 * Runs the proposal rules (shared/domain/optimization.ts) on a cycle's analytics and records the new
 * proposals, each with its evidence; a rule that already proposed for this cycle is not proposed again
 * (its guard item makes concurrent runs safe too). Answers what was created and what was skipped.
 */
export async function generateProposals(user: Caller, body: GenerateRecommendationsBody, requestId: string) {
  const flock = await scopedFlock(user, body.flockId);
  const cycleId = body.cycleId ?? flock.activeCycleId;
  if (!cycleId) throw new ValidationFailed([{ field: 'cycleId', message: `is required: flock ${flock.id} has no active cycle` }]);
  const ctx = await cycleAnalyticsContext(user, flock.id, cycleId);
  const series = dailySeries(ctx.inputs, ctx.config);
  const comparison = compareWithStandard(ctx.inputs, ctx.config, series);
  const found = proposals({
    kpis: cycleKpis(ctx.inputs, ctx.config, series),
    comparison,
    anomalies: thresholdBreaches(ctx.inputs, ctx.config, { series, comparison }),
    config: ctx.config,
    asOf: ctx.inputs.asOf,
  });
  const already = await proposedRules(cycleId);
  const created: RecommendationRecord[] = [];
  const skipped: string[] = [];
  for (const p of found) {
    if (already.has(p.rule)) {
      skipped.push(p.rule);
      continue;
    }
    const rec = openRecommendation(user, flock, {
      cycleId,
      category: p.category,
      priority: p.priority,
      description: p.description,
      expectedBenefit: p.expectedBenefit,
      source: 'system',
      rule: p.rule,
      evidence: p.evidence,
    }) as RecommendationRecord & { cycleId: string; rule: string };
    try {
      await createRecommendations(
        [
          proposalPut(rec),
          recommendationPut(rec),
          auditPut({
            actorId: user.id,
            action: 'recommendation.propose',
            targetType: 'recommendation',
            targetId: rec.id,
            changes: { rule: p.rule, cycleId },
            requestId,
          }),
        ],
        () => new Conflict(p.rule),
      );
      created.push(rec);
    } catch (err) {
      if (!(err instanceof Conflict)) throw err;
      skipped.push(p.rule); // a concurrent run proposed it first
    }
  }
  return { cycleId, created, alreadyProposed: skipped, checked: RULE_IDS };
}

import { ulid } from 'ulidx';
import { getCycle } from '../db/cycles.js';
import { checkVersion, commit } from '../db/commit.js';
import {
  decisionWrite,
  getRecommendation,
  listRecommendations,
  proposalGuard,
  proposedRules,
  recommendationCreate,
  type RecommendationRecord,
} from '../db/recommendations.js';
import { thresholdBreaches } from '../domain/analytics/threshold-breaches.js';
import { compareWithStandard } from '../domain/analytics/comparison.js';
import { cycleKpis } from '../domain/analytics/kpis/cycle.js';
import { dailySeries } from '../domain/analytics/kpis/daily.js';
import type { Caller } from '../domain/caller.js';
import type { CommandContext } from '../domain/command.js';
import { visibleTo } from '../domain/farm-access.js';
import { proposals, RULE_IDS } from '../domain/optimization.js';
import { Conflict, NotFound, ValidationFailed } from '../errors.js';
import { cycleAnalyticsContext } from './analytics/cycle-context.js';
import { farmOfRequest } from './farms.js';
import { scopedFlock } from './flocks/flocks.js';
import { idempotentCommand } from './idempotency.js';
import { cycleNotFound } from './references.js';
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
function openRecommendation(ctx: CommandContext, flock: { id: string; farmId: string }, content: RecommendationContent): RecommendationRecord {
  const now = ctx.now.toISOString();
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
    createdBy: ctx.caller.id,
    updatedAt: now,
    version: 1,
  };
}

export async function createRecommendationFor(ctx: CommandContext, body: CreateRecommendationBody) {
  return idempotentCommand(ctx, 'recommendation', body, async (ctx) => {
    const flock = await scopedFlock(ctx.caller, body.flockId);
    const cycleId = body.cycleId ?? flock.activeCycleId;
    // any cycle of the flock may be named, a closed one too (a lesson for the next cycle)
    if (body.cycleId && body.cycleId !== flock.activeCycleId && !(await getCycle(flock.id, body.cycleId))) {
      throw cycleNotFound(flock.id, body.cycleId);
    }
    const rec = openRecommendation(ctx, flock, {
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
    await commit(ctx, {
      writes: [recommendationCreate(rec)],
      audit: [{ action: 'recommendation.create', targetType: 'recommendation', targetId: rec.id, changes: { flockId: rec.flockId, category: rec.category } }],
      changes: [{ type: 'recommendation', id: rec.id, op: 'upsert', version: 1 }],
      response,
    });
    return response;
  });
}

export async function scopedRecommendation(user: Caller, id: string): Promise<RecommendationRecord> {
  return visibleTo(user, await getRecommendation(id), () => new NotFound(`Recommendation ${id} not found`));
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
  ctx: CommandContext,
  id: string,
  decision: 'accepted' | 'dismissed',
  body: DecideRecommendationBody,
): Promise<RecommendationRecord> {
  const rec = await scopedRecommendation(ctx.caller, id);
  const version = { read: rec.version, what: `Recommendation ${id}`, stated: body.version, subject: true };
  checkVersion(ctx, version);
  if (rec.status !== 'open') throw new Conflict(`Recommendation ${id} is already ${rec.status}`);
  const now = ctx.now.toISOString();
  const next: RecommendationRecord = {
    ...rec,
    status: decision,
    decidedAt: now,
    decidedBy: ctx.caller.id,
    decisionNote: body.note?.trim() ?? null,
    updatedAt: now,
    version: rec.version + 1,
  };
  await commit(ctx, {
    writes: [decisionWrite(next, version)],
    audit: [
      {
        action: `recommendation.${decision === 'accepted' ? 'accept' : 'dismiss'}`,
        targetType: 'recommendation',
        targetId: id,
        changes: { status: { from: 'open', to: decision } },
      },
    ],
    changes: [{ type: 'recommendation', id, op: 'upsert', version: next.version }],
  });
  return next;
}

/**
 * Runs the proposal rules (shared/domain/optimization.ts) on a cycle's analytics and records the new
 * proposals, each with its evidence; a rule that already proposed for this cycle is not proposed again
 * (its guard item makes concurrent runs safe too). Answers what was created and what was skipped.
 */
export async function generateProposals(ctx: CommandContext, body: GenerateRecommendationsBody) {
  const flock = await scopedFlock(ctx.caller, body.flockId);
  const cycleId = body.cycleId ?? flock.activeCycleId;
  if (!cycleId) throw new ValidationFailed([{ field: 'cycleId', message: `is required: flock ${flock.id} has no active cycle` }]);
  const analytics = await cycleAnalyticsContext(ctx.caller, flock.id, cycleId);
  const series = dailySeries(analytics.inputs, analytics.config);
  const comparison = compareWithStandard(analytics.inputs, analytics.config, series);
  const found = proposals({
    kpis: cycleKpis(analytics.inputs, analytics.config, series),
    comparison,
    breaches: thresholdBreaches(analytics.inputs, analytics.config, { series, comparison }),
    config: analytics.config,
    asOf: analytics.inputs.asOf,
  });
  const already = await proposedRules(cycleId);
  const created: RecommendationRecord[] = [];
  const skipped: string[] = [];
  for (const p of found) {
    if (already.has(p.rule)) {
      skipped.push(p.rule);
      continue;
    }
    const rec = openRecommendation(ctx, flock, {
      cycleId,
      category: p.category,
      priority: p.priority,
      description: p.description,
      expectedBenefit: p.expectedBenefit,
      source: 'system',
      rule: p.rule,
      evidence: p.evidence,
    }) as RecommendationRecord & { cycleId: string; rule: string };
    // one commit per proposal: one a concurrent run made first is skipped, the others are still created
    try {
      await commit(ctx, {
        writes: [proposalGuard(rec), recommendationCreate(rec)],
        audit: [{ action: 'recommendation.propose', targetType: 'recommendation', targetId: rec.id, changes: { rule: p.rule, cycleId } }],
        changes: [{ type: 'recommendation', id: rec.id, op: 'upsert', version: 1 }],
      });
      created.push(rec);
    } catch (err) {
      if (!(err instanceof Conflict)) throw err;
      skipped.push(p.rule); // a concurrent run proposed it first
    }
  }
  return { cycleId, created, alreadyProposed: skipped, checked: RULE_IDS };
}

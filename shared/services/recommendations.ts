import { getCycle } from '../db/cycles.js';
import { checkVersion, commit } from '../db/commit.js';
import { decisionWrite, getRecommendation, listRecommendations, proposalGuard, proposedRules, recommendationCreate } from '../db/recommendations.js';
import { thresholdBreaches } from '../domain/analytics/threshold-breaches.js';
import { compareWithStandard } from '../domain/analytics/comparison.js';
import { cycleKpis } from '../domain/analytics/kpis/cycle.js';
import { dailySeries } from '../domain/analytics/kpis/daily.js';
import type { Caller } from '../domain/caller.js';
import type { CommandContext } from '../domain/command.js';
import { visibleTo } from '../domain/farm-access.js';
import { proposals, RULE_IDS } from '../domain/optimization.js';
import {
  decideProposals,
  decideRecommendationCreate,
  decideRecommendationOutcome,
  namesOtherCycle,
  type ProposedRecommendation,
} from '../domain/recommendations/decisions.js';
import type { RecommendationRecord } from '../domain/recommendations/records.js';
import { Conflict, NotFound, ValidationFailed } from '../errors.js';
import { cycleAnalyticsContext } from './analytics/cycle-context.js';
import { farmOfRequest } from './farms.js';
import { scopedFlock } from './flocks/flocks.js';
import { idempotentCommand } from './idempotency.js';
import type { CreateRecommendationBody, DecideRecommendationBody, GenerateRecommendationsBody, ListRecommendationsQuery } from '../../schemas/optimization.js';

/**
 * Optimization recommendations (the interface contract's POST, with `manage_system`): people write them,
 * the system proposes them from analytics, managers accept or dismiss them. Scoped by the flock's farm
 * like every farm record (another farm's recommendation is NotFound). Decided in
 * shared/domain/recommendations/decisions.ts.
 */
export const toRecommendationDto = (r: RecommendationRecord) => ({ ...r });

export async function createRecommendationFor(ctx: CommandContext, body: CreateRecommendationBody) {
  return idempotentCommand(ctx, 'recommendation', body, async (ctx) => {
    const flock = await scopedFlock(ctx.caller, body.flockId);
    // any cycle of the flock may be named, a closed one too: read only when it is not the active one
    const cycleFound = namesOtherCycle(flock, body) ? (await getCycle(flock.id, body.cycleId)) !== undefined : false;
    const { recommendation, audit, changes } = decideRecommendationCreate(ctx.caller, flock, body, cycleFound, ctx.now);
    const response = { created: true, message: 'Recommendation created', data: toRecommendationDto(recommendation) };
    await commit(ctx, { writes: [recommendationCreate(recommendation)], audit, changes, response });
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
  const { next, audit, changes } = decideRecommendationOutcome(ctx.caller, rec, decision, body, ctx.now);
  await commit(ctx, { writes: [decisionWrite(next, version)], audit, changes });
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
  const created: ProposedRecommendation[] = [];
  const skipped: string[] = [];
  for (const p of decideProposals(ctx.caller, flock, cycleId, found, await proposedRules(cycleId), ctx.now)) {
    if (!p.recommendation) {
      skipped.push(p.rule);
      continue;
    }
    // one commit per proposal: one a concurrent run made first is skipped, the others are still created
    try {
      await commit(ctx, { writes: [proposalGuard(p.recommendation), recommendationCreate(p.recommendation)], audit: p.audit, changes: p.changes });
      created.push(p.recommendation);
    } catch (err) {
      if (!(err instanceof Conflict)) throw err;
      skipped.push(p.rule); // a concurrent run proposed it first
    }
  }
  return { cycleId, created, alreadyProposed: skipped, checked: RULE_IDS };
}

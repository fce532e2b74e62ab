import { checkVersion, commit, type Versioned } from '../../db/commit.js';
import { getFarmAndHouse } from '../../db/farms.js';
import { getFlock } from '../../db/flocks.js';
import { getRuleWithStates, listRulesOfFarm, ruleCreation, ruleDeletion, ruleNotFound, ruleReplace } from '../../db/rules.js';
import { seenAt } from '../../domain/anomalies/lifecycle.js';
import type { Caller } from '../../domain/caller.js';
import type { CommandContext } from '../../domain/command.js';
import { unchanged } from '../../domain/decision.js';
import { visibleTo } from '../../domain/farm-access.js';
import { CALCULATIONS, inputOf } from '../../domain/rules/calculations.js';
import {
  decideRuleChange,
  decideRuleCreate,
  decideRuleDeletion,
  patchedRuleBody,
  ruleFieldsOf,
  type RuleFields,
  type ScopeFacts,
} from '../../domain/rules/definitions.js';
import { NO_TARGET, type RuleRecord, type RuleState } from '../../domain/rules/records.js';
import { durationOfMinutes } from '../../domain/rules/windows.js';
import { farmOfRequest } from '../farms.js';
import { idempotentCommand } from '../idempotency.js';
import type { CreateRuleBody, ListRulesQuery, ReplaceRuleBody, UpdateRuleBody } from '../../../schemas/rules.js';

/**
 * Rules (`/api/v1/rules`): alarms as data, scoped to a farm, a house or a flock. This module keeps them
 * (create with an Idempotency-Key; replace, change, delete with If-Match; every change audited) and
 * answers the calculation catalogue; ./evaluation.ts evaluates them. A rule of another farm does not
 * exist for the caller.
 */

export type RuleDto = ReturnType<typeof toRuleDto>;

/** A state's instant (a bucket's end) as a person reads it: not after the moment it was recorded (`ran`), when that is known. */
const earliest = (at: string | null, ran: string | null) => (at === null || ran === null ? at : seenAt(at, ran));

export function toRuleDto(r: RuleRecord, states: readonly RuleState[] = []) {
  const input = inputOf(r.input);
  return {
    id: r.id,
    farmId: r.farmId,
    name: r.name,
    scope: r.scope,
    input: r.input,
    inputKind: input?.kind ?? 'calculation',
    basis: input?.basis ?? 'day',
    unit: input?.unit ?? '',
    window: r.window,
    aggregation: r.aggregation,
    condition: r.condition,
    severity: r.severity,
    actions: r.actions,
    cooldown: durationOfMinutes(r.cooldownMinutes),
    cooldownMinutes: r.cooldownMinutes,
    enabled: r.enabled,
    defaultKey: r.defaultKey,
    status: states
      // the scope's "nothing to judge" stands only while no flock or house was judged since the last change
      .filter((s) => s.ruleVersion === r.version && (s.target !== NO_TARGET || states.every((o) => o.target === NO_TARGET || o.ruleVersion !== r.version)))
      .map((s) => ({
        target: s.target,
        state: s.state,
        reason: s.reason,
        // when it ran and fired, as a person reads them: never after the moment they happened (a day judged before it ended)
        lastEvaluatedAt: earliest(s.lastEvaluatedAt, s.evaluatedAt),
        lastFiredAt: earliest(s.lastFiredAt, s.firedAt),
        judgedUntil: s.lastEvaluatedAt,
      })),
    createdBy: r.createdBy,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    version: r.version,
  };
}

/** The catalogue of GET /rules/metadata/calculations: the KPI engine's templates, then the sensor metrics a rule may read directly. */
export function calculationCatalogue() {
  return CALCULATIONS.map((c) => ({ ...c, kind: inputOf(c.id)?.kind ?? 'calculation' }));
}

/**
 * What a rule's scope names, read once its definition is checked: the house (with its farm) and the flock
 * (one or two GetItems).
 */
async function scopeFacts(scope: RuleRecord['scope']): Promise<ScopeFacts> {
  const [{ house }, flock] = await Promise.all([
    scope.houseId ? getFarmAndHouse(scope.farmId, scope.houseId) : Promise.resolve({ house: undefined }),
    scope.flockId ? getFlock(scope.flockId) : Promise.resolve(undefined),
  ]);
  return { house, flock };
}

/** Creates a rule; with an Idempotency-Key a retry gets the first answer and another body with the same key is refused. */
export async function createRuleFor(ctx: CommandContext, body: CreateRuleBody) {
  return idempotentCommand(ctx, 'rule', body, async (ctx) => {
    const fields = ruleFieldsOf(ctx.caller, body);
    const { rule, audit, changes } = decideRuleCreate(ctx.caller, fields, await scopeFacts(fields.scope), ctx.now);
    const response = { created: true, message: 'Rule created', data: toRuleDto(rule) };
    await commit(ctx, { writes: ruleCreation(rule), audit, changes, response });
    return response;
  });
}

/** The rule and its states if the caller may see it (one Query); else the one NotFound. */
async function visibleRule(user: Caller, id: string) {
  return visibleTo(
    user,
    await getRuleWithStates(id),
    () => ruleNotFound(id),
    (found) => found.rule.farmId,
  );
}

/** The version of a rule a change is decided on: If-Match or a stated `version`, checked before the definition is. */
function versionOf(ctx: CommandContext, rule: RuleRecord, stated?: number): Versioned {
  const version = { read: rule.version, what: `Rule ${rule.id}`, stated, subject: true };
  checkVersion(ctx, version);
  return version;
}

export async function ruleFor(user: Caller, id: string) {
  const { rule, states } = await visibleRule(user, id);
  return toRuleDto(rule, states);
}

export async function listRulesFor(user: Caller, query: ListRulesQuery) {
  const farmId = farmOfRequest(user, query.farmId);
  const limit = query.limit ?? 25;
  const page = await listRulesOfFarm(farmId, { enabled: query.enabled, input: query.input }, { limit, cursor: query.cursor });
  return { items: page.items.map((r) => toRuleDto(r)), limit, nextCursor: page.nextCursor };
}

async function writeChange(ctx: CommandContext, current: RuleRecord, version: Versioned, fields: RuleFields, states: readonly RuleState[]) {
  const decision = decideRuleChange(current, fields, await scopeFacts(fields.scope), ctx.now);
  if (unchanged(decision.change)) return toRuleDto(current, states);
  const { next } = decision.change;
  await commit(ctx, { writes: [ruleReplace(next, version)], audit: decision.audit, changes: decision.changes });
  // the states were computed with the old definition: the next evaluation starts afresh
  return toRuleDto(next, []);
}

/** PUT: the whole definition again; If-Match or `version`. */
export async function replaceRuleFor(ctx: CommandContext, id: string, body: ReplaceRuleBody) {
  const { rule, states } = await visibleRule(ctx.caller, id);
  const version = versionOf(ctx, rule, body.version);
  return writeChange(ctx, rule, version, ruleFieldsOf(ctx.caller, body), states);
}

/** PATCH: the named fields; the result is checked as a whole (a new input may need another window). */
export async function updateRuleFor(ctx: CommandContext, id: string, body: UpdateRuleBody) {
  const { rule, states } = await visibleRule(ctx.caller, id);
  const version = versionOf(ctx, rule, body.version);
  return writeChange(ctx, rule, version, ruleFieldsOf(ctx.caller, patchedRuleBody(rule, body)), states);
}

export async function deleteRuleFor(ctx: CommandContext, id: string): Promise<void> {
  const { rule, states } = await visibleRule(ctx.caller, id);
  const version = versionOf(ctx, rule);
  await commit(ctx, { writes: ruleDeletion(rule, version, states), ...decideRuleDeletion(rule) });
}

import { ulid } from 'ulidx';
import { checkVersion, commit, type Versioned } from '../../db/commit.js';
import { getFarmAndHouse, houseNotFound } from '../../db/farms.js';
import { farmNotFound } from '../../domain/references.js';
import { getFlock } from '../../db/flocks.js';
import {
  getRuleWithStates,
  listRulesOfFarm,
  NO_TARGET,
  ruleCreation,
  ruleDeletion,
  ruleNotFound,
  ruleReplace,
  type RuleRecord,
  type RuleState,
} from '../../db/rules.js';
import { diff } from '../../domain/accounts.js';
import { seenAt } from '../../domain/anomalies.js';
import type { Caller } from '../../domain/caller.js';
import type { CommandContext } from '../../domain/command.js';
import { canAccessFarm, visibleTo } from '../../domain/farm-access.js';
import { CALCULATIONS, inputOf } from '../../domain/rules/calculations.js';
import { conditionProblem, type RuleCondition } from '../../domain/rules/conditions.js';
import { parseWindow, windowProblem, cooldownMinutesOf, durationOfMinutes } from '../../domain/rules/windows.js';
import { ValidationFailed } from '../../errors.js';
import { farmOfRequest } from '../farms.js';
import { idempotentCommand } from '../idempotency.js';
import { flockNotFound } from '../references.js';
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

/** The condition as the evaluation engine takes it: a short form as is, anything else is json-logic. */
export const domainCondition = (c: Record<string, unknown>): RuleCondition => ('op' in c ? (c as RuleCondition) : { logic: c });

/** The catalogue of GET /rules/metadata/calculations: the KPI engine's templates, then the sensor metrics a rule may read directly. */
export function calculationCatalogue() {
  return CALCULATIONS.map((c) => ({ ...c, kind: inputOf(c.id)?.kind ?? 'calculation' }));
}

type RuleFields = Pick<
  RuleRecord,
  'name' | 'scope' | 'input' | 'window' | 'aggregation' | 'condition' | 'severity' | 'actions' | 'cooldownMinutes' | 'enabled'
>;

/** Every problem of a rule's definition, by field (the input exists, the window suits it, the condition is one the engine runs). */
function definitionProblems(f: RuleFields): Array<{ field: string; message: string }> {
  const problems: Array<{ field: string; message: string }> = [];
  const input = inputOf(f.input);
  if (!input) problems.push({ field: 'input', message: `unknown input "${f.input}": see GET /api/v1/rules/metadata/calculations` });
  const windowIssue = input ? windowProblem(f.window, input.basis) : null;
  if (windowIssue) problems.push({ field: 'window', message: windowIssue });
  if (input?.appliesTo === 'farm' && (f.scope.houseId || f.scope.flockId)) {
    const field = f.scope.houseId ? 'scope.houseId' : 'scope.flockId';
    problems.push({ field, message: `${f.input} is a farm-level input: scope the rule to the farm alone` });
  }
  const conditionIssue = conditionProblem(domainCondition(f.condition));
  if (conditionIssue) problems.push({ field: 'condition', message: conditionIssue });
  return problems;
}

/**
 * The scope's house and flock must be of its farm (else the 404 of a missing one), and the flock in that
 * house when both are named (one or two GetItems).
 */
async function scopeOrThrow(scope: RuleRecord['scope']): Promise<void> {
  const [{ house }, flock] = await Promise.all([
    scope.houseId ? getFarmAndHouse(scope.farmId, scope.houseId) : Promise.resolve({ house: undefined }),
    scope.flockId ? getFlock(scope.flockId) : Promise.resolve(undefined),
  ]);
  if (scope.houseId && !house) throw houseNotFound(scope.houseId);
  if (scope.flockId && flock?.farmId !== scope.farmId) throw flockNotFound(scope.flockId);
  if (scope.flockId && scope.houseId && flock && flock.houseId !== scope.houseId)
    throw new ValidationFailed([{ field: 'scope.flockId', message: `flock ${scope.flockId} is not in house ${scope.houseId}` }]);
}

/** The window's length in minutes: a rule's default cooldown (one firing per window). */
const windowMinutes = (window: string): number => {
  const parsed = parseWindow(window);
  return 'ms' in parsed ? Math.round(parsed.ms / 60_000) : 0;
};

/** The cooldown a body states, in minutes (`cooldown` as an ISO 8601 duration, or `cooldownMinutes`); undefined when it states none. */
function cooldownOf(body: { cooldown?: string | undefined; cooldownMinutes?: number | undefined }): number | undefined {
  if (body.cooldown === undefined) return body.cooldownMinutes;
  if (body.cooldownMinutes !== undefined) throw new ValidationFailed([{ field: 'cooldown', message: 'send cooldown or cooldownMinutes, not both' }]);
  const parsed = cooldownMinutesOf(body.cooldown);
  if ('problem' in parsed) throw new ValidationFailed([{ field: 'cooldown', message: parsed.problem }]);
  return parsed.minutes;
}

async function checkedFields(user: Caller, body: CreateRuleBody | ReplaceRuleBody): Promise<RuleFields> {
  if (!canAccessFarm(user, body.scope.farmId)) throw farmNotFound(body.scope.farmId);
  const fields: RuleFields = {
    name: body.name.trim(),
    scope: {
      farmId: body.scope.farmId,
      ...(body.scope.houseId ? { houseId: body.scope.houseId } : {}),
      ...(body.scope.flockId ? { flockId: body.scope.flockId } : {}),
    },
    input: body.input,
    window: body.window,
    aggregation: body.aggregation,
    condition: body.condition as Record<string, unknown>,
    severity: body.severity,
    actions: body.actions,
    cooldownMinutes: cooldownOf(body) ?? windowMinutes(body.window),
    enabled: body.enabled ?? true,
  };
  const problems = definitionProblems(fields);
  if (problems.length > 0) throw new ValidationFailed(problems);
  await scopeOrThrow(fields.scope);
  return fields;
}

/** Creates a rule; with an Idempotency-Key a retry gets the first answer and another body with the same key is refused. */
export async function createRuleFor(ctx: CommandContext, body: CreateRuleBody) {
  return idempotentCommand(ctx, 'rule', body, async (ctx) => {
    const fields = await checkedFields(ctx.caller, body);
    const now = ctx.now.toISOString();
    const rule: RuleRecord = {
      id: ulid(),
      farmId: fields.scope.farmId,
      ...fields,
      defaultKey: null,
      createdBy: ctx.caller.id,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    const response = { created: true, message: 'Rule created', data: toRuleDto(rule) };
    await commit(ctx, {
      writes: ruleCreation(rule),
      audit: [{ action: 'rule.create', targetType: 'rule', targetId: rule.id, changes: fields }],
      changes: [{ type: 'rule', id: rule.id, op: 'upsert', version: 1 }],
      response,
    });
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

const EDITABLE = ['name', 'scope', 'input', 'window', 'aggregation', 'condition', 'severity', 'actions', 'cooldownMinutes', 'enabled'] as const;

async function writeChange(ctx: CommandContext, current: RuleRecord, version: Versioned, fields: RuleFields, states: readonly RuleState[]) {
  if (fields.scope.farmId !== current.farmId) throw new ValidationFailed([{ field: 'scope.farmId', message: `a rule stays in its farm (${current.farmId})` }]);
  const changes = diff<RuleFields>(current, fields, EDITABLE);
  if (Object.keys(changes).length === 0) return toRuleDto(current, states);
  const next: RuleRecord = { ...current, ...fields, version: version.read + 1, updatedAt: ctx.now.toISOString() };
  await commit(ctx, {
    writes: [ruleReplace(next, version)],
    audit: [{ action: 'rule.update', targetType: 'rule', targetId: current.id, changes }],
    changes: [{ type: 'rule', id: current.id, op: 'upsert', version: next.version }],
  });
  // the states were computed with the old definition: the next evaluation starts afresh
  return toRuleDto(next, []);
}

/** PUT: the whole definition again; If-Match or `version`. */
export async function replaceRuleFor(ctx: CommandContext, id: string, body: ReplaceRuleBody) {
  const { rule, states } = await visibleRule(ctx.caller, id);
  const version = versionOf(ctx, rule, body.version);
  return writeChange(ctx, rule, version, await checkedFields(ctx.caller, body), states);
}

/** PATCH: the named fields; the result is checked as a whole (a new input may need another window). */
export async function updateRuleFor(ctx: CommandContext, id: string, body: UpdateRuleBody) {
  const { rule, states } = await visibleRule(ctx.caller, id);
  const version = versionOf(ctx, rule, body.version);
  const { version: _v, ...changes } = body;
  const merged = {
    name: rule.name,
    scope: rule.scope,
    input: rule.input,
    window: rule.window,
    aggregation: rule.aggregation,
    condition: rule.condition,
    severity: rule.severity,
    actions: rule.actions,
    // a new cooldown replaces the stored one, whichever way it is written
    ...(changes.cooldown === undefined ? { cooldownMinutes: rule.cooldownMinutes } : {}),
    enabled: rule.enabled,
    ...changes,
  } as CreateRuleBody;
  return writeChange(ctx, rule, version, await checkedFields(ctx.caller, merged), states);
}

export async function deleteRuleFor(ctx: CommandContext, id: string): Promise<void> {
  const { rule, states } = await visibleRule(ctx.caller, id);
  const version = versionOf(ctx, rule);
  await commit(ctx, {
    writes: ruleDeletion(rule, version, states),
    audit: [{ action: 'rule.delete', targetType: 'rule', targetId: id, changes: { name: rule.name } }],
    changes: [{ type: 'rule', id, op: 'delete' }],
  });
}

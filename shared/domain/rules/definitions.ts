import { ulid } from 'ulidx';
import { ValidationFailed } from '../../errors.js';
import type { Caller } from '../caller.js';
import { diff } from '../changes.js';
import { type AuditEvent, type RecordChange, type ResourceChange, upsertOf, deleteOf } from '../decision.js';
import { canAccessFarm } from '../farm-access.js';
import { farmNotFound, flockNotFound, houseNotFound } from '../references.js';
import { inputOf } from './calculations.js';
import { conditionProblem, type RuleCondition } from './conditions.js';
import type { RuleRecord } from './records.js';
import { cooldownMinutesOf, parseWindow, windowProblem } from './windows.js';
import type { CreateRuleBody, ReplaceRuleBody, UpdateRuleBody } from '../../../schemas/rules.js';

/**
 * Rule definitions, decided without I/O: a body checked into the fields of a rule (its farm is the
 * caller's, its input exists, the window suits it, the condition is one the engine runs), its scope judged
 * against the house and flock read, and the rule created, changed or deleted with its audit events.
 */

export type RuleFields = Pick<
  RuleRecord,
  'name' | 'scope' | 'input' | 'window' | 'aggregation' | 'condition' | 'severity' | 'actions' | 'cooldownMinutes' | 'enabled'
>;

/** The house and flock a rule's scope names, as read (undefined: not named, or not found). */
export interface ScopeFacts {
  house: object | undefined;
  flock: { farmId: string; houseId?: string | null | undefined } | undefined;
}

const EDITABLE = ['name', 'scope', 'input', 'window', 'aggregation', 'condition', 'severity', 'actions', 'cooldownMinutes', 'enabled'] as const;

/** The condition as the evaluation engine takes it: a short form as is, anything else is json-logic. */
export const domainCondition = (c: Record<string, unknown>): RuleCondition => ('op' in c ? (c as RuleCondition) : { logic: c });

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

/**
 * The fields of a rule as a body defines them, checked before anything is read: the farm is the caller's
 * (else the 404 of a missing one), then the cooldown, then every problem of the definition at once.
 */
export function ruleFieldsOf(caller: Caller, body: CreateRuleBody | ReplaceRuleBody): RuleFields {
  if (!canAccessFarm(caller, body.scope.farmId)) throw farmNotFound(body.scope.farmId);
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
  return fields;
}

/** A PATCH as a whole definition: the stored rule with the named fields replaced (a new cooldown replaces the stored one, whichever way it is written). */
export function patchedRuleBody(rule: RuleRecord, body: UpdateRuleBody): CreateRuleBody {
  const { version: _v, ...changes } = body;
  return {
    name: rule.name,
    scope: rule.scope,
    input: rule.input,
    window: rule.window,
    aggregation: rule.aggregation,
    condition: rule.condition,
    severity: rule.severity,
    actions: rule.actions,
    ...(changes.cooldown === undefined ? { cooldownMinutes: rule.cooldownMinutes } : {}),
    enabled: rule.enabled,
    ...changes,
  } as CreateRuleBody;
}

/**
 * The scope's house and flock, as read, must be of its farm (else the 404 of a missing one), and the flock
 * in that house when both are named.
 */
export function judgeRuleScope(scope: RuleRecord['scope'], found: ScopeFacts): void {
  const { house, flock } = found;
  if (scope.houseId && !house) throw houseNotFound(scope.houseId);
  if (scope.flockId && flock?.farmId !== scope.farmId) throw flockNotFound(scope.flockId);
  if (scope.flockId && scope.houseId && flock && flock.houseId !== scope.houseId)
    throw new ValidationFailed([{ field: 'scope.flockId', message: `flock ${scope.flockId} is not in house ${scope.houseId}` }]);
}

const ruleChange = (r: RuleRecord): ResourceChange => upsertOf('rule', r);

/** A new rule of the caller from checked fields whose scope was read as `found`. */
export function decideRuleCreate(caller: Pick<Caller, 'id'>, fields: RuleFields, found: ScopeFacts, now: Date) {
  judgeRuleScope(fields.scope, found);
  const at = now.toISOString();
  const rule: RuleRecord = {
    id: ulid(),
    farmId: fields.scope.farmId,
    ...fields,
    defaultKey: null,
    createdBy: caller.id,
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
  const audit: AuditEvent[] = [{ action: 'rule.create', targetType: 'rule', targetId: rule.id, changes: fields }];
  return { rule, audit, changes: [ruleChange(rule)] };
}

/**
 * A rule's definition replaced by checked fields (its version already compared with the client's): the
 * scope judged, the farm kept; nothing to write when no field differs.
 */
export function decideRuleChange(current: RuleRecord, fields: RuleFields, found: ScopeFacts, now: Date) {
  judgeRuleScope(fields.scope, found);
  if (fields.scope.farmId !== current.farmId) throw new ValidationFailed([{ field: 'scope.farmId', message: `a rule stays in its farm (${current.farmId})` }]);
  const changes = diff<RuleFields>(current, fields, EDITABLE);
  const next: RuleRecord = { ...current, ...fields, version: current.version + 1, updatedAt: now.toISOString() };
  const change: RecordChange<RuleRecord> = { current, next, fields, changes };
  return {
    change,
    audit: [{ action: 'rule.update', targetType: 'rule', targetId: current.id, changes }] as AuditEvent[],
    changes: [ruleChange(next)],
  };
}

/** A rule deleted (its version already compared with the client's), with the states of its targets. */
export function decideRuleDeletion(rule: RuleRecord) {
  return {
    audit: [{ action: 'rule.delete', targetType: 'rule', targetId: rule.id, changes: { name: rule.name } }] as AuditEvent[],
    changes: [deleteOf('rule', rule)],
  };
}

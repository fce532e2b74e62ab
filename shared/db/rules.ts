import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, db, queryAll, tableName } from './client.js';
import type { Versioned, Write } from './commit.js';
import { absent, any, eq, exists, isNew, le, lt } from './conditions.js';
import {
  defaultRulesMarkerKey,
  detectorStateKey,
  ENABLED_RULES,
  farmKey,
  RULE_STATE_SK_PREFIX,
  ruleKey,
  rulePartition,
  rulesOfFarm,
  ruleStateKey,
} from './keys.js';
import { pick } from './items.js';
import { gsi1Page } from './pagination.js';
import { farmNotFound } from '../domain/references.js';
import { Conflict, NotFound } from '../errors.js';
import type { RuleRecord, RuleState } from '../domain/rules/records.js';

/**
 * Rules (docs/data-model.md, "Rules"): `RULE#<id>`/`META` listed per farm through GSI1
 * `RULES#<farmId>` (oldest first); while enabled also on GSI2 `RULES_ENABLED` (`<farmId>#<id>`), which
 * the rule job walks. The evaluation state of each target (a flock or a house) is its own item
 * `STATE#<target>` in the rule's partition, so evaluating never bumps the version a user edits against.
 */
const FIELDS = [
  'id',
  'farmId',
  'name',
  'scope',
  'input',
  'window',
  'aggregation',
  'condition',
  'severity',
  'actions',
  'cooldownMinutes',
  'enabled',
  'defaultKey',
  'createdBy',
  'createdAt',
  'updatedAt',
  'version',
] as const satisfies readonly (keyof RuleRecord)[];
const STATE_FIELDS = [
  'target',
  'state',
  'reason',
  'lastEvaluatedAt',
  'lastFiredAt',
  'evaluatedAt',
  'firedAt',
  'ruleVersion',
] as const satisfies readonly (keyof RuleState)[];

export const ruleNotFound = (id: string) => new NotFound(`Rule ${id} not found`);
const changedConcurrently = (id: string) => new Conflict(`Rule ${id} was changed concurrently; read it again and retry`);

const fromItem = (item: Record<string, unknown>): RuleRecord => pick<RuleRecord>(item, FIELDS);

function ruleItem(r: RuleRecord): Record<string, unknown> {
  return {
    ...ruleKey(r.id),
    ...rulesOfFarm(r.farmId),
    GSI1SK: `${r.createdAt}#${r.id}`,
    ...(r.enabled ? { ...ENABLED_RULES, GSI2SK: `${r.farmId}#${r.id}` } : {}),
    type: 'Rule',
    ...r,
  };
}

/** A new rule (a create), in its own commit or with the farm's creation or the default rules. */
export const ruleCreate = (r: RuleRecord): Write => ({ put: ruleItem(r), when: isNew(), failed: () => new Conflict('A rule with this id already exists') });

/** The writes that create a rule: its farm exists, the rule itself. */
export const ruleCreation = (rule: RuleRecord): Write[] => [
  { check: farmKey(rule.farmId), when: exists(), failed: () => farmNotFound(rule.farmId) },
  ruleCreate(rule),
];

/** The default rules were already written (or a concurrent run moved the marker first): nothing is written. */
export class DefaultRulesClaimed extends Conflict {}

/**
 * The writes of a farm's first default rules: the marker item (a create, keeping the keys of the defaults
 * written) with the rules, so a second call (or a concurrent one) writes nothing (DefaultRulesClaimed).
 */
export function firstDefaultRules(farmId: string, rules: readonly RuleRecord[], now: string): Write[] {
  const keys = rules.flatMap((r) => (r.defaultKey ? [r.defaultKey] : []));
  return [
    {
      put: { ...defaultRulesMarkerKey(farmId), type: 'DefaultRules', at: now, keys },
      when: isNew(),
      failed: () => new DefaultRulesClaimed('default rules already written'),
    },
    ...rules.map(ruleCreate),
  ];
}

/**
 * The writes that add defaults introduced after the farm's were written (`rules`): the marker moves from
 * the `at` it was read at to the new key list with them, so a concurrent run writes nothing.
 */
export function laterDefaultRules(farmId: string, rules: readonly RuleRecord[], marker: DefaultRulesMarker, now: string): Write[] {
  const keys = [...marker.keys, ...rules.flatMap((r) => (r.defaultKey ? [r.defaultKey] : []))];
  return [
    {
      update: defaultRulesMarkerKey(farmId),
      set: { keys, at: now },
      when: eq('at', marker.at),
      failed: () => new DefaultRulesClaimed('default rules changed concurrently'),
    },
    ...rules.map(ruleCreate),
  ];
}

export interface DefaultRulesMarker {
  at: string;
  /** The default keys written so far (empty on a legacy marker). */
  keys: string[];
  /** Written before the marker kept its keys: it stands for the first default set. */
  legacy: boolean;
}

/** The farm's default-rules marker, if they were written (one GetItem). */
export async function defaultRulesMarker(farmId: string): Promise<DefaultRulesMarker | undefined> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: defaultRulesMarkerKey(farmId), ConsistentRead: true }));
  if (!res.Item) return undefined;
  const keys = res.Item.keys;
  return Array.isArray(keys) ? { at: String(res.Item.at), keys: keys.map(String), legacy: false } : { at: String(res.Item.at), keys: [], legacy: true };
}

/** The rule and the evaluation state of each of its targets: one Query of its partition. */
export async function getRuleWithStates(id: string): Promise<{ rule: RuleRecord; states: RuleState[] } | undefined> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': rulePartition(id) },
    ConsistentRead: true,
  });
  const meta = items.find((i) => i.SK === 'META');
  if (!meta) return undefined;
  const states = items.filter((i) => String(i.SK).startsWith(RULE_STATE_SK_PREFIX)).map((i) => pick<RuleState>(i, STATE_FIELDS, null));
  return { rule: fromItem(meta), states };
}

/** The rule replaced as a whole at the version read (enabling or disabling moves it on or off GSI2). */
export const ruleReplace = (next: RuleRecord, version: Versioned): Write => ({ put: ruleItem(next), version, failed: () => changedConcurrently(next.id) });

/** The rule deleted at the version read, with its states (a rule has one state per flock or house: a handful). */
export const ruleDeletion = (rule: RuleRecord, version: Versioned, states: readonly RuleState[]): Write[] => [
  { delete: ruleKey(rule.id), version, failed: () => changedConcurrently(rule.id) },
  ...states.slice(0, 80).map((s): Write => ({ delete: ruleStateKey(rule.id, s.target) })),
];

/** A page of a farm's rules, oldest first (one Query on GSI1; `enabled` and `input` filter). */
export async function listRulesOfFarm(
  farmId: string,
  filters: { enabled?: boolean; input?: string },
  opts: { limit: number; cursor?: string },
): Promise<{ items: RuleRecord[]; nextCursor: string | null }> {
  const page = await gsi1Page(rulesOfFarm(farmId), filters, { ...opts });
  return { items: page.items.map(fromItem), nextCursor: page.nextCursor };
}

/** Every enabled rule of a farm (one Query of GSI2 `RULES_ENABLED` for its prefix): what new data is checked against. */
export async function enabledRulesOfFarm(farmId: string): Promise<RuleRecord[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: 'GSI2',
    KeyConditionExpression: 'GSI2PK = :pk AND begins_with(GSI2SK, :farm)',
    ExpressionAttributeValues: { ':pk': ENABLED_RULES.GSI2PK, ':farm': `${farmId}#` },
  });
  return items.map(fromItem);
}

/** Every enabled rule of every farm, by farm (the rule job: one Query per 1 MB, never a Scan). */
export async function allEnabledRules(): Promise<RuleRecord[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: 'GSI2',
    KeyConditionExpression: 'GSI2PK = :pk',
    ExpressionAttributeValues: { ':pk': ENABLED_RULES.GSI2PK },
  });
  return items.map(fromItem);
}

/** The states of these (rule, target) pairs that exist (one BatchGetItem). */
export async function statesOf(pairs: ReadonlyArray<{ ruleId: string; target: string }>): Promise<Map<string, RuleState>> {
  const found = await batchGet(
    pairs.map((p) => ruleStateKey(p.ruleId, p.target)),
    { consistent: true },
  );
  return new Map(found.map((item) => [`${String(item.PK).slice('RULE#'.length)}|${String(item.target)}`, pick<RuleState>(item, STATE_FIELDS, null)]));
}

/** A newer state of the same rule and target was there first: this one is not written. */
export class StaleRuleState extends Conflict {}

/**
 * An evaluation recorded: only forward in time (`lastEvaluatedAt` never moves back, so a late, slower
 * evaluation of an older instant does not undo a newer one); a state without an instant (nothing in the
 * scope to judge) only yields to an older rule version. Else StaleRuleState.
 */
export const ruleStateWrite = (ruleId: string, state: RuleState): Write => ({
  put: { ...ruleStateKey(ruleId, state.target), type: 'RuleState', ...state },
  when:
    state.lastEvaluatedAt === null
      ? any(absent(), le('ruleVersion', state.ruleVersion))
      : any(absent(), absent('lastEvaluatedAt'), le('lastEvaluatedAt', state.lastEvaluatedAt), lt('ruleVersion', state.ruleVersion)),
  failed: () => new StaleRuleState('a newer rule state'),
});

/** The last day the detectors judged on a cycle (null: none yet). */
export async function detectorLastDay(flockId: string, cycleId: string): Promise<string | null> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: detectorStateKey(flockId, cycleId), ConsistentRead: true }));
  return (res.Item?.lastDay as string | undefined) ?? null;
}

/** A later day was recorded first (a slower run of an older day): this one is not written. */
export class StaleDetectorDay extends Conflict {}

/** The detectors' last judged day, moved forward (never back: a slower run of an older day does not undo a newer one). */
export const detectorDayWrite = (flockId: string, cycleId: string, day: string): Write => ({
  put: { ...detectorStateKey(flockId, cycleId), type: 'DetectorState', lastDay: day },
  when: any(absent('lastDay'), le('lastDay', day)),
  failed: () => new StaleDetectorDay('a later day was judged'),
});

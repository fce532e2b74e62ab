import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, db, queryAll, tableName, transact, type TransactItem } from './client.js';
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
import { farmNotFound, versionedDelete } from './farms.js';
import { Conflict, NotFound } from '../errors.js';
import type { RuleAction, RuleAggregation, RuleSeverity } from '../../schemas/vocabulary.js';

/**
 * Rules (docs/data-model.md, "Rules"): `RULE#<id>`/`META` listed per farm through GSI1
 * `RULES#<farmId>` (oldest first); while enabled also on GSI2 `RULES_ENABLED` (`<farmId>#<id>`), which
 * the rule job walks. The evaluation state of each target (a flock or a house) is its own item
 * `STATE#<target>` in the rule's partition, so evaluating never bumps the version a user edits against.
 */
export interface RuleRecord {
  id: string;
  farmId: string;
  name: string;
  scope: { farmId: string; houseId?: string; flockId?: string };
  input: string;
  window: string;
  aggregation: RuleAggregation;
  /** As the client wrote it: a short form `{op, value | range}` or a json-logic expression. */
  condition: Record<string, unknown>;
  severity: RuleSeverity;
  actions: RuleAction[];
  cooldownMinutes: number;
  enabled: boolean;
  defaultKey: string | null;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** The state target of a rule that has no flock or house to judge in its scope (its reason says why). */
export const NO_TARGET = 'scope';

export interface RuleState {
  target: string;
  state: 'ok' | 'fired' | 'no_data';
  reason: string | null;
  /** The end of the last bucket judged (where the next evaluation starts): later than now when a day was judged before it ended. */
  lastEvaluatedAt: string | null;
  /** The end of the bucket it last fired at (the cooldown counts from it). */
  lastFiredAt: string | null;
  /** When that evaluation ran, and when it last fired (the pass's clock; null on states written before they were kept). */
  evaluatedAt: string | null;
  firedAt: string | null;
  /** The rule version the state was computed with: an edited rule starts afresh. */
  ruleVersion: number;
}

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

/** A new rule as a Put (`attribute_not_exists`), for a transaction of its own or of the farm's creation. */
export const rulePut = (r: RuleRecord): TransactItem => ({
  Put: { TableName: tableName(), Item: ruleItem(r), ConditionExpression: 'attribute_not_exists(PK)' },
});

/** Creates a rule if its farm exists (one transaction). */
export async function createRule(rule: RuleRecord, extra: TransactItem[]): Promise<void> {
  await transact(
    [{ ConditionCheck: { TableName: tableName(), Key: farmKey(rule.farmId), ConditionExpression: 'attribute_exists(PK)' } }, rulePut(rule), ...extra],
    (i) => (i === 0 ? farmNotFound(rule.farmId) : new Conflict('A rule with this id already exists')),
  );
}

/**
 * Writes the default rules of a farm once: the marker item is claimed in the same transaction
 * (`attribute_not_exists`) with the keys of the defaults written, so a second call (or a concurrent one)
 * writes nothing. False when they were written before.
 */
export async function putDefaultRulesOnce(farmId: string, rules: readonly RuleRecord[], now: string): Promise<boolean> {
  const keys = rules.flatMap((r) => (r.defaultKey ? [r.defaultKey] : []));
  return claimed(() =>
    transact(
      [
        {
          Put: {
            TableName: tableName(),
            Item: { ...defaultRulesMarkerKey(farmId), type: 'DefaultRules', at: now, keys },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        ...rules.map(rulePut),
      ],
      () => new Conflict('default rules already written'),
    ),
  );
}

/**
 * Adds defaults introduced after the farm's were written (`rules`), once: the marker moves from the `at`
 * it was read at to the new key list in the same transaction, so a concurrent run writes nothing.
 */
export async function addDefaultRulesOnce(farmId: string, rules: readonly RuleRecord[], marker: DefaultRulesMarker, now: string): Promise<boolean> {
  const keys = [...marker.keys, ...rules.flatMap((r) => (r.defaultKey ? [r.defaultKey] : []))];
  return claimed(() =>
    transact(
      [
        {
          Update: {
            TableName: tableName(),
            Key: defaultRulesMarkerKey(farmId),
            UpdateExpression: 'SET #keys = :keys, #at = :now',
            ConditionExpression: '#at = :was',
            ExpressionAttributeNames: { '#keys': 'keys', '#at': 'at' },
            ExpressionAttributeValues: { ':keys': keys, ':now': now, ':was': marker.at },
          },
        },
        ...rules.map(rulePut),
      ],
      () => new Conflict('default rules changed concurrently'),
    ),
  );
}

async function claimed(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (err) {
    if (err instanceof Conflict) return false;
    throw err;
  }
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

/** Replaces the rule if it is still at `expectedVersion` (the whole item: enabling or disabling moves it on or off GSI2). */
export async function replaceRule(next: RuleRecord, expectedVersion: number, extra: TransactItem[]): Promise<void> {
  await transact(
    [
      {
        Put: {
          TableName: tableName(),
          Item: ruleItem(next),
          ConditionExpression: 'attribute_exists(PK) AND #version = :expected',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':expected': expectedVersion },
        },
      },
      ...extra,
    ],
    () => changedConcurrently(next.id),
  );
}

/** Deletes the rule at `expectedVersion` with its states (a rule has one state per flock or house: a handful). */
export async function deleteRule(rule: RuleRecord, expectedVersion: number, states: readonly RuleState[], extra: TransactItem[]): Promise<void> {
  const T = tableName();
  await transact(
    [
      versionedDelete(ruleKey(rule.id), expectedVersion),
      ...states.slice(0, 80).map((s) => ({ Delete: { TableName: T, Key: ruleStateKey(rule.id, s.target) } })),
      ...extra,
    ],
    () => changedConcurrently(rule.id),
  );
}

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

const statePut = (ruleId: string, state: RuleState) => ({
  TableName: tableName(),
  Item: { ...ruleStateKey(ruleId, state.target), type: 'RuleState', ...state },
  // a state without an instant (nothing in the scope to judge) only yields to an older rule version
  ...(state.lastEvaluatedAt === null
    ? { ConditionExpression: 'attribute_not_exists(PK) OR ruleVersion <= :v', ExpressionAttributeValues: { ':v': state.ruleVersion } }
    : {
        ConditionExpression: 'attribute_not_exists(PK) OR attribute_not_exists(lastEvaluatedAt) OR lastEvaluatedAt <= :at OR ruleVersion < :v',
        ExpressionAttributeValues: { ':at': state.lastEvaluatedAt, ':v': state.ruleVersion },
      }),
});

/**
 * Records an evaluation: only forward in time (`lastEvaluatedAt` never moves back, so a late, slower
 * evaluation of an older instant does not undo a newer one). False when a newer state was already there.
 */
export async function putRuleState(ruleId: string, state: RuleState): Promise<boolean> {
  try {
    await db().send(new PutCommand(statePut(ruleId, state)));
    return true;
  } catch (err) {
    if ((err as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw err;
  }
}

/**
 * Records the evaluations of a pass: in one transaction per 100 (one call for the usual handful); when
 * one of them lost to a newer state, each is written on its own so the others still move forward.
 */
export async function putRuleStates(states: ReadonlyArray<{ ruleId: string; state: RuleState }>): Promise<void> {
  for (let i = 0; i < states.length; i += 100) {
    const chunk = states.slice(i, i + 100);
    if (chunk.length === 1) {
      await putRuleState(chunk[0]!.ruleId, chunk[0]!.state);
      continue;
    }
    try {
      await transact(
        chunk.map((s) => ({ Put: statePut(s.ruleId, s.state) })),
        () => new Conflict('a newer rule state'),
      );
    } catch (err) {
      if (!(err instanceof Conflict)) throw err;
      for (const s of chunk) await putRuleState(s.ruleId, s.state);
    }
  }
}

/** The last day the detectors judged on a cycle (null: none yet). */
export async function detectorLastDay(flockId: string, cycleId: string): Promise<string | null> {
  const res = await db().send(new GetCommand({ TableName: tableName(), Key: detectorStateKey(flockId, cycleId), ConsistentRead: true }));
  return (res.Item?.lastDay as string | undefined) ?? null;
}

/** Moves the detectors' last judged day forward (never back: a slower run of an older day does not undo a newer one). */
export async function recordDetectorDay(flockId: string, cycleId: string, day: string): Promise<void> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...detectorStateKey(flockId, cycleId), type: 'DetectorState', lastDay: day },
        ConditionExpression: 'attribute_not_exists(lastDay) OR lastDay <= :day',
        ExpressionAttributeValues: { ':day': day },
      }),
    );
  } catch (err) {
    if ((err as { name?: string }).name !== 'ConditionalCheckFailedException') throw err;
  }
}

import { Type, type Static } from '@sinclair/typebox';
import { ExpectedVersion, PeriodFrom, PeriodTo, JsonValue, ListOf, pageQueryProperties, StringEnum, Success, Timestamp, Ulid, UlidOf } from './common.js';
import { MAX_DEPTH_KEYWORD } from './input-limits.js';
import { JSON_LOGIC_MAX_DEPTH, MAX_COOLDOWN_MINUTES, RULE_ACTIONS, RULE_AGGREGATIONS, RULE_SEVERITIES } from './vocabulary.js';

/**
 * Rules (`/api/v1/rules`): alarms as data. A rule reads one input (a calculation template of the KPI
 * engine, or a sensor metric) over a window, aggregates it, tests a condition (json-logic over named
 * inputs, or a short form) and, when it holds, raises an anomaly and/or opens an incident. Evaluated on
 * new data and every 15 minutes; `POST /rules/{id}/test` replays it over a period without writing.
 */

const RecordId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const Text = (max: number, description: string) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S', description });

export const RuleScope = Type.Object(
  {
    farmId: Type.String({ ...RecordId, description: 'The farm the rule belongs to' }),
    houseId: Type.Optional(Type.String({ ...RecordId, description: 'Only this house (its sensors and its active flock)' })),
    flockId: Type.Optional(Type.String({ ...RecordId, description: 'Only this flock (its active cycle and its house’s sensors)' })),
  },
  {
    additionalProperties: false,
    description: 'Where the rule applies: the whole farm (every active flock and house), one house, or one flock',
  },
);

const Limit = Type.Number({ minimum: -1_000_000, maximum: 1_000_000 });
export const ShortCondition = Type.Union(
  [
    Type.Object({ op: StringEnum(['>', '>=', '<', '<='] as const), value: Limit }, { additionalProperties: false }),
    Type.Object(
      {
        op: StringEnum(['outside', 'inside'] as const),
        range: Type.Array(Limit, { minItems: 2, maxItems: 2, description: '[low, high], low ≤ high (both ends inside)' }),
      },
      { additionalProperties: false },
    ),
  ],
  { description: 'Short form: the aggregated value compared with a limit, or tested against a range' },
);
/**
 * A json-logic operation `{operator: arguments}`. An argument is a literal, another operation, or a list
 * of those (a list inside a list holds literals only: `{"in": [{"var": "value"}, [1, 2]]}`). Operations
 * nest through a reference by `$id`, which keeps one definition for the validators and the OpenAPI
 * document (a list that contains itself would not type in generated clients). Being recursive, it
 * declares how deep it may be nested (`x-maxDepth`, checked before anything walks a condition:
 * schemas/input-limits.ts); the domain holds a stored condition to the same limit.
 */
const OPERATOR = { pattern: '^[A-Za-z<>=!+*/%-]{1,12}$', not: { enum: ['op', 'value', 'range'] } };
const LITERALS = [{ type: 'number' }, { type: 'string', maxLength: 200 }, { type: 'boolean' }, { type: 'null' }];
const OPERATION_REF = { $ref: 'JsonLogicCondition' };
const ITEM = { anyOf: [...LITERALS, { type: 'array', maxItems: 20, items: { anyOf: LITERALS } }, OPERATION_REF] };
export const JsonLogicCondition = Type.Unsafe<Record<string, unknown>>({
  $id: 'JsonLogicCondition',
  [MAX_DEPTH_KEYWORD]: JSON_LOGIC_MAX_DEPTH,
  type: 'object',
  minProperties: 1,
  maxProperties: 1,
  propertyNames: OPERATOR,
  additionalProperties: { anyOf: [...LITERALS, { type: 'array', maxItems: 20, items: ITEM }, OPERATION_REF] },
  description:
    'A json-logic expression (jsonlogic.com) over the named inputs `value`, `count`, `first`, `last`, `min`, `max`, `avg`, `ageDays`, `windowDays`, e.g. `{">": [{"var": "value"}, {"+": [1, {"*": [0.06, {"var": "ageDays"}]}]}]}`. Only comparison, logic and arithmetic operators; evaluated without eval. ' +
    `At most ${JSON_LOGIC_MAX_DEPTH} levels of objects and arrays deep`,
});
export const RuleCondition = Type.Union([ShortCondition, JsonLogicCondition], {
  description: 'When the rule fires: a short form `{op, value}` / `{op, range}`, or a json-logic expression',
});

const ruleFields = {
  name: Text(120, 'What the rule watches, in a line'),
  scope: RuleScope,
  input: Type.String({
    minLength: 1,
    maxLength: 64,
    pattern: '^[A-Za-z0-9]+$',
    description: 'A calculation template id (GET /api/v1/rules/metadata/calculations) or a sensor metric (temperatureC, nh3Ppm, …)',
  }),
  window: Type.String({
    minLength: 3,
    maxLength: 20,
    pattern: '^P',
    description: 'ISO 8601 duration the input is aggregated over, e.g. PT1H, PT3H, P1D, P3D (daily inputs: whole days; at most P90D)',
  }),
  aggregation: StringEnum(RULE_AGGREGATIONS, {
    description: 'avg, min, max, sum, last, change (last − first) or slope (least squares, per day) of the values in the window',
  }),
  condition: RuleCondition,
  severity: StringEnum(RULE_SEVERITIES, { description: 'info, warning or critical (of the anomaly it raises)' }),
  actions: Type.Array(StringEnum(RULE_ACTIONS), {
    minItems: 1,
    maxItems: 2,
    uniqueItems: true,
    description: 'raise_anomaly (one anomaly per rule and flock or house while open) and/or open_incident (one incident per rule and target while open)',
  }),
  cooldown: Type.String({
    minLength: 3,
    maxLength: 20,
    pattern: '^P',
    description:
      'After a firing, the rule stays quiet this long: an ISO 8601 duration of weeks, days, hours and minutes, PT0M (none) to P30D, e.g. PT6H (default: the window’s length). Send this or cooldownMinutes',
  }),
  cooldownMinutes: Type.Integer({
    minimum: 0,
    maximum: MAX_COOLDOWN_MINUTES,
    description: 'The cooldown in minutes, 0–43200 (the same as `cooldown`; send one of them)',
  }),
  enabled: Type.Boolean({ description: 'A disabled rule is kept but never evaluated (default true)' }),
};

export const ruleParams = Type.Object({ ruleId: UlidOf('Id of the rule') }, { additionalProperties: false, $id: 'RuleParams' });
export type RuleParams = Static<typeof ruleParams>;

export const createRuleBody = Type.Object(
  {
    ...ruleFields,
    cooldown: Type.Optional(ruleFields.cooldown),
    cooldownMinutes: Type.Optional(ruleFields.cooldownMinutes),
    enabled: Type.Optional(ruleFields.enabled),
  },
  { additionalProperties: false, $id: 'CreateRuleBody' },
);
export type CreateRuleBody = Static<typeof createRuleBody>;

/** PUT: the whole rule again (its scope's farm cannot change). */
export const replaceRuleBody = Type.Object(
  {
    ...ruleFields,
    cooldown: Type.Optional(ruleFields.cooldown),
    cooldownMinutes: Type.Optional(ruleFields.cooldownMinutes),
    enabled: Type.Optional(ruleFields.enabled),
    version: Type.Optional(ExpectedVersion),
  },
  { additionalProperties: false, $id: 'ReplaceRuleBody' },
);
export type ReplaceRuleBody = Static<typeof replaceRuleBody>;

export const updateRuleBody = Type.Object(
  {
    name: Type.Optional(ruleFields.name),
    scope: Type.Optional(ruleFields.scope),
    input: Type.Optional(ruleFields.input),
    window: Type.Optional(ruleFields.window),
    aggregation: Type.Optional(ruleFields.aggregation),
    condition: Type.Optional(ruleFields.condition),
    severity: Type.Optional(ruleFields.severity),
    actions: Type.Optional(ruleFields.actions),
    cooldown: Type.Optional(ruleFields.cooldown),
    cooldownMinutes: Type.Optional(ruleFields.cooldownMinutes),
    enabled: Type.Optional(ruleFields.enabled),
    version: Type.Optional(ExpectedVersion),
  },
  { additionalProperties: false, minProperties: 1, $id: 'UpdateRuleBody' },
);
export type UpdateRuleBody = Static<typeof updateRuleBody>;

export const listRulesQuery = Type.Object(
  {
    farmId: Type.Optional(Type.String({ ...RecordId, description: 'The farm (required when you see more than one)' })),
    enabled: Type.Optional(Type.Boolean({ description: 'Only enabled (true) or disabled (false) rules' })),
    input: Type.Optional(Type.String({ maxLength: 64, description: 'Only rules on this input' })),
    ...pageQueryProperties,
  },
  { additionalProperties: false, $id: 'ListRulesQuery' },
);
export type ListRulesQuery = Static<typeof listRulesQuery>;

export const backtestBody = Type.Object(
  {
    flockId: Type.Optional(Type.String({ ...RecordId, description: 'Replay over this flock (its active or latest cycle); daily and sensor inputs' })),
    houseId: Type.Optional(Type.String({ ...RecordId, description: 'Replay over this house (sensor inputs; daily inputs use its active flock)' })),
    from: PeriodFrom,
    to: PeriodTo,
  },
  {
    additionalProperties: false,
    minProperties: 3,
    maxProperties: 3,
    description: 'Exactly one of flockId or houseId, and the period (at most 90 days for sensor inputs, 400 for daily ones)',
    $id: 'BacktestBody',
  },
);
export type BacktestBody = Static<typeof backtestBody>;

/** The event the write routes start `rulesOnNewData` with: a flock's day, or a house whose sensors crossed into a new hour. */
export const newDataEventBody = Type.Union(
  [
    Type.Object({ kind: Type.Literal('flock'), farmId: RecordId, flockId: RecordId, day: Type.String({ format: 'date' }) }, { additionalProperties: false }),
    Type.Object({ kind: Type.Literal('house'), farmId: RecordId, houseId: RecordId }, { additionalProperties: false }),
  ],
  { $id: 'NewDataEventBody' },
);
export type NewDataEventBody = Static<typeof newDataEventBody>;

// ---------------------------------------------------------------------------------------------------
// Responses

const NullableTime = (description: string) => Type.Union([Timestamp, Type.Null()], { description });
export const RuleTargetStatus = Type.Object(
  {
    target: Type.String({
      description:
        '`flock:<id>`, `house:<id>` or `farm:<id>` (farm-level inputs); `scope` when nothing in the rule’s scope can be judged (the reason says why)',
    }),
    state: StringEnum(['ok', 'fired', 'no_data'] as const),
    reason: Type.Union([Type.String(), Type.Null()], { description: 'Why it could not be evaluated (no_data), or what fired' }),
    lastEvaluatedAt: NullableTime(
      'When it was last judged: the end of the last period judged, or the moment it was judged while that period still ran; never in the future',
    ),
    lastFiredAt: NullableTime('When it last fired, likewise never in the future'),
    judgedUntil: NullableTime('The end (exclusive) of the last period judged (a day judged on its daily record before it ended: that day’s end)'),
  },
  { $id: 'RuleTargetStatus' },
);
export const RuleDto = Type.Object(
  {
    id: Ulid,
    farmId: Type.String(),
    name: Type.String(),
    scope: RuleScope,
    input: Type.String(),
    inputKind: StringEnum(['calculation', 'sensor'] as const),
    basis: StringEnum(['day', 'hour'] as const, { description: 'Daily inputs are evaluated at the end of each day, sensor inputs at the end of each hour' }),
    unit: Type.String(),
    window: Type.String(),
    aggregation: StringEnum(RULE_AGGREGATIONS),
    condition: RuleCondition,
    severity: StringEnum(RULE_SEVERITIES),
    actions: Type.Array(StringEnum(RULE_ACTIONS)),
    cooldown: Type.String({ description: 'After a firing, the rule stays quiet this long (ISO 8601 duration, e.g. PT6H; PT0M: none)' }),
    cooldownMinutes: Type.Integer({ description: 'The same cooldown in minutes' }),
    enabled: Type.Boolean(),
    defaultKey: Type.Union([Type.String(), Type.Null()], { description: 'Set on the rules a new farm starts with (`default:nh3`)' }),
    status: Type.Array(RuleTargetStatus, { description: 'The last evaluation per flock or house the rule applies to' }),
    createdBy: Type.String(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    version: Type.Integer(),
  },
  { $id: 'Rule' },
);
export const RuleResponse = Success(RuleDto);
export const RuleListResponse = ListOf(RuleDto);

export const CalculationDto = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    formula: Type.String(),
    unit: Type.String(),
    inputs: Type.Array(Type.String()),
    source: Type.String(),
    basis: StringEnum(['day', 'hour'] as const),
    birdTypes: StringEnum(['all', 'broilers', 'layers'] as const),
    appliesTo: StringEnum(['flock', 'house', 'farm'] as const, {
      description: 'What a rule on it judges: each active flock of its scope (daily), each house with sensors (hourly), or the farm once a day',
    }),
    kind: StringEnum(['calculation', 'sensor'] as const),
  },
  { $id: 'CalculationTemplate' },
);
export const CalculationsResponse = Success(Type.Array(CalculationDto));

const Evaluation = Type.Object(
  {
    at: Timestamp,
    bucket: Type.String(),
    outcome: StringEnum(['fired', 'ok', 'cooldown', 'no_data'] as const),
    value: Type.Union([Type.Number(), Type.Null()]),
    inputs: Type.Record(Type.String(), Type.Union([Type.Number(), Type.Null()])),
    windowFrom: Timestamp,
    windowTo: Timestamp,
    reason: Type.Optional(Type.String()),
  },
  { $id: 'RuleEvaluation' },
);
export const BacktestResponse = Success(
  Type.Object({
    ruleId: Ulid,
    target: Type.String(),
    unit: Type.String({ description: 'Unit of the values; a cost names the farm’s pricing currency (e.g. GBP/kg)' }),
    from: Timestamp,
    to: Timestamp,
    evaluated: Type.Integer({ description: 'Instants evaluated (day or hour ends in the period)' }),
    firings: Type.Array(Evaluation, { description: 'When the rule would have fired, and on which values' }),
    suppressedByCooldown: Type.Integer(),
    noData: Type.Integer({ description: 'Instants without values in the window' }),
    evaluations: Type.Array(Evaluation, { description: 'Every instant, when at most 400; else empty (see the counts)' }),
    context: JsonValue,
  }),
);

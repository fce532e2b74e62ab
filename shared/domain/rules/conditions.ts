/**
 * The conditions of the alarm-rule engine (./evaluation.ts): a short form (`>`, `inside`, …) or a
 * json-logic expression over the window's named inputs, checked against a whitelist before it is used.
 * docs/detections.md ("The rule engine").
 */
import jsonLogic from 'json-logic-js';
import type { RulesLogic } from 'json-logic-js';
import { JSON_LOGIC_MAX_DEPTH } from '../../../schemas/vocabulary.js';
import { fmt } from '../analytics/figures.js';

export type ShortCondition = { op: '>' | '>=' | '<' | '<='; value: number } | { op: 'outside' | 'inside'; range: [number, number] };
/** A short form, or a json-logic expression over NAMED_INPUTS. */
export type RuleCondition = ShortCondition | { logic: Record<string, unknown> };

/** The variables a json-logic condition may read: the aggregate and the window's statistics, the flock's age, the window's length in days. */
export const NAMED_INPUTS: readonly string[] = ['value', 'count', 'first', 'last', 'min', 'max', 'avg', 'ageDays', 'windowDays'];
const NAMED = new Set(NAMED_INPUTS);

/** The json-logic operators a condition may use: reading a variable, comparison, logic, arithmetic. Nothing that loops, reads strings or logs. */
const LOGIC_OPERATORS: ReadonlySet<string> = new Set(['var', '==', '!=', '>', '>=', '<', '<=', '!', 'and', 'or', 'if', '+', '-', '*', '/', 'min', 'max']);
/** As deep as the request schema lets a condition be (objects and arrays, the condition itself is level 1). */
const MAX_LOGIC_DEPTH = JSON_LOGIC_MAX_DEPTH;
const MAX_LOGIC_NODES = 100;

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** The variable a `var` operation names ("value", ["value"] or ["value", default]), or the problem. */
function varName(arg: unknown): { name: string; hasDefault: boolean } | { problem: string } {
  const [name, fallback, ...rest] = Array.isArray(arg) ? arg : [arg];
  if (typeof name !== 'string') return { problem: 'a var must name one of the inputs as a string' };
  if (!NAMED.has(name)) return { problem: `unknown variable ${name}: a condition may read ${NAMED_INPUTS.join(', ')}` };
  if (rest.length || (fallback !== undefined && fallback !== null && !finite(fallback)))
    return { problem: `var ${name}: the only extra argument allowed is a numeric default` };
  return { name, hasDefault: fallback !== undefined && fallback !== null };
}

/** Walks a json-logic expression: the first problem, and the variables read without a default. */
function walkLogic(node: unknown): { problem: string | null; vars: Set<string> } {
  const vars = new Set<string>();
  let nodes = 0;
  const tooDeep = `the condition is nested too deep (at most ${MAX_LOGIC_DEPTH} levels of objects and arrays)`;
  const visit = (x: unknown, depth: number): string | null => {
    if (++nodes > MAX_LOGIC_NODES) return `the condition is too large (at most ${MAX_LOGIC_NODES} terms)`;
    if (typeof x === 'object' && x !== null && depth > MAX_LOGIC_DEPTH) return tooDeep;
    if (finite(x) || typeof x === 'boolean' || x === null) return null;
    if (typeof x === 'number') return 'numbers must be finite';
    if (typeof x === 'string') return `the text "${x}" is not allowed: only numbers, booleans and {"var": "<input>"}`;
    if (Array.isArray(x)) {
      for (const item of x) {
        const p = visit(item, depth + 1);
        if (p) return p;
      }
      return null;
    }
    if (!isRecord(x)) return 'unsupported value in the condition';
    const keys = Object.keys(x);
    if (keys.length !== 1) return `an operation has exactly one operator (found ${keys.length ? keys.join(', ') : 'none'})`;
    const op = keys[0]!;
    if (!LOGIC_OPERATORS.has(op)) return `operator ${op} is not allowed: use ${[...LOGIC_OPERATORS].join(' ')}`;
    if (op === 'var') {
      if (Array.isArray(x[op]) && depth + 1 > MAX_LOGIC_DEPTH) return tooDeep;
      const v = varName(x[op]);
      if ('problem' in v) return v.problem;
      if (!v.hasDefault) vars.add(v.name);
      return null;
    }
    return visit(x[op], depth + 1);
  };
  const problem = isRecord(node) ? visit(node, 1) : 'a json-logic condition must be an operation such as {">": [{"var": "value"}, 20]}';
  return { problem, vars };
}

/** Why a condition cannot be used (null when fine): a known short operator with a finite number or an ordered range; or a json-logic expression within the whitelist. */
export function conditionProblem(c: RuleCondition): string | null {
  if (!isRecord(c)) return 'the condition must be an object';
  if ('logic' in c) {
    if ('op' in c) return 'a condition is either a short form (op) or json-logic (logic), not both';
    return walkLogic(c.logic).problem;
  }
  const { op } = c as { op?: unknown };
  switch (op) {
    case '>':
    case '>=':
    case '<':
    case '<=':
      return finite((c as { value?: unknown }).value) ? null : `op ${op} needs a finite number in value`;
    case 'inside':
    case 'outside': {
      const range = (c as { range?: unknown }).range;
      if (!Array.isArray(range) || range.length !== 2 || !range.every(finite)) return `op ${op} needs a range of two finite numbers [low, high]`;
      const [lo, hi] = range as [number, number];
      return lo <= hi ? null : `range [${lo}, ${hi}]: low must not be above high`;
    }
    default:
      return `unknown op ${String(op)}: use one of >, >=, <, <=, outside, inside, or a json-logic expression in logic`;
  }
}

/** The inputs a condition reads that have no value (a json-logic var without default that is null; `value` for a short form). */
export function missingInputs(c: RuleCondition, inputs: Record<string, number | null>): string[] {
  const read = 'logic' in c ? walkLogic(c.logic).vars : new Set(['value']);
  read.add('value');
  return [...read].filter((v) => inputs[v] === null || inputs[v] === undefined);
}

/**
 * Whether the condition holds for these inputs. The short form tests `inputs.value`; json-logic is applied
 * by json-logic-js over the inputs (no code evaluation; an expression outside the whitelist never holds).
 * A null value, or a null input the expression reads, never fires.
 */
export function conditionHolds(c: RuleCondition, inputs: Record<string, number | null>): boolean {
  if (conditionProblem(c) !== null || missingInputs(c, inputs).length) return false;
  if ('logic' in c) return jsonLogic.truthy(jsonLogic.apply(c.logic as RulesLogic, inputs));
  const v = inputs.value!;
  switch (c.op) {
    case '>':
      return v > c.value;
    case '>=':
      return v >= c.value;
    case '<':
      return v < c.value;
    case '<=':
      return v <= c.value;
    case 'inside':
      return v >= c.range[0] && v <= c.range[1];
    case 'outside':
      return v < c.range[0] || v > c.range[1];
  }
}

/** "0.6 > 0.5", "72 outside 50–70", "the condition holds (value 1.7, ageDays 10)". */
export function describe(c: RuleCondition, inputs: Record<string, number | null>): string {
  const v = inputs.value === null || inputs.value === undefined ? 'null' : fmt(inputs.value);
  if ('logic' in c) {
    const read = [...walkLogic(c.logic).vars, 'value'].filter((k, i, all) => all.indexOf(k) === i);
    return `the condition holds (${read.map((k) => `${k} ${inputs[k] === null || inputs[k] === undefined ? 'null' : fmt(inputs[k])}`).join(', ')})`;
  }
  if ('range' in c) return `${v} ${c.op} ${fmt(c.range[0])}–${fmt(c.range[1])}`;
  return `${v} ${c.op} ${fmt(c.value)}`;
}

/**
 * The alarm-rule engine (pure): a rule aggregates one input over a sliding window of time buckets (UTC days
 * or hours) and fires when a condition holds, at most once per cooldown; live runs and backtests alike.
 * Buckets, windows, aggregations, conditions and cooldowns: docs/detections.md ("The rule engine").
 */
import jsonLogic from 'json-logic-js';
import type { RulesLogic } from 'json-logic-js';
import { JSON_LOGIC_MAX_DEPTH, MAX_COOLDOWN_MINUTES, type RuleAggregation } from '../../../schemas/vocabulary.js';
import { fmt } from '../analytics/figures.js';

export type Basis = 'day' | 'hour';

/** One bucket of an input: a UTC day ('2026-03-04') or hour ('2026-03-04T13'), its value (null = no data that bucket) and figures that explain it. */
export interface SeriesPoint {
  bucket: string;
  value: number | null;
  context?: Record<string, number | string | null>;
}

export type ShortCondition = { op: '>' | '>=' | '<' | '<='; value: number } | { op: 'outside' | 'inside'; range: [number, number] };
/** A short form, or a json-logic expression over NAMED_INPUTS. */
export type RuleCondition = ShortCondition | { logic: Record<string, unknown> };

export interface RuleSpec {
  /** ISO 8601 duration, PT15M … P90D (see parseWindow). */
  window: string;
  aggregation: RuleAggregation;
  condition: RuleCondition;
  cooldownMinutes: number;
  basis: Basis;
  /** The input's id, named in the reasons ("no nh3Ppm values in …"); optional. */
  input?: string;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const BUCKET_MS: Record<Basis, number> = { day: DAY_MS, hour: HOUR_MS };
const MIN_WINDOW_MS = 15 * MINUTE_MS;
const MAX_WINDOW_MS = 90 * DAY_MS;

// ---------------------------------------------------------------------------------------------------
// Windows

const DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?)?$/;

/**
 * An ISO 8601 duration of weeks, days, hours and minutes (P3D, PT1H, P1DT12H, P2W, PT15M) as milliseconds,
 * between PT15M and P90D; otherwise the problem. Months and years are refused (their length varies), and
 * so are seconds and fractions (no bucket is that fine).
 */
export function parseWindow(iso: string): { ms: number } | { problem: string } {
  const example = 'an ISO 8601 duration such as PT1H, P3D or P1DT12H';
  if (typeof iso !== 'string' || !iso.length) return { problem: `the window must be ${example}` };
  const m = DURATION.exec(iso);
  if (!m || iso.endsWith('T') || iso === 'P') {
    if (/^P(?:\d+[YMWD])*(?:\d+[YM])/.test(iso))
      return { problem: `${iso}: months and years are not supported (their length varies); use days or weeks, e.g. P30D` };
    if (/^P.*T.*\d+(?:[.,]\d+)?S$/.test(iso)) return { problem: `${iso}: seconds are not supported; the shortest window is PT15M` };
    return { problem: `${iso} is not ${example}` };
  }
  const [w, d, h, min] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x)));
  const ms = w! * 7 * DAY_MS + d! * DAY_MS + h! * HOUR_MS + min! * MINUTE_MS;
  if (ms < MIN_WINDOW_MS) return { problem: `${iso}: the window must be at least PT15M` };
  if (ms > MAX_WINDOW_MS) return { problem: `${iso}: the window must be at most P90D` };
  return { ms };
}

/**
 * A cooldown given as an ISO 8601 duration (`PT6H`, `P1D`, `PT0M` for none) in minutes: weeks, days,
 * hours and minutes as a window, from zero up to P30D; otherwise the problem.
 */
export function cooldownMinutesOf(iso: string): { minutes: number } | { problem: string } {
  const m = DURATION.exec(iso);
  if (!m || iso.endsWith('T') || iso === 'P') return { problem: `${iso} is not an ISO 8601 duration of weeks, days, hours or minutes, e.g. PT6H, P1D or PT0M` };
  const [w, d, h, min] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x)));
  const minutes = w! * 7 * 24 * 60 + d! * 24 * 60 + h! * 60 + min!;
  return minutes > MAX_COOLDOWN_MINUTES ? { problem: `${iso}: a cooldown is at most P30D` } : { minutes };
}

/** Minutes as an ISO 8601 duration in days, hours and minutes (`90` → `PT1H30M`, `1440` → `P1D`, `0` → `PT0M`). */
export function durationOfMinutes(minutes: number): string {
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  const time = `${hours ? `${hours}H` : ''}${mins ? `${mins}M` : ''}`;
  if (!days && !time) return 'PT0M';
  return `P${days ? `${days}D` : ''}${time ? `T${time}` : ''}`;
}

/** Why a window does not suit an input of this basis (null when fine): it must parse and cover whole buckets. */
export function windowProblem(iso: string, basis: Basis): string | null {
  const w = parseWindow(iso);
  if ('problem' in w) return w.problem;
  if (w.ms % BUCKET_MS[basis] !== 0) {
    return basis === 'day' ? 'a daily input needs a window of whole days (P1D or more)' : 'an hourly input needs a window of whole hours (PT1H or more)';
  }
  return null;
}

/** A window's length for people: "1 h", "2 days", "1 day 12 h", "15 min". */
export function durationText(ms: number): string {
  const days = Math.floor(ms / DAY_MS);
  const hours = Math.floor((ms % DAY_MS) / HOUR_MS);
  const minutes = Math.round((ms % HOUR_MS) / MINUTE_MS);
  const parts = [days ? `${days} ${days === 1 ? 'day' : 'days'}` : '', hours ? `${hours} h` : '', minutes ? `${minutes} min` : ''].filter(Boolean);
  return parts.join(' ') || '0 min';
}

// ---------------------------------------------------------------------------------------------------
// Buckets

const BUCKET_FORMAT: Record<Basis, RegExp> = { day: /^\d{4}-\d{2}-\d{2}$/, hour: /^\d{4}-\d{2}-\d{2}T\d{2}$/ };

/** Start of a bucket, ms since the epoch (throws on a bucket that is not of the basis' format). */
function bucketStartMs(bucket: string, basis: Basis): number {
  const ms = BUCKET_FORMAT[basis].test(bucket) ? Date.parse(basis === 'day' ? `${bucket}T00:00:00Z` : `${bucket}:00:00Z`) : Number.NaN;
  if (Number.isNaN(ms)) throw new RangeError(`${bucket} is not a ${basis === 'day' ? "UTC day ('2026-03-04')" : "UTC hour ('2026-03-04T13')"}`);
  return ms;
}

/** The ISO instant the bucket ends (exclusive): '2026-03-04' → '2026-03-05T00:00:00.000Z', '2026-03-04T13' → '2026-03-04T14:00:00.000Z'. */
export function bucketEnd(bucket: string, basis: Basis): string {
  return new Date(bucketStartMs(bucket, basis) + BUCKET_MS[basis]).toISOString();
}

// ---------------------------------------------------------------------------------------------------
// Aggregation

/** Float noise (0.1 + 0.2) must never decide a firing: aggregates are kept to 6 decimals. */
const round6 = (x: number) => Math.round(x * 1e6) / 1e6 + 0;

/**
 * The aggregate of the window's non-null values (oldest first); null when there are none, or fewer than
 * two for change and slope. slope is the least-squares slope per day: `atDays` gives each value's bucket
 * start in days (any origin); without it the values are taken as consecutive buckets of the basis
 * (1 day, or 1/24 day apart).
 */
export function aggregate(values: readonly number[], aggregation: RuleAggregation, basis: Basis, atDays?: readonly number[]): number | null {
  const n = values.length;
  if (n === 0) return null;
  switch (aggregation) {
    case 'avg':
      return round6(values.reduce((a, b) => a + b, 0) / n);
    case 'sum':
      return round6(values.reduce((a, b) => a + b, 0));
    case 'min':
      return Math.min(...values);
    case 'max':
      return Math.max(...values);
    case 'last':
      return values[n - 1]!;
    case 'change':
      return n < 2 ? null : round6(values[n - 1]! - values[0]!);
    case 'slope': {
      if (n < 2) return null;
      const step = BUCKET_MS[basis] / DAY_MS;
      const xs = atDays ?? values.map((_, i) => i * step);
      const mx = xs.reduce((a, b) => a + b, 0) / n;
      const my = values.reduce((a, b) => a + b, 0) / n;
      let sxy = 0;
      let sxx = 0;
      for (let i = 0; i < n; i++) {
        sxy += (xs[i]! - mx) * (values[i]! - my);
        sxx += (xs[i]! - mx) ** 2;
      }
      return sxx === 0 ? null : round6(sxy / sxx);
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Conditions

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
function missingInputs(c: RuleCondition, inputs: Record<string, number | null>): string[] {
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
function describe(c: RuleCondition, inputs: Record<string, number | null>): string {
  const v = inputs.value === null || inputs.value === undefined ? 'null' : fmt(inputs.value);
  if ('logic' in c) {
    const read = [...walkLogic(c.logic).vars, 'value'].filter((k, i, all) => all.indexOf(k) === i);
    return `the condition holds (${read.map((k) => `${k} ${inputs[k] === null || inputs[k] === undefined ? 'null' : fmt(inputs[k])}`).join(', ')})`;
  }
  if ('range' in c) return `${v} ${c.op} ${fmt(c.range[0])}–${fmt(c.range[1])}`;
  return `${v} ${c.op} ${fmt(c.value)}`;
}

// ---------------------------------------------------------------------------------------------------
// Evaluation

export interface Evaluation {
  /** ISO instant: the end of the evaluated bucket (the last bucket of the window). */
  at: string;
  bucket: string;
  outcome: 'fired' | 'ok' | 'cooldown' | 'no_data';
  /** The aggregate (null: no data). */
  value: number | null;
  /** The named inputs the condition saw. */
  inputs: Record<string, number | null>;
  windowFrom: string;
  windowTo: string;
  reason?: string;
}

export interface RuleRun {
  evaluations: Evaluation[];
  /** The evaluations with outcome 'fired'. */
  firings: Evaluation[];
  /** The last firing (of this run, else the one passed in). */
  lastFiredAt: string | null;
  /** That of the last evaluation ('cooldown' counts as 'fired'); 'no_data' with "no <input> values to judge yet" when nothing was evaluated. */
  status: { state: 'ok' | 'fired' | 'no_data'; reason: string | null; at: string | null };
}

function instantMs(iso: string, what: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new RangeError(`${what} ${iso} is not an ISO instant`);
  return ms;
}

/**
 * Evaluates the rule at the end of every bucket of `points` whose end lies in (after, until] (after = null:
 * from the first bucket), in time order, carrying the cooldown from `lastFiredAt` (a firing inside
 * cooldownMinutes of the previous firing is reported as 'cooldown' and does not fire). The window at
 * instant t holds the buckets that lie entirely within [t − window, t), so `points` must also hold the
 * buckets a window reaches back to before `after`. ageDays for the named inputs comes from the evaluated
 * (last) point's context.ageDays when present.
 *
 * This one function is both the live evaluation (the buckets that ended since the last run, `until` = now,
 * the stored lastFiredAt: a bucket still running ends after now and waits for the next run) and the
 * backtest (a period, lastFiredAt null): the same points give the same firings. Points given twice for a
 * bucket: the last one counts. A rule whose window or condition is invalid evaluates nothing and says why
 * in its status.
 */
export function evaluateRule(
  spec: RuleSpec,
  points: readonly SeriesPoint[],
  opts: { after: string | null; until: string; lastFiredAt: string | null },
): RuleRun {
  const invalid = windowProblem(spec.window, spec.basis) ?? conditionProblem(spec.condition);
  if (invalid) {
    return { evaluations: [], firings: [], lastFiredAt: opts.lastFiredAt, status: { state: 'no_data', reason: `invalid rule: ${invalid}`, at: null } };
  }
  const windowMs = (parseWindow(spec.window) as { ms: number }).ms;
  const bucketMs = BUCKET_MS[spec.basis];
  const afterMs = opts.after === null ? Number.NEGATIVE_INFINITY : instantMs(opts.after, 'after');
  const untilMs = instantMs(opts.until, 'until');
  let lastMs = opts.lastFiredAt === null ? null : instantMs(opts.lastFiredAt, 'lastFiredAt');
  const cooldownMs = Math.max(0, spec.cooldownMinutes) * MINUTE_MS;
  const label = spec.input ?? 'input';
  const span = durationText(windowMs);

  const byBucket = new Map<string, SeriesPoint>();
  for (const p of points) byBucket.set(p.bucket, p);
  const rows = [...byBucket.values()]
    .map((p) => ({ p, start: bucketStartMs(p.bucket, spec.basis) }))
    .sort((a, b) => a.start - b.start)
    .map((r) => ({ ...r, end: r.start + bucketMs }));

  const evaluations: Evaluation[] = [];
  let lo = 0;
  for (let i = 0; i < rows.length; i++) {
    const { p, end: t } = rows[i]!;
    if (t <= afterMs || t > untilMs) continue;
    const from = t - windowMs;
    while (rows[lo]!.start < from) lo++;
    const inWindow = rows.slice(lo, i + 1).filter((r) => r.p.value !== null);
    const values = inWindow.map((r) => r.p.value!);
    const value = aggregate(
      values,
      spec.aggregation,
      spec.basis,
      inWindow.map((r) => (r.start - rows[lo]!.start) / DAY_MS),
    );
    const age = p.context?.ageDays;
    const inputs: Record<string, number | null> = {
      value,
      count: values.length,
      first: values[0] ?? null,
      last: values.at(-1) ?? null,
      min: values.length ? Math.min(...values) : null,
      max: values.length ? Math.max(...values) : null,
      avg: aggregate(values, 'avg', spec.basis),
      ageDays: typeof age === 'number' ? age : null,
      windowDays: round6(windowMs / DAY_MS),
    };
    const at = new Date(t).toISOString();
    const base = { at, bucket: p.bucket, value, inputs, windowFrom: new Date(from).toISOString(), windowTo: at };
    const where = `the ${span} window ending ${at}`;
    const missing = missingInputs(spec.condition, inputs);
    if (!values.length) {
      evaluations.push({ ...base, outcome: 'no_data', reason: `no ${label} values in ${where}` });
    } else if (value === null) {
      evaluations.push({ ...base, outcome: 'no_data', reason: `only ${values.length} ${label} value in ${where}: ${spec.aggregation} needs 2` });
    } else if (missing.length) {
      evaluations.push({ ...base, outcome: 'no_data', reason: `${missing.join(', ')} unknown for ${where}` });
    } else if (!conditionHolds(spec.condition, inputs)) {
      evaluations.push({ ...base, outcome: 'ok' });
    } else {
      const what = `${label} ${spec.aggregation} over ${where}: ${describe(spec.condition, inputs)}`;
      if (lastMs !== null && t - lastMs < cooldownMs) {
        const previous = new Date(lastMs).toISOString();
        evaluations.push({
          ...base,
          outcome: 'cooldown',
          reason: `${what}; within the ${fmt(spec.cooldownMinutes)} min cooldown of the firing at ${previous}`,
        });
      } else {
        lastMs = t;
        evaluations.push({ ...base, outcome: 'fired', reason: what });
      }
    }
  }

  const last = evaluations.at(-1);
  const state = !last ? 'no_data' : last.outcome === 'cooldown' ? 'fired' : last.outcome;
  return {
    evaluations,
    firings: evaluations.filter((e) => e.outcome === 'fired'),
    lastFiredAt: lastMs === null ? null : new Date(lastMs).toISOString(),
    status: { state, reason: last ? (last.reason ?? null) : `no ${spec.input ?? 'input'} values to judge yet`, at: last?.at ?? null },
  };
}

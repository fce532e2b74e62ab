/**
 * The alarm-rule engine (pure): a rule aggregates one input over a sliding window of time buckets (UTC days
 * or hours) and fires when a condition holds, at most once per cooldown; live runs and backtests alike.
 * Buckets, windows, aggregations, conditions and cooldowns: docs/detections.md ("The rule engine").
 */
import type { RuleAggregation } from '../../../schemas/vocabulary.js';
import { fmt } from '../analytics/figures.js';
import { conditionHolds, conditionProblem, describe, missingInputs, type RuleCondition } from './conditions.js';
import {
  aggregate,
  BUCKET_MS,
  bucketStartMs,
  DAY_MS,
  durationText,
  MINUTE_MS,
  parseWindow,
  readingsAggregate,
  round6,
  windowProblem,
  windowReadings,
  type Basis,
  type ReadingFigures,
} from './windows.js';

/**
 * One bucket of an input: a UTC day ('2026-03-04') or hour ('2026-03-04T13'), its value (null = no data
 * that bucket) and figures that explain it; a sensor input's bucket also carries the readings behind its
 * value (count, sum, min, max), which avg, min, max and sum over a window are taken from.
 */
export interface SeriesPoint {
  bucket: string;
  value: number | null;
  context?: Record<string, number | string | null>;
  readings?: ReadingFigures;
}

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
    // a sensor window: avg, min, max and sum are the readings', not figures of the buckets' averages
    const readings = windowReadings(inWindow.map((r) => r.p.readings));
    const value =
      (readings && readingsAggregate(readings, spec.aggregation)) ??
      aggregate(
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
      min: readings ? readingsAggregate(readings, 'min') : values.length ? Math.min(...values) : null,
      max: readings ? readingsAggregate(readings, 'max') : values.length ? Math.max(...values) : null,
      avg: readings ? readingsAggregate(readings, 'avg') : aggregate(values, 'avg', spec.basis),
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

/** The outcomes of an evaluation whose condition held. */
const HELD: ReadonlySet<Evaluation['outcome']> = new Set(['fired', 'cooldown']);

/**
 * The days of a firing's breach: the unbroken run of evaluations whose condition held (fired or in
 * cooldown) up to the firing, from the first day of the first one's window (a rule judges its window as
 * one: the breach starts where that window does) to the firing's day. The evaluation of `points` from
 * their first bucket, so the run is seen whatever pass began it; days are UTC calendar days (a daily
 * input's bucket itself).
 */
export function breachOf(spec: RuleSpec, points: readonly SeriesPoint[], firing: Pick<Evaluation, 'at' | 'bucket'>): { from: string; to: string } {
  const run = evaluateRule(spec, points, { after: null, until: firing.at, lastFiredAt: null });
  let first = run.evaluations.length;
  while (first > 0 && HELD.has(run.evaluations[first - 1]!.outcome)) first--;
  const from = run.evaluations[first]?.windowFrom ?? firing.at;
  return { from: from.slice(0, 10), to: firing.bucket.slice(0, 10) };
}

/**
 * Statistical detections (pure): the robust z-score, EWMA and CUSUM detectors run over a cycle's daily
 * KPI series (`detectDaily`) and over one sensor metric of a house, hour by hour (`detectHourly`);
 * `episodes` collapses consecutive detections into the one anomaly that gets stored.
 * How the residuals, baselines and severities work and why: docs/detections.md ("Detections").
 */
import { DETECTORS, type Detector } from '../../../schemas/vocabulary.js';
import { fmt } from '../analytics/figures.js';
import { cusum, ewma, median, type CusumPoint, predictionFactor, robustScale, theilSen } from './detectors.js';
import { show, wordingOf } from './wording.js';

export interface Detection {
  /** 'waterPctOfExpected', 'feedGramsPerBird', 'dailyMortalityPct', 'bodyWeightVsStandard', or a sensor metric. */
  metric: string;
  /** The day ('YYYY-MM-DD') or hour ('YYYY-MM-DDTHH') it is about. */
  bucket: string;
  detector: Detector;
  /** threshold, lambda, L, k, h, baselineDays or baselineHours, minBaselinePoints, sigmaFloor. */
  parameters: Record<string, number>;
  /** The bucket's value in the metric's own unit (g, %, °C…). */
  observed: number;
  /** What the baseline expects for that bucket, same unit. */
  expected: number;
  /** observed − expected. */
  deviation: number;
  /** Signed: the robust z, the EWMA in its own standard deviations, or the CUSUM sum in σ. */
  score: number;
  direction: 'up' | 'down';
  /** warning past the detector's limit, critical past twice that (module note); info is not produced. */
  severity: 'info' | 'warning' | 'critical';
  /** The first baseline bucket the detection rests on, to the bucket evaluated. */
  window: { from: string; to: string };
  /**
   * The bucket the change began: its episode's (the consecutive buckets detected in this direction, by any
   * detector) CUSUM change point, the same for every detection of the episode (`detectSeries`).
   */
  startedOn: string;
  evidence: Record<string, number | string | null>;
  /** One plain sentence for a farm manager. */
  message: string;
}

// ---------------------------------------------------------------------------------------------------
// Parameters

const Z_THRESHOLD = 3.5;
const Z_CRITICAL = 7;
const LAMBDA = 0.2;
const L = 3;
const K = 0.5;
const H = 5;
export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

/** The daily metrics, in the order detections of one bucket are listed. */
export const DAILY_METRICS = ['waterPctOfExpected', 'feedGramsPerBird', 'dailyMortalityPct', 'bodyWeightVsStandard'] as const;

const r = (n: number, digits: number): number => Math.round(n * 10 ** digits) / 10 ** digits + 0;

// ---------------------------------------------------------------------------------------------------
// The engine: residuals against a baseline, then the three detectors

/** How a value becomes a residual comparable across buckets. */
export type Mode =
  /** The value as it is (already age-normalised, or without growth). */
  | 'level'
  /** value ÷ ref × 100 (ref: a breed standard). */
  | 'ratioRef'
  /** value ÷ the baseline's Theil–Sen line at x × 100. */
  | 'ratioTrend'
  /** value − the baseline's Theil–Sen line at x. */
  | 'diffTrend';

export interface Obs {
  bucket: string;
  /** Position in time: day or hour number (consecutive buckets differ by 1). */
  t: number;
  /** Where the trend line is evaluated: age in days, or the day of an hourly point. */
  x: number;
  value: number;
  /** Reference value for 'ratioRef'. */
  ref: number | null;
  /** σ floor in residual units. */
  floor: number;
  /** Context echoed in the evidence (age…). */
  context: Record<string, number | string | null>;
}

export interface Spec {
  metric: string;
  mode: Mode;
  residualUnit: string;
  directions: ReadonlyArray<'up' | 'down'>;
  /** The observations of the baseline of `o` (before it in time). */
  baselineOf: (o: Obs) => Obs[];
  minPoints: number;
  /** What the baseline parameter is called and its value (baselineDays or baselineHours). */
  baselineParam: [string, number];
  /** 'for the age' or 'at this hour'. */
  whose: string;
  /** The bucket as a manager reads it, with its preposition ('on 2026-03-21', 'at 2026-03-21 14:00'). */
  when: (bucket: string) => string;
  /** The same without the preposition. */
  label: (bucket: string) => string;
}

/** A bucket with its standardised residual. */
interface Std {
  obs: Obs;
  e: number;
  expected: number;
  mu0: number;
  sigma: number;
  residual: number;
  scale: 'mad' | 'mean_abs_dev' | 'floor';
  baselineFrom: string;
  baselinePoints: number;
  extra: Record<string, number | null>;
}

function standardise(spec: Spec, o: Obs): Std | null {
  const base = spec.baselineOf(o);
  if (base.length < spec.minPoints) return null;
  let resid: (p: Obs) => number | null;
  let native: (mu: number) => number;
  let factor = 1;
  const extra: Record<string, number | null> = {};
  if (spec.mode === 'level') {
    resid = (p) => p.value;
    native = (mu) => mu;
  } else if (spec.mode === 'ratioRef') {
    resid = (p) => (p.ref !== null && p.ref > 0 ? (p.value / p.ref) * 100 : null);
    native = (mu) => ((o.ref ?? 0) * mu) / 100;
    extra.reference = o.ref === null ? null : r(o.ref, 3);
  } else {
    const xs = base.map((p) => p.x);
    const line = theilSen(
      xs,
      base.map((p) => p.value),
    );
    const at = (x: number) => line.intercept + line.slope * x;
    factor = predictionFactor(xs, o.x);
    extra.trend = r(at(o.x), 3);
    extra.trendSlope = r(line.slope, 4);
    if (spec.mode === 'ratioTrend') {
      resid = (p) => (at(p.x) > 0 ? (p.value / at(p.x)) * 100 : null);
      native = (mu) => (at(o.x) * mu) / 100;
    } else {
      resid = (p) => p.value - at(p.x);
      native = (mu) => at(o.x) + mu;
    }
  }
  const own = resid(o);
  const history = base.map(resid).filter((v): v is number => v !== null);
  if (own === null || history.length < spec.minPoints) return null;
  const s = robustScale(history);
  const mu0 = s?.median ?? median(history);
  const spread = (s?.sigma ?? 0) * factor;
  const sigma = Math.max(spread, o.floor);
  if (!(sigma > 0)) return null;
  const scale = spread >= o.floor && s ? s.method : 'floor';
  return {
    obs: o,
    e: (own - mu0) / sigma,
    expected: native(mu0),
    mu0,
    sigma,
    residual: own,
    scale,
    baselineFrom: base[0]!.bucket,
    baselinePoints: history.length,
    extra: factor === 1 ? extra : { ...extra, predictionFactor: r(factor, 3) },
  };
}

const severityOf = (excess: number): 'warning' | 'critical' => (excess > 2 ? 'critical' : 'warning');

/** A detection before its episode is known (`startedOn`: `detectSeries`). */
type Found = Omit<Detection, 'startedOn'>;

function detection(
  spec: Spec,
  s: Std,
  detector: Detector,
  score: number,
  severity: 'warning' | 'critical',
  from: string,
  more: Record<string, number | string | null>,
): Found {
  const direction = score > 0 ? 'up' : 'down';
  const w = wordingOf(spec.metric);
  const observed = s.obs.value;
  const expected = r(s.expected, 2);
  const parameters: Record<string, number> =
    detector === 'robust_z' ? { threshold: Z_THRESHOLD, criticalThreshold: Z_CRITICAL } : detector === 'ewma' ? { lambda: LAMBDA, L } : { k: K, h: H };
  Object.assign(parameters, { [spec.baselineParam[0]]: spec.baselineParam[1], minBaselinePoints: spec.minPoints, sigmaFloor: r(s.obs.floor, 4) });
  const where = direction === 'up' ? 'above' : 'below';
  const hint = w.hint?.[direction];
  const tail = hint ? `: ${hint}.` : '.';
  const when = spec.when(s.obs.bucket);
  const usual = `${show(w, observed)} ${when}, against a usual ${show(w, expected)}`;
  const since = more.cusumSince;
  const message =
    detector === 'robust_z'
      ? `${w.label} ${when} was ${show(w, observed)}, far ${where} the usual ${show(w, expected)} ${spec.whose} (robust z ${fmt(score, 1)})${tail}`
      : detector === 'ewma'
        ? `${w.label} is running ${where} its usual level ${spec.whose}: ${usual} (EWMA beyond its ${L} σ limit)${tail}`
        : typeof since === 'string' && since !== s.obs.bucket
          ? `${w.label} has stayed ${where} its usual level ${spec.whose} since ${spec.label(since)}: ${usual} (CUSUM ${fmt(Math.abs(score), 1)} σ, alarm at ${H} σ)${tail}`
          : `${w.label} is ${where} its usual level ${spec.whose}: ${usual} (CUSUM ${fmt(Math.abs(score), 1)} σ, alarm at ${H} σ)${tail}`;
  return {
    metric: spec.metric,
    bucket: s.obs.bucket,
    detector,
    parameters,
    observed,
    expected,
    deviation: r(observed - s.expected, 2),
    score: r(score, 2),
    direction,
    severity,
    window: { from, to: s.obs.bucket },
    evidence: {
      ...s.obs.context,
      residual: r(s.residual, 3),
      residualUnit: spec.residualUnit,
      baselineMedian: r(s.mu0, 3),
      baselineSigma: r(s.sigma, 4),
      baselinePoints: s.baselinePoints,
      scale: s.scale,
      ...s.extra,
      ...more,
    },
    message,
  };
}

/**
 * A chart run over `es` and restarted after every signal, as Montgomery advises once an out-of-control
 * signal has been dealt with: otherwise a large shift that the moving baseline has since absorbed would
 * keep the chart alarming for days. Each point comes with the index its segment began at.
 */
function restarting<P>(es: readonly number[], chart: (xs: readonly number[]) => P[], signal: (p: P) => boolean): Array<{ p: P; start: number }> {
  const out: Array<{ p: P; start: number }> = [];
  let start = 0;
  while (start < es.length) {
    const pts = chart(es.slice(start));
    const hit = pts.findIndex(signal);
    const end = hit < 0 ? pts.length : hit + 1;
    for (let j = 0; j < end; j++) out.push({ p: pts[j]!, start });
    start += end;
  }
  return out;
}

type Side = 'high' | 'low';
const sideOf = (direction: 'up' | 'down'): Side => (direction === 'up' ? 'high' : 'low');

/**
 * Where the restarting CUSUM's sum on `side` last left zero up to index i, within i's segment: Montgomery's
 * estimate of the change point (i itself when the sum is 0 there).
 */
function changePoint(cu: ReadonlyArray<{ p: CusumPoint; start: number }>, i: number, side: Side): number {
  let since = i;
  while (since > cu[i]!.start && cu[since - 1]!.p[side] > 0) since--;
  return since;
}

/**
 * The detections of one run of consecutive buckets with their episode's start: the consecutive buckets
 * detected in one direction (by any detector) are one change, which began at the change point of its
 * first bucket. So every detector, and every day of the change, names the same start.
 */
function withStarts(found: ReadonlyArray<{ i: number; d: Found }>, points: readonly Std[], cu: ReadonlyArray<{ p: CusumPoint; start: number }>): Detection[] {
  const out: Detection[] = [];
  for (const direction of ['up', 'down'] as const) {
    let startedOn = '';
    let last = Number.NEGATIVE_INFINITY;
    for (const { i, d } of found) {
      if (d.direction !== direction) continue;
      if (i > last + 1) startedOn = points[changePoint(cu, i, sideOf(direction))]!.obs.bucket;
      last = i;
      out.push({ ...d, startedOn });
    }
  }
  return out;
}

/** Every detection of one metric over time-sorted observations (one per bucket). */
export function detectSeries(spec: Spec, observations: readonly Obs[]): Detection[] {
  const out: Detection[] = [];
  const allowed = (score: number) => spec.directions.includes(score > 0 ? 'up' : 'down');
  // runs of consecutive buckets with a standardised residual
  const runs: Std[][] = [];
  let run: Std[] = [];
  for (const o of observations) {
    const s = standardise(spec, o);
    const last = run.at(-1);
    if (!s || (last && o.t !== last.obs.t + 1)) {
      if (run.length) runs.push(run);
      run = [];
    }
    if (s) run.push(s);
  }
  if (run.length) runs.push(run);

  for (const points of runs) {
    const es = points.map((p) => p.e);
    const ew = restarting(
      es,
      (xs) => ewma(xs, { mu0: 0, sigma: 1, lambda: LAMBDA, L }),
      (p) => p.out,
    );
    const cu = restarting(
      es,
      (xs) => cusum(xs, { mu0: 0, sigma: 1, k: K, h: H }),
      (p) => p.alarm !== null,
    );
    const found: Array<{ i: number; d: Found }> = [];
    const push = (i: number, d: Found) => found.push({ i, d });
    points.forEach((s, i) => {
      if (Math.abs(s.e) > Z_THRESHOLD && allowed(s.e)) {
        push(i, detection(spec, s, 'robust_z', s.e, Math.abs(s.e) > Z_CRITICAL ? 'critical' : 'warning', s.baselineFrom, {}));
      }
      const { p, start: ewStart } = ew[i]!;
      const sd = (p.upper - p.lower) / (2 * L);
      const z = p.z / sd;
      if (p.out && allowed(z)) {
        push(
          i,
          detection(spec, s, 'ewma', z, severityOf(Math.abs(z) / L), points[ewStart]!.baselineFrom, {
            ewma: r(p.z, 4),
            ewmaLower: r(p.lower, 4),
            ewmaUpper: r(p.upper, 4),
            ewmaSince: points[ewStart]!.obs.bucket,
          }),
        );
      }
      const { p: c } = cu[i]!;
      if (c.alarm) {
        const score = c.alarm === 'up' ? c.high : -c.low;
        if (allowed(score)) {
          // the shift began where the alarming sum last left zero (Montgomery's estimate of the change point)
          const since = changePoint(cu, i, sideOf(c.alarm));
          push(
            i,
            detection(spec, s, 'cusum', score, severityOf(Math.abs(score) / H), points[since]!.baselineFrom, {
              cusumHigh: r(c.high, 3),
              cusumLow: r(c.low, 3),
              cusumSince: points[since]!.obs.bucket,
            }),
          );
        }
      }
    });
    out.push(...withStarts(found, points, cu));
  }
  return out;
}

const metricRank = (m: string): number => {
  const i = (DAILY_METRICS as readonly string[]).indexOf(m);
  return i < 0 ? DAILY_METRICS.length : i;
};
export const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** By bucket, then metric (the daily metrics in DAILY_METRICS order, others by name), then detector (DETECTORS order). */
export function compareDetections(a: Detection, b: Detection): number {
  return (
    cmp(a.bucket, b.bucket) ||
    metricRank(a.metric) - metricRank(b.metric) ||
    cmp(a.metric, b.metric) ||
    DETECTORS.indexOf(a.detector) - DETECTORS.indexOf(b.detector) ||
    cmp(a.direction, b.direction)
  );
}

export const minPointsOf = (n: number): number => Math.max(3, Math.ceil(n / 2));

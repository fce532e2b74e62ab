/**
 * Statistical detections (pure): the robust z-score, EWMA and CUSUM detectors run over a cycle's daily
 * KPI series (`detectDaily`) and over one sensor metric of a house, hour by hour (`detectHourly`);
 * `episodes` collapses consecutive detections into the one anomaly that gets stored.
 * How the residuals, baselines and severities work and why: docs/detections.md ("Detections").
 */
import { DETECTORS, type Detector } from '../../../schemas/vocabulary.js';
import { fmt } from '../analytics/figures.js';
import { addDays, isoHour } from '../../platform/calendar.js';
import type { DailyKpis } from '../analytics/kpis/types.js';
import { cusum, ewma, median, robustScale } from './detectors.js';

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
const DEFAULT_BASELINE_DAYS = 14;
const DEFAULT_BASELINE_HOURS = 168;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** The daily metrics, in the order detections of one bucket are listed. */
export const DAILY_METRICS = ['waterPctOfExpected', 'feedGramsPerBird', 'dailyMortalityPct', 'bodyWeightVsStandard'] as const;

/** Floors of σ for the hourly sensor metrics, in their units: about a house sensor's accuracy (practical choice, see the module note). */
const SENSOR_FLOORS: Record<string, number> = {
  temperatureC: 0.3,
  humidityPct: 2,
  nh3Ppm: 1,
  co2Ppm: 50,
  coPpm: 1,
  staticPressurePa: 1,
  lux: 1,
  waterLitersTotal: 0,
  siloKg: 0,
  birdWeightGrams: 1,
};

interface Wording {
  label: string;
  unit: string;
  /** Decimals shown. */
  digits: number;
  hint?: { up?: string; down?: string };
}

const WORDING: Record<string, Wording> = {
  waterPctOfExpected: {
    label: 'Water intake',
    unit: '% of expected',
    digits: 1,
    hint: { down: 'check the drinker lines before blaming disease', up: 'check for leaks and for heat' },
  },
  feedGramsPerBird: {
    label: 'Feed intake',
    unit: 'g per bird',
    digits: 1,
    hint: { down: 'check the feeders, the silo and the birds’ health', up: 'check for spilled feed' },
  },
  dailyMortalityPct: { label: 'Daily mortality', unit: '%', digits: 2, hint: { up: 'look for the cause, and call the vet if it continues' } },
  bodyWeightVsStandard: { label: 'Body weight', unit: 'g', digits: 0, hint: { down: 'check feed, water and health' } },
  temperatureC: { label: 'Temperature', unit: '°C', digits: 1 },
  humidityPct: { label: 'Humidity', unit: '%', digits: 1 },
  nh3Ppm: { label: 'Ammonia (NH₃)', unit: 'ppm', digits: 1 },
  co2Ppm: { label: 'CO₂', unit: 'ppm', digits: 0 },
  coPpm: { label: 'CO', unit: 'ppm', digits: 1 },
  staticPressurePa: { label: 'Static pressure', unit: 'Pa', digits: 1 },
  lux: { label: 'Light', unit: 'lx', digits: 0 },
  waterLitersTotal: { label: 'Water', unit: 'l', digits: 1 },
  siloKg: { label: 'Silo weight', unit: 'kg', digits: 0 },
  birdWeightGrams: { label: 'Bird weight', unit: 'g', digits: 0 },
};

const wordingOf = (metric: string): Wording => WORDING[metric] ?? { label: metric, unit: '', digits: 2 };
const show = (w: Wording, v: number): string => `${fmt(v, w.digits)}${w.unit ? ` ${w.unit}` : ''}`;

// ---------------------------------------------------------------------------------------------------
// Small helpers

const r = (n: number, digits: number): number => Math.round(n * 10 ** digits) / 10 ** digits + 0;

/** Theil–Sen line through (x, y): slope = median of pairwise slopes, intercept = median of y − slope·x. */
function theilSen(xs: readonly number[], ys: readonly number[]): { slope: number; intercept: number } {
  const slopes: number[] = [];
  for (let i = 0; i < xs.length; i++) {
    for (let j = i + 1; j < xs.length; j++) {
      if (xs[j] !== xs[i]) slopes.push((ys[j]! - ys[i]!) / (xs[j]! - xs[i]!));
    }
  }
  const slope = slopes.length ? median(slopes) : 0;
  return { slope, intercept: median(ys.map((y, i) => y - slope * xs[i]!)) };
}

/** The regression prediction factor √(1 + 1/n + (x − x̄)² ÷ Sxx) at x (1 when the xs do not spread). */
function predictionFactor(xs: readonly number[], x: number): number {
  const n = xs.length;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const sxx = xs.reduce((a, b) => a + (b - mean) ** 2, 0);
  return sxx > 0 ? Math.sqrt(1 + 1 / n + (x - mean) ** 2 / sxx) : 1;
}

// ---------------------------------------------------------------------------------------------------
// The engine: residuals against a baseline, then the three detectors

/** How a value becomes a residual comparable across buckets. */
type Mode =
  /** The value as it is (already age-normalised, or without growth). */
  | 'level'
  /** value ÷ ref × 100 (ref: a breed standard). */
  | 'ratioRef'
  /** value ÷ the baseline's Theil–Sen line at x × 100. */
  | 'ratioTrend'
  /** value − the baseline's Theil–Sen line at x. */
  | 'diffTrend';

interface Obs {
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

interface Spec {
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

function detection(
  spec: Spec,
  s: Std,
  detector: Detector,
  score: number,
  severity: 'warning' | 'critical',
  from: string,
  more: Record<string, number | string | null>,
): Detection {
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

/** Every detection of one metric over time-sorted observations (one per bucket). */
function detectSeries(spec: Spec, observations: readonly Obs[]): Detection[] {
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
    points.forEach((s, i) => {
      if (Math.abs(s.e) > Z_THRESHOLD && allowed(s.e)) {
        out.push(detection(spec, s, 'robust_z', s.e, Math.abs(s.e) > Z_CRITICAL ? 'critical' : 'warning', s.baselineFrom, {}));
      }
      const { p, start: ewStart } = ew[i]!;
      const sd = (p.upper - p.lower) / (2 * L);
      const z = p.z / sd;
      if (p.out && allowed(z)) {
        out.push(
          detection(spec, s, 'ewma', z, severityOf(Math.abs(z) / L), points[ewStart]!.baselineFrom, {
            ewma: r(p.z, 4),
            ewmaLower: r(p.lower, 4),
            ewmaUpper: r(p.upper, 4),
            ewmaSince: points[ewStart]!.obs.bucket,
          }),
        );
      }
      const { p: c, start: cuStart } = cu[i]!;
      if (c.alarm) {
        const side = c.alarm === 'up' ? 'high' : 'low';
        const score = c.alarm === 'up' ? c.high : -c.low;
        if (allowed(score)) {
          // the shift began where the alarming sum last left zero (Montgomery's estimate of the change point)
          let since = i;
          while (since > cuStart && cu[since - 1]!.p[side] > 0) since--;
          out.push(
            detection(spec, s, 'cusum', score, severityOf(Math.abs(score) / H), points[since]!.baselineFrom, {
              cusumHigh: r(c.high, 3),
              cusumLow: r(c.low, 3),
              cusumSince: points[since]!.obs.bucket,
            }),
          );
        }
      }
    });
  }
  return out;
}

const metricRank = (m: string): number => {
  const i = (DAILY_METRICS as readonly string[]).indexOf(m);
  return i < 0 ? DAILY_METRICS.length : i;
};
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** By bucket, then metric (the daily metrics in DAILY_METRICS order, others by name), then detector (DETECTORS order). */
function compareDetections(a: Detection, b: Detection): number {
  return (
    cmp(a.bucket, b.bucket) ||
    metricRank(a.metric) - metricRank(b.metric) ||
    cmp(a.metric, b.metric) ||
    DETECTORS.indexOf(a.detector) - DETECTORS.indexOf(b.detector) ||
    cmp(a.direction, b.direction)
  );
}

const minPointsOf = (n: number): number => Math.max(3, Math.ceil(n / 2));

// ---------------------------------------------------------------------------------------------------
// Daily

const dayNumber = (date: string): number => Math.round(Date.parse(date.slice(0, 10)) / DAY_MS);

/**
 * Every detection over a cycle's daily series (each detector, each metric), by bucket then metric then
 * detector (module note). Deterministic: same series → same detections. `baselineDays` (14) is how many
 * days before a day form its baseline; `standardWeightGrams` (the breed standard's weight at an age, or
 * null) enables bodyWeightVsStandard.
 */
export function detectDaily(
  series: readonly DailyKpis[],
  opts: { baselineDays?: number; standardWeightGrams?: (ageDays: number) => number | null } = {},
): Detection[] {
  const baselineDays = opts.baselineDays ?? DEFAULT_BASELINE_DAYS;
  if (!(Number.isInteger(baselineDays) && baselineDays >= 3)) throw new RangeError(`baselineDays must be an integer ≥ 3 (got ${baselineDays})`);
  const rows = [...series].sort((a, b) => cmp(a.date, b.date));
  const obsOf = (
    pick: (d: DailyKpis) => { value: number | null; ref?: number | null; floor: number } | null,
    extra?: (d: DailyKpis) => Record<string, number | string | null>,
  ) =>
    rows.flatMap((d): Obs[] => {
      const v = pick(d);
      if (!v || v.value === null || !Number.isFinite(v.value)) return [];
      return [
        {
          bucket: d.date,
          t: dayNumber(d.date),
          x: d.ageDays,
          value: v.value,
          ref: v.ref ?? null,
          floor: v.floor,
          context: { ageDays: d.ageDays, ...extra?.(d) },
        },
      ];
    });
  const window = (all: readonly Obs[]) => {
    return (o: Obs) => all.filter((p) => p.t < o.t && p.t >= o.t - baselineDays);
  };
  const common = {
    minPoints: minPointsOf(baselineDays),
    baselineParam: ['baselineDays', baselineDays] as [string, number],
    whose: 'for the age',
    when: (b: string) => `on ${b}`,
    label: (b: string) => b,
  };
  const run = (metric: string, mode: Mode, residualUnit: string, directions: ReadonlyArray<'up' | 'down'>, obs: Obs[]) =>
    detectSeries({ ...common, metric, mode, residualUnit, directions, baselineOf: window(obs) }, obs);

  const std = opts.standardWeightGrams;
  const all = [
    ...run(
      'waterPctOfExpected',
      'level',
      '% of expected',
      ['up', 'down'],
      obsOf((d) => ({ value: d.waterPctOfExpected.value, floor: 2 })),
    ),
    ...run(
      'feedGramsPerBird',
      'ratioTrend',
      '% of the flock’s growth line',
      ['up', 'down'],
      obsOf((d) => ({ value: d.feedGramsPerBird.value, floor: 2 })),
    ),
    ...run(
      'dailyMortalityPct',
      'level',
      '%',
      ['up'],
      obsOf(
        (d) => (d.birds.present > 0 ? { value: d.dailyMortalityPct.value, floor: 100 / d.birds.present } : null),
        (d) => ({ deaths: d.birds.deaths, birdsPresent: d.birds.present }),
      ),
    ),
    ...(std
      ? run(
          'bodyWeightVsStandard',
          'ratioRef',
          '% of the breed standard',
          ['up', 'down'],
          obsOf((d) => {
            const w = d.bodyWeight;
            if (w.source !== 'weighing' || w.date !== d.date || w.value === null) return null;
            const ref = std(d.ageDays);
            return ref !== null && ref > 0 ? { value: w.value, ref, floor: 1 } : null;
          }),
        )
      : []),
  ];
  return all.sort(compareDetections);
}

// ---------------------------------------------------------------------------------------------------
// Hourly

const HOUR_BUCKET = /^\d{4}-\d{2}-\d{2}T\d{2}$/;
const hourLabel = (b: string): string => `${b.slice(0, 10)} ${b.slice(11, 13)}:00`;

function hourNumber(bucket: string): number {
  const ms = HOUR_BUCKET.test(bucket) ? Date.parse(`${bucket}:00:00Z`) : Number.NaN;
  if (!Number.isFinite(ms)) throw new RangeError(`hour bucket ${bucket} is not YYYY-MM-DDTHH`);
  return Math.round(ms / HOUR_MS);
}

/**
 * Every detection over one sensor metric of a house, hour by hour (module note): each hour against the
 * same hour of the previous days within `baselineHours` (168: 7 days; at least 72, so that 3 such hours
 * can exist), the house's line through them removed. Null values are gaps; of duplicate buckets the last
 * given counts. Deterministic, sorted by bucket then detector. Throws a RangeError for a malformed bucket.
 */
export function detectHourly(
  metric: string,
  points: ReadonlyArray<{ bucket: string; value: number | null }>,
  opts: { baselineHours?: number } = {},
): Detection[] {
  const baselineHours = opts.baselineHours ?? DEFAULT_BASELINE_HOURS;
  if (!(Number.isInteger(baselineHours) && baselineHours >= 72)) throw new RangeError(`baselineHours must be an integer ≥ 72 (got ${baselineHours})`);
  const days = Math.floor(baselineHours / 24);
  const floor = SENSOR_FLOORS[metric] ?? 0;
  const byHour = new Map<number, Obs>();
  for (const p of points) {
    const t = hourNumber(p.bucket);
    if (p.value === null || !Number.isFinite(p.value)) {
      byHour.delete(t);
      continue;
    }
    byHour.set(t, { bucket: p.bucket, t, x: Math.floor(t / 24), value: p.value, ref: null, floor, context: {} });
  }
  const obs = [...byHour.values()].sort((a, b) => a.t - b.t);
  const spec: Spec = {
    metric,
    mode: 'diffTrend',
    residualUnit: wordingOf(metric).unit || 'units',
    directions: ['up', 'down'],
    baselineOf: (o) => {
      const out: Obs[] = [];
      for (let k = days; k >= 1; k--) {
        const p = byHour.get(o.t - 24 * k);
        if (p) out.push(p);
      }
      return out;
    },
    minPoints: minPointsOf(days),
    baselineParam: ['baselineHours', baselineHours],
    whose: 'at this hour',
    when: (b: string) => `at ${hourLabel(b)}`,
    label: hourLabel,
  };
  return detectSeries(spec, obs).sort(compareDetections);
}

// ---------------------------------------------------------------------------------------------------
// Episodes

/** The bucket right after `bucket` (next day or next hour), or null for another format. */
function nextBucket(bucket: string): string | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(bucket)) return addDays(bucket, 1);
  if (HOUR_BUCKET.test(bucket)) return isoHour(Date.parse(`${bucket}:00:00Z`) + HOUR_MS);
  return null;
}

/**
 * Consecutive detections (next day or next hour) of the same metric + detector + direction are ONE
 * episode: the latest bucket of each run is kept, with `evidence.since` = the run's first bucket,
 * `evidence.buckets` = its length and `evidence.peakScore` = its score of largest magnitude, and its
 * window widened to start at the run's first window. This is what gets persisted as one anomaly. A
 * bucket given twice for the same key counts once (the last given). Sorted like the detections.
 */
export function episodes(detections: readonly Detection[]): Detection[] {
  const groups = new Map<string, Map<string, Detection>>();
  for (const d of detections) {
    const key = `${d.metric}\u0000${d.detector}\u0000${d.direction}`;
    const g = groups.get(key) ?? new Map<string, Detection>();
    groups.set(key, g);
    g.set(d.bucket, d);
  }
  const out: Detection[] = [];
  for (const g of groups.values()) {
    const sorted = [...g.values()].sort((a, b) => cmp(a.bucket, b.bucket));
    let run: Detection[] = [];
    const close = () => {
      const first = run[0]!;
      const last = run.at(-1)!;
      const peak = run.reduce((p, d) => (Math.abs(d.score) > Math.abs(p.score) ? d : p), first);
      const from = run.reduce((m, d) => (d.window.from < m ? d.window.from : m), first.window.from);
      out.push({
        ...last,
        window: { from, to: last.window.to },
        evidence: { ...last.evidence, since: first.bucket, buckets: run.length, peakScore: peak.score },
      });
    };
    for (const d of sorted) {
      const prev = run.at(-1);
      if (prev && nextBucket(prev.bucket) !== d.bucket) {
        close();
        run = [];
      }
      run.push(d);
    }
    if (run.length) close();
  }
  return out.sort(compareDetections);
}

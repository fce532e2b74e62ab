/**
 * Statistical anomaly detectors (pure): the robust z-score of one value against a baseline, and the two
 * classic charts for small sustained shifts, EWMA and tabular CUSUM.
 * Formulas, defaults and their sources: docs/detections.md ("The detectors").
 */

/** Median of plain values (mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Iglewicz & Hoaglin's constant: the 75th percentile of the standard normal (MAD ÷ 0.6745 estimates σ). */
export const MAD_CONSTANT = 0.6745;
/** √(π/2): σ ÷ mean absolute deviation for normal data (the fallback when the MAD is 0). */
export const MEAN_AD_CONSTANT = 1.253314;

/** Where a baseline is centred and how widely it spreads, estimated robustly. */
export interface RobustScale {
  median: number;
  /** Median absolute deviation from the median. */
  mad: number;
  /** Mean absolute deviation from the median. */
  meanAbsDev: number;
  /** The σ estimate: MAD ÷ 0.6745, or 1.253314 × mean absolute deviation when the MAD is 0. */
  sigma: number;
  /** Which estimate `sigma` is. */
  method: 'mad' | 'mean_abs_dev';
}

/** The robust centre and spread of `values` (see the module note); null when there are none or they are all equal. */
export function robustScale(values: readonly number[]): RobustScale | null {
  if (values.length === 0) return null;
  const m = median(values);
  const abs = values.map((v) => Math.abs(v - m));
  const mad = median(abs);
  const meanAbsDev = abs.reduce((a, b) => a + b, 0) / abs.length;
  if (mad > 0) return { median: m, mad, meanAbsDev, sigma: mad / MAD_CONSTANT, method: 'mad' };
  if (meanAbsDev > 0) return { median: m, mad, meanAbsDev, sigma: MEAN_AD_CONSTANT * meanAbsDev, method: 'mean_abs_dev' };
  return null;
}

export interface RobustZ {
  median: number;
  mad: number;
  score: number;
  flagged: boolean;
}

/**
 * The modified z-score of `x` against `history` (Iglewicz & Hoaglin): 0.6745 (x − median) ÷ MAD,
 * flagged when |score| > `threshold` (3.5). When the MAD is 0 the score is (x − median) ÷ (1.253314 ×
 * mean absolute deviation) and `mad` stays 0. Null when `history` is empty or all its values are equal
 * (no spread to measure against). `history` must not contain `x` itself: it is the baseline.
 */
export function robustZ(history: readonly number[], x: number, threshold = 3.5): RobustZ | null {
  const s = robustScale(history);
  if (!s) return null;
  const score = s.method === 'mad' ? (MAD_CONSTANT * (x - s.median)) / s.mad : (x - s.median) / s.sigma;
  return { median: s.median, mad: s.mad, score, flagged: Math.abs(score) > threshold };
}

function requirePositive(name: string, v: number): void {
  if (!(Number.isFinite(v) && v > 0)) throw new RangeError(`${name} must be a positive finite number (got ${v})`);
}

export interface EwmaPoint {
  index: number;
  z: number;
  lower: number;
  upper: number;
  out: boolean;
}

/**
 * The EWMA chart of `values` (index 0 is t = 1) against an in-control mean `mu0` and standard deviation
 * `sigma` known from a baseline: the smoothed value, its exact control limits at that point, and whether
 * it is outside them. Small sustained shifts (0.5–2 σ) build up in z where a single point would pass.
 * Throws a RangeError for sigma ≤ 0, λ outside (0, 1] or L ≤ 0.
 */
export function ewma(values: readonly number[], opts: { mu0: number; sigma: number; lambda?: number; L?: number }): EwmaPoint[] {
  const { mu0, sigma, lambda = 0.2, L = 3 } = opts;
  requirePositive('sigma', sigma);
  requirePositive('L', L);
  if (!(lambda > 0 && lambda <= 1)) throw new RangeError(`lambda must be in (0, 1] (got ${lambda})`);
  let z = mu0;
  return values.map((x, index) => {
    z = lambda * x + (1 - lambda) * z;
    const t = index + 1;
    const half = L * sigma * Math.sqrt((lambda / (2 - lambda)) * (1 - (1 - lambda) ** (2 * t)));
    const lower = mu0 - half;
    const upper = mu0 + half;
    return { index, z, lower, upper, out: z < lower || z > upper };
  });
}

export interface CusumPoint {
  index: number;
  high: number;
  low: number;
  alarm: 'up' | 'down' | null;
}

/**
 * The two-sided tabular CUSUM of `values` against `mu0` and `sigma`: `high` = S⁺ and `low` = S⁻ in the
 * values' own units (divide by sigma for σ), and the alarm when one exceeds h σ (the larger side when
 * both do). k (the allowance, half the shift to detect) and h (the decision interval) are in σ.
 * Throws a RangeError for sigma ≤ 0, k < 0 or h ≤ 0.
 */
export function cusum(values: readonly number[], opts: { mu0: number; sigma: number; k?: number; h?: number }): CusumPoint[] {
  const { mu0, sigma, k = 0.5, h = 5 } = opts;
  requirePositive('sigma', sigma);
  requirePositive('h', h);
  if (!(Number.isFinite(k) && k >= 0)) throw new RangeError(`k must be a finite number ≥ 0 (got ${k})`);
  const K = k * sigma;
  const H = h * sigma;
  let high = 0;
  let low = 0;
  return values.map((x, index) => {
    high = Math.max(0, high + x - mu0 - K);
    low = Math.max(0, low + mu0 - K - x);
    const up = high > H;
    const down = low > H;
    const alarm = up && (!down || high >= low) ? 'up' : down ? 'down' : null;
    return { index, high, low, alarm };
  });
}

/** Theil–Sen line through (x, y): slope = median of pairwise slopes, intercept = median of y − slope·x. */
export function theilSen(xs: readonly number[], ys: readonly number[]): { slope: number; intercept: number } {
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
export function predictionFactor(xs: readonly number[], x: number): number {
  const n = xs.length;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const sxx = xs.reduce((a, b) => a + (b - mean) ** 2, 0);
  return sxx > 0 ? Math.sqrt(1 + 1 / n + (x - mean) ** 2 / sxx) : 1;
}

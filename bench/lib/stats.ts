/** Small statistics and timing helpers for the benchmarks (no dependency). */

export interface Summary {
  n: number;
  meanUs: number;
  p50Us: number;
  p95Us: number;
}

export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

/** Samples in milliseconds → mean, p50, p95 in microseconds (rounded to 0.1 µs). */
export function summarize(samplesMs: readonly number[]): Summary {
  const us = samplesMs.map((ms) => ms * 1000).sort((a, b) => a - b);
  const mean = us.reduce((a, b) => a + b, 0) / Math.max(1, us.length);
  const r = (x: number) => Math.round(x * 10) / 10;
  return { n: us.length, meanUs: r(mean), p50Us: r(quantile(us, 0.5)), p95Us: r(quantile(us, 0.95)) };
}

export function median(values: readonly number[]): number {
  return quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

export const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Total length of the union of [start, end] intervals (parallel calls are not counted twice). */
export function unionLength(intervals: ReadonlyArray<readonly [number, number]>): number {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let curStart = -Infinity;
  let curEnd = -Infinity;
  for (const [s, e] of sorted) {
    if (s > curEnd) {
      if (curEnd > curStart) total += curEnd - curStart;
      curStart = s;
      curEnd = e;
    } else if (e > curEnd) curEnd = e;
  }
  if (curEnd > curStart) total += curEnd - curStart;
  return total;
}

/**
 * Screening a batch of sensor frames before anything is written (pure): each reading is accepted as a
 * candidate, rejected with the reason, or a repeat of an earlier reading of the same batch. What needs the
 * stored state (a repeat of a stored reading, a counter going backwards) is decided by ./rollups.ts.
 */
import type { SensorMetric } from '../../../schemas/vocabulary.js';
import { valueProblem } from './metrics.js';

/** A reading may be at most this far ahead of its arrival (device clocks drift). */
export const MAX_CLOCK_SKEW_MS = 5 * 60_000;

export interface Frame {
  ts: string;
  metrics: Partial<Record<SensorMetric, number>>;
}

export interface Candidate {
  /** Position in the batch. */
  index: number;
  tsMs: number;
  metrics: Partial<Record<SensorMetric, number>>;
}

export interface Rejection {
  index: number;
  error: string;
}

export interface Screened {
  candidates: Candidate[];
  rejected: Rejection[];
  /** Repeats of an earlier reading of the same batch (same ts). */
  duplicates: number;
}

/**
 * `declared`: the device's metrics; `receivedAt`: when the batch arrived (ms); `oldestMs`: readings older
 * than this would expire from the raw store at once (the retention), so they are rejected.
 */
export function screenReadings(frames: readonly Frame[], opts: { declared: readonly SensorMetric[]; receivedAt: number; oldestMs: number }): Screened {
  const declared = new Set(opts.declared);
  const seen = new Set<number>();
  const out: Screened = { candidates: [], rejected: [], duplicates: 0 };
  frames.forEach((frame, index) => {
    const problem = readingProblem(frame, declared, opts);
    if (problem) {
      out.rejected.push({ index, error: problem });
      return;
    }
    const tsMs = Date.parse(frame.ts);
    if (seen.has(tsMs)) {
      out.duplicates++;
      return;
    }
    seen.add(tsMs);
    out.candidates.push({ index, tsMs, metrics: { ...frame.metrics } });
  });
  out.candidates.sort((a, b) => a.tsMs - b.tsMs);
  return out;
}

/** Why one reading cannot be stored (its time, a metric the device does not report, a value outside the physical range), or null. */
function readingProblem(frame: Frame, declared: ReadonlySet<SensorMetric>, opts: { receivedAt: number; oldestMs: number }): string | null {
  const tsMs = Date.parse(frame.ts);
  if (!Number.isFinite(tsMs)) return `ts "${frame.ts}" is not a date-time`;
  if (tsMs > opts.receivedAt + MAX_CLOCK_SKEW_MS) return `ts ${frame.ts} is more than 5 minutes after the batch arrived (device clock ahead?)`;
  if (tsMs < opts.oldestMs) return `ts ${frame.ts} is older than the raw readings are kept (${new Date(opts.oldestMs).toISOString()})`;
  const entries = Object.entries(frame.metrics) as [SensorMetric, number][];
  if (entries.length === 0) return 'metrics is empty';
  for (const [metric, value] of entries) {
    if (!declared.has(metric)) return `${metric} is not a metric of this device (${[...declared].join(', ')})`;
    const problem = valueProblem(metric, value);
    if (problem) return problem;
  }
  return null;
}

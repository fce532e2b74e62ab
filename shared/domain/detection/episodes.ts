import { addDays } from '../../platform/calendar.js';
/** Consecutive detections as one episode: what is stored as one anomaly record. */
import { cmp, compareDetections, HOUR_MS, type Detection } from './engine.js';
import { HOUR_BUCKET } from './hourly.js';

/** The bucket right after `bucket` (next day or next hour), or null for another format. */
function nextBucket(bucket: string): string | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(bucket)) return addDays(bucket, 1);
  if (HOUR_BUCKET.test(bucket)) return new Date(Date.parse(`${bucket}:00:00Z`) + HOUR_MS).toISOString().slice(0, 13);
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
